import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as tools from 'nostr-tools/pure';
import * as tools59 from 'nostr-tools/nip59';
import { v2 as tools44 } from 'nostr-tools/nip44';
import { nostr, prng, randomText, vectorsDir, throwsCode, rejectsCode } from './helpers.js';
import { core } from '../../js/core.js';

const { nip59, LocalSigner, Nip07Signer } = nostr;
const spec = JSON.parse(readFileSync(new URL('nips-spec-examples.json', vectorsDir), 'utf8')).nip59;
const bytes = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const TWO_DAYS = 172800;

/** A window.nostr-like NIP-07 extension built on nostr-tools (another implementation). */
function toolsExtension(sk) {
  const ck = (pk) => tools44.utils.getConversationKey(sk, pk);
  return {
    getPublicKey: async () => tools.getPublicKey(sk),
    signEvent: async (t) => tools.finalizeEvent(t, sk),
    nip44: {
      encrypt: async (pk, text) => tools44.encrypt(text, ck(pk)),
      decrypt: async (pk, payload) => tools44.decrypt(payload, ck(pk)),
    },
  };
}

function rumorFields(r) {
  const { id, pubkey, created_at, kind, tags, content } = r;
  return { id, pubkey, created_at, kind, tags, content };
}

function randomTemplate(rand, recipientPk) {
  const tags = [['p', recipientPk]];
  const n = Math.floor(rand() * 3);
  for (let i = 0; i < n; i++) tags.push(['subject', randomText(rand, 12)]);
  return { kind: 14, created_at: 1_700_000_000 + Math.floor(rand() * 1000), tags, content: randomText(rand, 300) };
}

// --- crafting with nostr-tools, to produce every kind of broken gift wrap

function craftWrap(sealText, recipientPk) {
  const oneTime = tools.generateSecretKey();
  const content = tools44.encrypt(sealText, tools44.utils.getConversationKey(oneTime, recipientPk));
  return tools.finalizeEvent({ kind: 1059, created_at: 1_700_000_000, tags: [['p', recipientPk]], content }, oneTime);
}

function craftSeal(rumorText, authorSk, recipientPk, kind = 13) {
  const content = tools44.encrypt(rumorText, tools44.utils.getConversationKey(authorSk, recipientPk));
  return tools.finalizeEvent({ kind, created_at: 1_700_000_000, tags: [], content }, authorSk);
}

function craftRumor(template, pubkey) {
  const r = { ...template, pubkey };
  r.id = tools.getEventHash(r);
  return r;
}

test('NIP-59 spec chain: unwraps to the given rumor, with a key, a LocalSigner and a NIP-07 signer', async () => {
  const recipient = bytes(spec.recipient_sk);
  const expect = rumorFields(spec.rumor);
  assert.deepEqual(rumorFields(nip59.unwrapEvent(spec.wrap, recipient)), expect);
  const local = new LocalSigner(recipient);
  assert.deepEqual(rumorFields(await nip59.unwrapEvent(spec.wrap, local)), expect);
  local.dispose();
  assert.deepEqual(rumorFields(await nip59.unwrapEvent(spec.wrap, new Nip07Signer(toolsExtension(recipient)))), expect);
  // The seal inside is the spec's seal: decrypt the wrap by hand and compare.
  const sealText = tools44.decrypt(spec.wrap.content, tools44.utils.getConversationKey(recipient, spec.wrap.pubkey));
  assert.deepEqual(JSON.parse(sealText), spec.seal);
  // The keys are the spec's keys; a different key cannot open it.
  assert.equal(nostr.getPublicKey(bytes(spec.wrapper_sk)), spec.wrap.pubkey);
  assert.equal(nostr.getPublicKey(bytes(spec.author_sk)), spec.seal.pubkey);
  throwsCode(() => nip59.unwrapEvent(spec.wrap, bytes(spec.author_sk)), 'NIP44_INVALID_MAC', 'wrong key');
  // The spec's rumor has no p tag, so the NIP-17-style recipient check refuses it.
  throwsCode(
    () => nip59.unwrapEvent(spec.wrap, recipient, { requireRecipientTag: true }),
    'NIP59_NOT_FOR_RECIPIENT',
    'recipient tag',
  );
});

