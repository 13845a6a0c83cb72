import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as tools from 'nostr-tools/pure';
import * as tools59 from 'nostr-tools/nip59';
import { v2 as tools44 } from 'nostr-tools/nip44';
import { nostr, prng, randomText, rejectsCode } from './helpers.js';

const { nip59, LocalSigner, Nip07Signer, isSigner } = nostr;
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A window.nostr-like NIP-07 extension built on nostr-tools (another implementation). */
function toolsExtension(sk, { nip44 = true } = {}) {
  const ck = (pk) => tools44.utils.getConversationKey(sk, pk);
  const ext = {
    calls: [],
    getPublicKey: async () => tools.getPublicKey(sk),
    signEvent: async (t) => {
      ext.calls.push('signEvent');
      return tools.finalizeEvent(t, sk);
    },
  };
  if (nip44)
    ext.nip44 = {
      encrypt: async (pk, text) => {
        ext.calls.push('encrypt');
        return tools44.encrypt(text, ck(pk));
      },
      decrypt: async (pk, payload) => {
        ext.calls.push('decrypt');
        return tools44.decrypt(payload, ck(pk));
      },
    };
  return ext;
}

test('LocalSigner signs, encrypts and decrypts like nostr-tools with the same key', async () => {
  const sk = nostr.generateSecretKey();
  const s = new LocalSigner(sk);
  assert.ok(isSigner(s));
  assert.equal(s.publicKey, tools.getPublicKey(sk));
  assert.equal(await s.getPublicKey(), s.publicKey);
  const e = await s.signEvent({ kind: 1, created_at: 5, tags: [['t', 'x']], content: 'signed in wasm' });
  assert.equal(e.pubkey, s.publicKey);
  assert.ok(tools.verifyEvent({ ...e }));
  const peer = tools.generateSecretKey();
  const peerPk = tools.getPublicKey(peer);
  const rand = prng(7);
  for (let i = 0; i < 20; i++) {
    const text = randomText(rand, 200) || 'x';
    const payload = await s.nip44Encrypt(peerPk, text);
    assert.equal(tools44.decrypt(payload, tools44.utils.getConversationKey(peer, s.publicKey)), text);
    const back = tools44.encrypt(text, tools44.utils.getConversationKey(peer, s.publicKey));
    assert.equal(await s.nip44Decrypt(peerPk, back), text);
  }
  const g1 = LocalSigner.generate();
  const g2 = new LocalSigner();
  assert.notEqual(g1.publicKey, g2.publicKey);
  assert.ok(nostr.isValidPublicKey(g1.publicKey));
  g1.dispose();
  g2.dispose();
  s.dispose();
});

test('LocalSigner refuses bad keys', () => {
  for (const bad of [new Uint8Array(31), new Uint8Array(32), new Uint8Array(32).fill(255), 'ab'.repeat(32), [1, 2]])
    assert.throws(() => new LocalSigner(bad), { name: 'NostrError', code: 'INVALID_SECRET_KEY' });
});

test('a disposed LocalSigner throws SIGNER_DISPOSED everywhere', async () => {
  const s = new LocalSigner(nostr.generateSecretKey());
  const pk = nostr.getPublicKey(nostr.generateSecretKey());
  const wrap = nip59.wrapEvent({ kind: 1, content: 'x' }, nostr.generateSecretKey(), s.publicKey);
  assert.equal(s.disposed, false);
  s.dispose();
  assert.equal(s.disposed, true);
  s.dispose(); // idempotent
  assert.throws(() => s.publicKey, { code: 'SIGNER_DISPOSED' });
  await rejectsCode(s.getPublicKey(), 'SIGNER_DISPOSED', 'getPublicKey');
  await rejectsCode(s.signEvent({ kind: 1, created_at: 1, tags: [], content: '' }), 'SIGNER_DISPOSED', 'signEvent');
  await rejectsCode(s.nip44Encrypt(pk, 'x'), 'SIGNER_DISPOSED', 'nip44Encrypt');
  await rejectsCode(s.nip44Decrypt(pk, 'x'), 'SIGNER_DISPOSED', 'nip44Decrypt');
  await rejectsCode(nip59.wrapEvent({ kind: 1, content: 'x' }, s, pk), 'SIGNER_DISPOSED', 'wrapEvent');
  await rejectsCode(nip59.unwrapEvent(wrap, s), 'SIGNER_DISPOSED', 'unwrapEvent');
  await rejectsCode(nip59.createRumor({ kind: 1 }, s), 'SIGNER_DISPOSED', 'createRumor');
  await rejectsCode(nip59.unwrapManyEvents([wrap], s), 'SIGNER_DISPOSED', 'unwrapManyEvents');
});

test('a LocalSigner that is garbage-collected without dispose() has its key wiped', () => {
  // A child process with --expose-gc: the handle must be gone from wasm memory after collection.
  const script = `
    import * as nostr from 'nostr-agents';
    import { core } from './js/core.js';
    await nostr.init();
    let handle = (() => { const s = new nostr.LocalSigner(); return s[Symbol.for('nostr-agents.LocalSigner.handle')](core()); })();
    const alive = () => core().keyPublic(handle) !== undefined;
    if (!alive()) { console.log('dead-too-early'); process.exit(0); }
    for (let i = 0; i < 50 && alive(); i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); }
    console.log(alive() ? 'still-alive' : 'wiped');
  `;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  assert.equal(r.stderr, '');
  assert.equal(r.stdout.trim(), 'wiped');
});

test('Nip07Signer over a nostr-tools extension, and LocalSigner, wrap and unwrap with each other and with keys', async () => {
  const rand = prng(11);
  for (let i = 0; i < 6; i++) {
    const aKey = tools.generateSecretKey();
    const bKey = tools.generateSecretKey();
    const bp = tools.getPublicKey(bKey);
    const senders = [aKey, new LocalSigner(aKey), new Nip07Signer(toolsExtension(aKey))];
    const receivers = [bKey, new LocalSigner(bKey), new Nip07Signer(toolsExtension(bKey))];
    for (const sender of senders) {
      const t = { kind: 14, created_at: 1000 + i, tags: [['p', bp]], content: randomText(rand, 80) };
      const wrap = await nip59.wrapEvent(t, sender, bp, { now: 1_800_000_000 });
      assert.ok(tools.verifyEvent({ ...wrap }));
      assert.ok(wrap.created_at <= 1_800_000_000 && wrap.created_at >= 1_800_000_000 - 172800);
      // nostr-tools agrees with every sender.
      const viaTools = tools59.unwrapEvent(wrap, bKey);
      assert.equal(viaTools.content, t.content);
      for (const receiver of receivers) {
        const rumor = await nip59.unwrapEvent(wrap, receiver, { requireRecipientTag: true });
        assert.equal(rumor.content, t.content);
        assert.equal(rumor.pubkey, tools.getPublicKey(aKey));
        assert.equal(rumor.id, viaTools.id);
      }
    }
    // And what nostr-tools wraps, every receiver opens.
    const toolsWrap = tools59.wrapEvent({ kind: 14, content: 'from tools', tags: [] }, aKey, bp);
    for (const receiver of receivers) assert.equal((await nip59.unwrapEvent(toolsWrap, receiver)).content, 'from tools');
    for (const s of [...senders, ...receivers]) if (s instanceof LocalSigner) s.dispose();
  }
});

test('with a NIP-07 signer every key operation goes through the extension', async () => {
  const aKey = tools.generateSecretKey();
  const bKey = tools.generateSecretKey();
  const bp = tools.getPublicKey(bKey);
  const extA = toolsExtension(aKey);
  const extB = toolsExtension(bKey);
  const rumor = await nip59.createRumor({ kind: 14, content: 'steps', tags: [['p', bp]] }, new Nip07Signer(extA));
  assert.equal(rumor.pubkey, tools.getPublicKey(aKey));
  const seal = await nip59.createSeal(rumor, new Nip07Signer(extA), bp);
  assert.deepEqual(extA.calls, ['encrypt', 'signEvent']);
  assert.equal(seal.kind, 13);
  assert.deepEqual(seal.tags, []);
  const wrap = nip59.createWrap(seal, bp, [['expiration', '1900000000']]);
  assert.deepEqual(wrap.tags, [['p', bp], ['expiration', '1900000000']]);
  const out = await nip59.unwrapEvent(wrap, new Nip07Signer(extB));
  assert.deepEqual(extB.calls, ['decrypt', 'decrypt']);
  assert.equal(out.id, rumor.id);
  // wrapManyEvents / unwrapManyEvents with a signer.
  const many = await nip59.wrapManyEvents({ kind: 14, content: 'many' }, new Nip07Signer(extA), [bp]);
  assert.equal(many.length, 2);
  const opened = await nip59.unwrapManyEvents([...many, wrap], new Nip07Signer(extB));
  assert.deepEqual(opened.map((r) => r.content).sort(), ['many', 'steps']);
});