test('our wraps unwrap in nostr-tools, and nostr-tools wraps unwrap here (100 random cases)', () => {
  const rand = prng(59);
  for (let i = 0; i < 50; i++) {
    const a = nostr.generateSecretKey();
    const b = nostr.generateSecretKey();
    const bp = nostr.getPublicKey(b);
    const t = randomTemplate(rand, bp);
    const w = nip59.wrapEvent(t, a, bp);
    assert.ok(tools.verifyEvent({ ...w }), `case ${i}: nostr-tools rejects our wrap`);
    const r = tools59.unwrapEvent(w, b);
    assert.deepEqual(rumorFields(r), { ...rumorFields(craftRumor(t, nostr.getPublicKey(a))) }, `case ${i}`);
  }
  for (let i = 0; i < 50; i++) {
    const a = tools.generateSecretKey();
    const b = tools.generateSecretKey();
    const bp = tools.getPublicKey(b);
    const t = randomTemplate(rand, bp);
    const w = tools59.wrapEvent(t, a, bp);
    const r = nip59.unwrapEvent(w, b, { requireRecipientTag: true });
    assert.deepEqual(rumorFields(r), rumorFields(craftRumor(t, tools.getPublicKey(a))), `case ${i}`);
  }
});

test('shape: seal has no tags, created_at of seal and wrap within two days and never in the future', () => {
  const a = nostr.generateSecretKey();
  const b = nostr.generateSecretKey();
  const ap = nostr.getPublicKey(a);
  const bp = nostr.getPublicKey(b);
  const now = 1_750_000_000;
  let lowest = now;
  for (let i = 0; i < 40; i++) {
    const w = nip59.wrapEvent({ kind: 14, content: `m${i}`, tags: [['p', bp]] }, a, bp, { now });
    assert.equal(w.kind, 1059);
    assert.deepEqual(w.tags, [['p', bp]]);
    assert.notEqual(w.pubkey, ap);
    assert.ok(w.created_at <= now && w.created_at >= now - TWO_DAYS, `wrap created_at ${w.created_at}`);
    const sealText = tools44.decrypt(w.content, tools44.utils.getConversationKey(b, w.pubkey));
    const seal = JSON.parse(sealText);
    assert.equal(seal.kind, 13);
    assert.deepEqual(seal.tags, []);
    assert.equal(seal.pubkey, ap);
    assert.ok(tools.verifyEvent(seal));
    assert.ok(seal.created_at <= now && seal.created_at >= now - TWO_DAYS, `seal created_at ${seal.created_at}`);
    const rumorText = tools44.decrypt(seal.content, tools44.utils.getConversationKey(b, ap));
    assert.ok(!('sig' in JSON.parse(rumorText)), 'rumor carries no sig');
    assert.equal(JSON.parse(rumorText).created_at, now, 'rumor created_at defaults to now');
    lowest = Math.min(lowest, w.created_at, seal.created_at);
  }
  assert.ok(lowest < now - 3600, 'timestamps are actually randomized');
  // The default clock is the real one.
  const real = Math.floor(Date.now() / 1000);
  const w = nip59.wrapEvent({ kind: 14, content: 'x' }, a, bp);
  assert.ok(w.created_at <= real + 1 && w.created_at >= real - TWO_DAYS);
});

test('step by step: createRumor, createSeal, createWrap (with extra tags) match nostr-tools', () => {
  const a = nostr.generateSecretKey();
  const b = nostr.generateSecretKey();
  const bp = nostr.getPublicKey(b);
  const rumor = nip59.createRumor({ kind: 1, content: 'steps' }, a, { now: 1234 });
  assert.deepEqual(rumor.tags, []);
  assert.equal(rumor.created_at, 1234);
  assert.equal(rumor.pubkey, tools.getPublicKey(a));
  assert.equal(rumor.id, tools.getEventHash(rumor));
  assert.ok(!('sig' in rumor));
  const seal = nip59.createSeal(rumor, a, bp);
  assert.equal(seal.kind, 13);
  assert.deepEqual(seal.tags, []);
  assert.ok(tools.verifyEvent({ ...seal }));
  const extra = [['expiration', '1900000000'], ['nonce', 'abc']];
  const wrap = nip59.createWrap(seal, bp, extra);
  assert.deepEqual(wrap.tags, [['p', bp], ...extra]);
  assert.deepEqual(rumorFields(tools59.unwrapEvent(wrap, b)), rumorFields(rumor));
  assert.deepEqual(nip59.unwrapEvent(wrap, b), rumorFields(rumor));
  // nostr-tools' own seal wraps fine here, and ours in nostr-tools' createWrap.
  const toolsSeal = tools59.createSeal(tools59.createRumor({ kind: 1, content: 't' }, a), a, bp);
  assert.equal(nip59.unwrapEvent(nip59.createWrap(toolsSeal, bp), b).content, 't');
  assert.equal(nip59.unwrapEvent(tools59.createWrap(seal, bp), b).content, 'steps');
  // wrapEvent passes extraTags through.
  assert.deepEqual(nip59.wrapEvent({ kind: 1, content: 'x' }, a, bp, { extraTags: extra }).tags, [['p', bp], ...extra]);
});

test('wrapManyEvents and unwrapManyEvents', () => {
  const a = nostr.generateSecretKey();
  const ap = nostr.getPublicKey(a);
  const keys = [nostr.generateSecretKey(), nostr.generateSecretKey(), nostr.generateSecretKey()];
  const pks = keys.map((k) => nostr.getPublicKey(k));
  const wraps = nip59.wrapManyEvents({ kind: 14, content: 'all', tags: pks.map((p) => ['p', p]) }, a, pks);
  assert.equal(wraps.length, 4);
  assert.deepEqual(wraps[0].tags, [['p', ap]], 'the first copy is for the sender');
  const ids = new Set();
  [a, ...keys].forEach((k, i) => {
    assert.deepEqual(wraps[i].tags, [['p', nostr.getPublicKey(k)]]);
    ids.add(nip59.unwrapEvent(wraps[i], k).id);
  });
  assert.equal(ids.size, 1, 'every copy carries the same rumor');
  throwsCode(() => nip59.wrapManyEvents({ kind: 14, content: 'x' }, a, []), 'INVALID_ARGUMENT', 'no recipients');

  // unwrapManyEvents: keeps what opens, skips the rest, oldest first.
  const bp = pks[0];
  const mine = [3, 1, 2].map((t) => nip59.wrapEvent({ kind: 14, content: String(t), created_at: t }, a, bp));
  const others = nip59.wrapEvent({ kind: 14, content: 'not mine' }, a, pks[1]);
  const broken = { ...mine[0], content: mine[0].content.slice(1) };
  const got = nip59.unwrapManyEvents([mine[0], others, broken, mine[1], { kind: 1 }, mine[2]], keys[0]);
  assert.deepEqual(
    got.map((r) => r.content),
    ['1', '2', '3'],
  );
  throwsCode(() => nip59.unwrapManyEvents(mine, new Uint8Array(32)), 'INVALID_SECRET_KEY', 'a bad key is thrown');
});

// Every broken wrap, with the code it must produce; run with a key and with both signers.
function brokenWraps() {
  const a = tools.generateSecretKey();
  const b = tools.generateSecretKey();
  const other = tools.generateSecretKey();
  const ap = tools.getPublicKey(a);
  const bp = tools.getPublicKey(b);
  const t = { kind: 14, created_at: 1_700_000_000, tags: [['p', bp]], content: 'hi' };
  const rumor = craftRumor(t, ap);
  const good = craftWrap(JSON.stringify(craftSeal(JSON.stringify(rumor), a, bp)), bp);
  const seal = craftSeal(JSON.stringify(rumor), a, bp);
  const flip = (s, i) => s.slice(0, i) + (s[i] === '0' ? '1' : '0') + s.slice(i + 1);
  const cases = [
    ['good', good, null],
    ['kind 14 instead of 1059', tools.finalizeEvent({ ...t, content: good.content }, other), 'NIP59_NOT_GIFT_WRAP'],
    ['wrap content edited', { ...good, content: good.content.slice(0, 40) + (good.content[40] === 'x' ? 'y' : 'x') + good.content.slice(41) }, 'ID_MISMATCH'],
    ['wrap signature broken', { ...good, sig: flip(good.sig, 0) }, 'INVALID_SIGNATURE'],
    ['wrap without pubkey', { ...good, pubkey: undefined }, 'INVALID_EVENT'],
    ['wrap for someone else', craftWrap(JSON.stringify(seal), tools.getPublicKey(other)), 'NIP44_INVALID_MAC'],
    ['seal not JSON', craftWrap('not json', bp), 'NIP59_INVALID_SEAL'],
    ['seal kind 1', craftWrap(JSON.stringify(craftSeal(JSON.stringify(rumor), a, bp, 1)), bp), 'NIP59_INVALID_SEAL'],
    ['seal without sig', craftWrap(JSON.stringify({ ...seal, sig: undefined }), bp), 'NIP59_INVALID_SEAL'],
    ['seal signature broken', craftWrap(JSON.stringify({ ...seal, sig: flip(seal.sig, 3) }), bp), 'NIP59_SEAL_SIGNATURE'],
    ['seal edited', craftWrap(JSON.stringify({ ...seal, created_at: seal.created_at + 1 }), bp), 'NIP59_SEAL_SIGNATURE'],
    ['rumor not JSON', craftWrap(JSON.stringify(craftSeal('{"id":', a, bp)), bp), 'NIP59_INVALID_RUMOR'],
    ['rumor missing id', craftWrap(JSON.stringify(craftSeal(JSON.stringify({ ...rumor, id: undefined }), a, bp)), bp), 'NIP59_INVALID_RUMOR'],
    [
      'rumor of another author',
      craftWrap(JSON.stringify(craftSeal(JSON.stringify(craftRumor(t, tools.getPublicKey(other))), a, bp)), bp),
      'NIP59_AUTHOR_MISMATCH',
    ],
    [
      'rumor edited after hashing',
      craftWrap(JSON.stringify(craftSeal(JSON.stringify({ ...rumor, content: 'edited' }), a, bp)), bp),
      'NIP59_RUMOR_ID_MISMATCH',
    ],
  ];
  const untagged = craftWrap(JSON.stringify(craftSeal(JSON.stringify(craftRumor({ ...t, tags: [] }, ap)), a, bp)), bp);
  return { b, cases, untagged };
}