test('Nip07Signer without nip44 gives SIGNER_UNSUPPORTED; without an extension SIGNER_UNAVAILABLE', async () => {
  const sk = tools.generateSecretKey();
  const pk = tools.getPublicKey(nostr.generateSecretKey());
  const old = new Nip07Signer(toolsExtension(sk, { nip44: false }));
  assert.equal(old.available, true);
  assert.equal(old.supportsNip44, false);
  assert.equal(await old.getPublicKey(), tools.getPublicKey(sk)); // the rest still works
  await rejectsCode(old.nip44Encrypt(pk, 'x'), 'SIGNER_UNSUPPORTED', 'nip44Encrypt');
  await rejectsCode(old.nip44Decrypt(pk, 'x'), 'SIGNER_UNSUPPORTED', 'nip44Decrypt');
  await rejectsCode(nip59.wrapEvent({ kind: 14, content: 'x' }, old, pk), 'SIGNER_UNSUPPORTED', 'wrapEvent');
  const wrap = nip59.wrapEvent({ kind: 14, content: 'x' }, nostr.generateSecretKey(), tools.getPublicKey(sk));
  await rejectsCode(nip59.unwrapEvent(wrap, old), 'SIGNER_UNSUPPORTED', 'unwrapEvent');
  await rejectsCode(nip59.unwrapManyEvents([wrap], old), 'SIGNER_UNSUPPORTED', 'unwrapManyEvents');
  await assert.rejects(old.nip44Encrypt(pk, 'x'), /NIP-44/);

  // No window.nostr at all (Node has no window).
  const none = new Nip07Signer();
  assert.equal(none.available, false);
  await rejectsCode(none.getPublicKey(), 'SIGNER_UNAVAILABLE', 'getPublicKey');
  await rejectsCode(none.signEvent({ kind: 1, created_at: 1, tags: [], content: '' }), 'SIGNER_UNAVAILABLE', 'signEvent');
  await rejectsCode(none.nip44Encrypt(pk, 'x'), 'SIGNER_UNAVAILABLE', 'nip44Encrypt');
  await rejectsCode(nip59.wrapEvent({ kind: 14, content: 'x' }, none, pk), 'SIGNER_UNAVAILABLE', 'wrapEvent');
  // An extension injected later is found at call time.
  globalThis.window = { nostr: toolsExtension(sk) };
  try {
    assert.equal(none.available, true);
    assert.equal(await none.getPublicKey(), tools.getPublicKey(sk));
  } finally {
    delete globalThis.window;
  }
});

test('an extension that refuses gives SIGNER_REJECTED with the cause; a lying one is caught', async () => {
  const sk = tools.generateSecretKey();
  const pk = tools.getPublicKey(nostr.generateSecretKey());
  const refusal = new Error('user said no');
  const refusing = {
    getPublicKey: async () => {
      throw refusal;
    },
    signEvent: async () => {
      throw refusal;
    },
    nip44: {
      encrypt: async () => {
        throw refusal;
      },
      decrypt: () => Promise.reject(refusal),
    },
  };
  const s = new Nip07Signer(refusing);
  for (const [what, p] of [
    ['getPublicKey', s.getPublicKey()],
    ['signEvent', s.signEvent({ kind: 1, created_at: 1, tags: [], content: '' })],
    ['nip44Encrypt', s.nip44Encrypt(pk, 'x')],
    ['nip44Decrypt', s.nip44Decrypt(pk, 'x')],
    ['wrapEvent', nip59.wrapEvent({ kind: 1, content: 'x' }, s, pk)],
  ]) {
    await assert.rejects(p, (err) => {
      assert.equal(err.code, 'SIGNER_REJECTED', what);
      assert.equal(err.cause, refusal, what);
      assert.match(err.message, /user said no/);
      return true;
    });
  }

  // Answers are checked: a forged signature, an altered event, a bad public key.
  const honest = toolsExtension(sk);
  const forging = {
    ...honest,
    signEvent: async (t) => {
      const e = tools.finalizeEvent(t, sk);
      return { ...e, sig: (e.sig[0] === '0' ? '1' : '0') + e.sig.slice(1) };
    },
  };
  await rejectsCode(
    new Nip07Signer(forging).signEvent({ kind: 1, created_at: 1, tags: [], content: '' }),
    'INVALID_SIGNATURE',
    'forged signature',
  );
  await rejectsCode(nip59.wrapEvent({ kind: 1, content: 'x' }, new Nip07Signer(forging), pk), 'INVALID_SIGNATURE', 'forged seal');
  const altering = { ...honest, signEvent: async (t) => tools.finalizeEvent({ ...t, tags: [['client', 'x']] }, sk) };
  await rejectsCode(
    new Nip07Signer(altering).signEvent({ kind: 1, created_at: 1, tags: [], content: '' }),
    'INVALID_EVENT',
    'altered event',
  );
  const badKey = { ...honest, getPublicKey: async () => 'npub1...' };
  await rejectsCode(new Nip07Signer(badKey).getPublicKey(), 'INVALID_PUBLIC_KEY', 'bad public key');

  // A custom Signer (not one of ours) that returns someone else's seal is refused by nip59.
  const mallory = tools.generateSecretKey();
  const custom = {
    getPublicKey: async () => tools.getPublicKey(sk),
    signEvent: async (t) => tools.finalizeEvent(t, mallory),
    nip44Encrypt: async (p, text) => tools44.encrypt(text, tools44.utils.getConversationKey(sk, p)),
    nip44Decrypt: async (p, payload) => tools44.decrypt(payload, tools44.utils.getConversationKey(sk, p)),
  };
  assert.ok(isSigner(custom));
  await rejectsCode(nip59.wrapEvent({ kind: 1, content: 'x' }, custom, pk), 'NIP59_INVALID_SEAL', 'seal by another key');
  assert.equal(isSigner({ getPublicKey() {} }), false);
  assert.equal(isSigner(null), false);
});