test('tampered and crafted wraps give their typed errors (secret key)', async () => {
  const { b, cases, untagged } = brokenWraps();
  for (const [what, wrap, code] of cases) {
    if (code === null) assert.equal(nip59.unwrapEvent(wrap, b).content, 'hi');
    else throwsCode(() => nip59.unwrapEvent(wrap, b, { verifyWrap: true }), code, what);
  }
  assert.deepEqual(nip59.unwrapEvent(untagged, b).tags, []);
  throwsCode(() => nip59.unwrapEvent(untagged, b, { requireRecipientTag: true }), 'NIP59_NOT_FOR_RECIPIENT', 'untagged');
  throwsCode(() => nip59.unwrapEvent(null, b), 'INVALID_EVENT', 'null wrap');
  throwsCode(() => nip59.unwrapEvent('{}', b), 'INVALID_EVENT', 'string wrap');
});

test('tampered and crafted wraps give the same typed errors through both signers', async () => {
  const { b, cases, untagged } = brokenWraps();
  const signers = [new LocalSigner(b), new Nip07Signer(toolsExtension(b))];
  for (const s of signers) {
    for (const [what, wrap, code] of cases) {
      if (code === null) assert.equal((await nip59.unwrapEvent(wrap, s)).content, 'hi');
      else await rejectsCode(nip59.unwrapEvent(wrap, s, { verifyWrap: true }), code === 'NIP44_INVALID_MAC' && s instanceof Nip07Signer ? 'SIGNER_REJECTED' : code, `${what} (${s.constructor.name})`);
    }
    await rejectsCode(
      nip59.unwrapEvent(untagged, s, { requireRecipientTag: true }),
      'NIP59_NOT_FOR_RECIPIENT',
      `untagged (${s.constructor.name})`,
    );
    // Errors surface as rejections, never as synchronous throws, on the signer path.
    const p = nip59.unwrapEvent(null, s);
    assert.ok(p instanceof Promise);
    await rejectsCode(p, 'INVALID_EVENT', 'null wrap');
  }
  signers[0].dispose();
});

test('misuse is reported with a code', async () => {
  const a = nostr.generateSecretKey();
  const bp = nostr.getPublicKey(nostr.generateSecretKey());
  const t = { kind: 14, content: 'x' };
  throwsCode(() => nip59.wrapEvent(t, a, 'not hex'), 'INVALID_PUBLIC_KEY', 'recipient');
  throwsCode(() => nip59.wrapEvent(t, a, bp.toUpperCase()), 'INVALID_PUBLIC_KEY', 'uppercase recipient');
  throwsCode(() => nip59.wrapEvent(t, a, undefined), 'INVALID_PUBLIC_KEY', 'no recipient');
  throwsCode(() => nip59.wrapEvent(t, new Uint8Array(31), bp), 'INVALID_SECRET_KEY', 'short key');
  throwsCode(() => nip59.wrapEvent(t, new Uint8Array(32), bp), 'INVALID_SECRET_KEY', 'zero key');
  throwsCode(() => nip59.wrapEvent(t, 'nsec...', bp), 'INVALID_ARGUMENT', 'neither key nor signer');
  throwsCode(() => nip59.wrapEvent(t, a, bp, { now: -1 }), 'INVALID_ARGUMENT', 'negative now');
  throwsCode(() => nip59.wrapEvent(t, a, bp, { now: 1.5 }), 'INVALID_ARGUMENT', 'fractional now');
  throwsCode(() => nip59.wrapEvent(t, a, bp, { extraTags: [['x', 1]] }), 'INVALID_ARGUMENT', 'extra tags');
  throwsCode(() => nip59.wrapEvent({ content: 'no kind' }, a, bp), 'INVALID_EVENT', 'no kind');
  throwsCode(() => nip59.wrapEvent({ kind: 1, tags: 'x' }, a, bp), 'INVALID_EVENT', 'bad tags');
  throwsCode(() => nip59.wrapEvent(null, a, bp), 'INVALID_EVENT', 'null template');
  // A seal must carry the author's own, correctly hashed rumor.
  const other = nostr.generateSecretKey();
  const rumor = nip59.createRumor(t, a);
  throwsCode(() => nip59.createSeal(rumor, other, bp), 'NIP59_AUTHOR_MISMATCH', 'rumor of another author');
  throwsCode(() => nip59.createSeal({ ...rumor, content: 'y' }, a, bp), 'NIP59_RUMOR_ID_MISMATCH', 'edited rumor');
  throwsCode(() => nip59.createSeal({ ...rumor, id: 'x' }, a, bp), 'NIP59_INVALID_RUMOR', 'malformed rumor');
  throwsCode(() => nip59.createSeal(null, a, bp), 'NIP59_INVALID_RUMOR', 'null rumor');
  // createWrap only wraps valid seals.
  const seal = nip59.createSeal(rumor, a, bp);
  throwsCode(() => nip59.createWrap({ ...seal, kind: 1 }, bp), 'NIP59_INVALID_SEAL', 'not a seal');
  throwsCode(() => nip59.createWrap({ ...seal, content: 'x' }, bp), 'NIP59_SEAL_SIGNATURE', 'edited seal');
  throwsCode(() => nip59.createWrap(seal, 'zz'), 'INVALID_PUBLIC_KEY', 'bad recipient');
  // With a signer, errors are rejections.
  const s = new LocalSigner(a);
  await rejectsCode(nip59.wrapEvent(t, s, 'not hex'), 'INVALID_PUBLIC_KEY', 'signer: recipient');
  await rejectsCode(nip59.wrapEvent({ content: 'no kind' }, s, bp), 'INVALID_EVENT', 'signer: no kind');
  await rejectsCode(nip59.createSeal(nip59.createRumor(t, other), s, bp), 'NIP59_AUTHOR_MISMATCH', 'signer: author');
  s.dispose();
});

test('by default the wrap\'s own signature is not checked (as in nostr-tools and rust-nostr); its content still is', async () => {
  const { b, cases } = brokenWraps();
  const byName = Object.fromEntries(cases.map(([what, wrap]) => [what, wrap]));
  assert.equal(nip59.unwrapEvent(byName['wrap signature broken'], b).content, 'hi');
  assert.equal((await nip59.unwrapEvent(byName['wrap signature broken'], new Nip07Signer(toolsExtension(b)))).content, 'hi');
  throwsCode(() => nip59.unwrapEvent(byName['wrap content edited'], b), 'NIP44_INVALID_MAC', 'content edited');
  throwsCode(() => nip59.unwrapEvent(byName['kind 14 instead of 1059'], b), 'NIP59_NOT_GIFT_WRAP', 'kind');
  throwsCode(() => nip59.unwrapEvent(byName['wrap without pubkey'], b), 'INVALID_EVENT', 'shape');
});