test('Nip07Signer refuses bad input with LocalSigner\'s codes before the extension sees it', async () => {
  const sk = tools.generateSecretKey();
  const ext = toolsExtension(sk);
  const asked = [];
  const watched = {
    ...ext,
    signEvent: (t) => (asked.push('signEvent'), ext.signEvent(t)),
    nip44: { encrypt: (...a) => (asked.push('encrypt'), ext.nip44.encrypt(...a)), decrypt: (...a) => (asked.push('decrypt'), ext.nip44.decrypt(...a)) },
  };
  const local = new LocalSigner(sk);
  const viaExt = new Nip07Signer(watched);
  const pk = tools.getPublicKey(nostr.generateSecretKey());
  const badTemplates = [
    null,
    { created_at: 1, tags: [], content: '' },
    { kind: 70000, created_at: 1, tags: [], content: '' },
    { kind: 1, created_at: -1, tags: [], content: '' },
    { kind: 1, created_at: 1.5, tags: [], content: '' },
    { kind: 1, created_at: 1, tags: [[1]], content: '' },
    { kind: 1, created_at: 1, tags: [], content: 5 },
  ];
  const cases = [
    ...badTemplates.map((t) => [(s) => s.signEvent(t), `signEvent ${JSON.stringify(t)}`]),
    [(s) => s.nip44Encrypt('zz', 'x'), 'nip44Encrypt bad key'],
    [(s) => s.nip44Encrypt(pk.slice(1), 'x'), 'nip44Encrypt short key'],
    [(s) => s.nip44Encrypt(pk, 5), 'nip44Encrypt plaintext not a string'],
    [(s) => s.nip44Decrypt(null, 'x'), 'nip44Decrypt no key'],
    [(s) => s.nip44Decrypt(pk, {}), 'nip44Decrypt payload not a string'],
  ];
  try {
    for (const [call, what] of cases) {
      let want;
      await assert.rejects(call(local), (e) => ((want = e), true));
      assert.ok(want.code, what);
      await assert.rejects(call(viaExt), (e) => e instanceof nostr.NostrError && e.code === want.code && e.message === want.message, `${what}: ${want.code}`);
    }
    assert.deepEqual(asked, [], 'the extension was asked nothing');
    // Either case of hex, as LocalSigner: the extension gets lowercase.
    const payload = await viaExt.nip44Encrypt(pk.toUpperCase(), 'hi');
    assert.deepEqual(asked, ['encrypt']);
    assert.equal(typeof payload, 'string');
    const mine = tools.getPublicKey(sk);
    assert.equal(await viaExt.nip44Decrypt(mine.toUpperCase(), await local.nip44Encrypt(mine, 'back')), 'back');
  } finally {
    local.dispose();
  }
});

test("a LocalSigner's key handle is only handed to the module that holds the key", async () => {
  // The built demo page runs AGX on a WASM module of its own (agx.wasm): a handle number from the
  // page's module means nothing there, or another key. Asked by any other module, the signer
  // answers 0, and nip59/AGX go through its Signer methods (the key stays where it is).
  const { readFile } = await import('node:fs/promises');
  const { default: createCore } = await import('../../dist/core.mjs');
  const { core } = await import('../../js/core.js');
  const other = await createCore({ wasmBinary: await readFile(new URL('../../dist/core.wasm', import.meta.url)), getRandomValue: () => 4 });
  other.prepare();
  const HANDLE = Symbol.for('nostr-agents.LocalSigner.handle');
  const s = new LocalSigner();
  const h = s[HANDLE](core());
  assert.ok(Number.isInteger(h) && h > 0);
  assert.equal(s[HANDLE](other), 0, 'no handle for another module');
  assert.equal(s[HANDLE](undefined), 0);
  s.dispose();
  assert.throws(() => s[HANDLE](core()), { code: 'SIGNER_DISPOSED' });
});