test('a secret key array is read afresh on every call and no copy of it is kept', () => {
  const k1 = nostr.generateSecretKey();
  const k2 = nostr.generateSecretKey();
  const b = nostr.generateSecretKey();
  const bp = nostr.getPublicKey(b);
  const sealAuthor = (w) =>
    JSON.parse(tools44.decrypt(w.content, tools44.utils.getConversationKey(b, w.pubkey))).pubkey;
  const sk = k1.slice();
  for (let i = 0; i < 3; i++) assert.equal(sealAuthor(nip59.wrapEvent({ kind: 14, content: 'a' }, sk, bp)), nostr.getPublicKey(k1));
  sk.set(k2); // the same array now holds another key
  assert.equal(sealAuthor(nip59.wrapEvent({ kind: 14, content: 'b' }, sk, bp)), nostr.getPublicKey(k2));
  assert.equal(sealAuthor(nip59.wrapEvent({ kind: 14, content: 'c' }, sk, bp)), nostr.getPublicKey(k2));
  sk.fill(0); // wiped by its owner
  throwsCode(() => nip59.wrapEvent({ kind: 14, content: 'd' }, sk, bp), 'INVALID_SECRET_KEY', 'wiped key');

  // Unwrapping: the recipient key array changes between calls.
  const r = b.slice();
  const forB = nip59.wrapEvent({ kind: 14, content: 'to b' }, k1, bp);
  const forK2 = nip59.wrapEvent({ kind: 14, content: 'to k2' }, k1, nostr.getPublicKey(k2));
  assert.equal(nip59.unwrapEvent(forB, r).content, 'to b');
  assert.equal(nip59.unwrapEvent(forB, r).content, 'to b');
  r.set(k2);
  throwsCode(() => nip59.unwrapEvent(forB, r), 'NIP44_INVALID_MAC', 'old key gone');
  assert.equal(nip59.unwrapEvent(forK2, r).content, 'to k2');
  assert.equal(nip59.unwrapEvent(forK2, r).content, 'to k2');
  r.fill(0);
  throwsCode(() => nip59.unwrapEvent(forK2, r), 'INVALID_SECRET_KEY', 'wiped recipient key');

  // A Node Buffer (slice() returns a view, not a copy) is compared and kept apart the same way.
  const buf = Buffer.from(k1);
  for (let i = 0; i < 3; i++) assert.equal(sealAuthor(nip59.wrapEvent({ kind: 14, content: 'e' }, buf, bp)), nostr.getPublicKey(k1));
  buf.set(k2);
  assert.equal(sealAuthor(nip59.wrapEvent({ kind: 14, content: 'f' }, buf, bp)), nostr.getPublicKey(k2));
  assert.deepEqual(new Uint8Array(buf), k2, "the caller's array is never wiped");
});

test('raw secret keys create no key handle (nothing outlives the call)', () => {
  const c = core();
  const probe = c.keyGenerate();
  c.keyDispose(probe);
  const sk = nostr.generateSecretKey();
  const b = nostr.generateSecretKey();
  const bp = nostr.getPublicKey(b);
  for (let i = 0; i < 3; i++) assert.equal(nip59.unwrapEvent(nip59.wrapEvent({ kind: 1, content: 'x' }, sk, bp), b).content, 'x');
  const next = c.keyGenerate();
  c.keyDispose(next);
  assert.equal(next, probe + 1, 'a key handle was created behind the caller');
});

test('secret keys pass through the wiped slot: nothing is left there, on success or failure', () => {
  const c = core();
  const slotIsZero = () => c.HEAPU8.subarray(c.secretSlot(), c.secretSlot() + 32).every((b) => b === 0);
  const sk = nostr.generateSecretKey();
  const b = nostr.generateSecretKey();
  const bp = nostr.getPublicKey(b);
  const w = nip59.wrapEvent({ kind: 14, content: 'x' }, sk, bp);
  assert.ok(slotIsZero(), 'after wrapEvent');
  nip59.unwrapEvent(w, b);
  assert.ok(slotIsZero(), 'after unwrapEvent');
  nip59.createSeal(nip59.createRumor({ kind: 1 }, sk), sk, bp);
  assert.ok(slotIsZero(), 'after createSeal');
  // Failures inside the core, after the key was handed over.
  assert.throws(() => nip59.wrapEvent({ kind: 14, content: 'x' }, sk.slice(), 'f'.repeat(64)));
  assert.ok(slotIsZero(), 'after a failed wrapEvent');
  assert.throws(() => nip59.unwrapEvent({ ...w, kind: 1 }, b.slice()));
  assert.ok(slotIsZero(), 'after a failed unwrapEvent');
  assert.throws(() => nip59.createSeal(nip59.createRumor({ kind: 1 }, b), sk.slice(), bp));
  assert.ok(slotIsZero(), 'after a failed createSeal');
});
