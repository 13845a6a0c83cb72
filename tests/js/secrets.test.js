// Secret keys never reach a log line, an error message or a thrown error. A representative run of
// every API that takes a key (LocalSigner, finalizeEvent, nip44, nip59, nip19, relay AUTH, the
// NIP-XX agent and client, the AGX agent), good inputs and bad ones, over a real dev relay, while
// every console call, every stdout/stderr write, every process warning, every error thrown or
// handed to an onError/onWarning callback (message, stack, cause chain, own properties) is
// collected; then none of it may contain a test secret: hex (either case, or its first half), nsec
// (or its first 30 characters), or a NIP-44 conversation key.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { format, inspect } from 'node:util';
import { nostr, sleep } from './helpers.js';
import { startDevRelay } from '../support/relays.js';

const { LocalSigner, RelayPool, nip19, nip44, nip59, agx, serveAgent, prompt } = nostr;

const secretOf = (label) => new Uint8Array(createHash('sha256').update(`nostr-agents secrets test ${label}`).digest());
const hexOf = (b) => Buffer.from(b).toString('hex');
const KEYS = { alice: secretOf('alice'), bob: secretOf('bob'), carol: secretOf('carol'), agent: secretOf('agent'), client: secretOf('client') };
const INVALID_KEYS = { overOrder: new Uint8Array(32).fill(0xff), zero: new Uint8Array(32) };

// --- Everything that could leak, collected.
const sink = [];
const record = (what, text) => sink.push({ what, text: String(text) });
function recordError(where, err) {
  const seen = new Set();
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 8 && !seen.has(e); e = e.cause, depth++) {
    seen.add(e);
    record(`${where}: thrown`, inspect(e, { depth: 8, showHidden: true }));
    record(`${where}: string`, String(e));
    if (e instanceof Error) {
      record(`${where}: message`, e.message);
      record(`${where}: stack`, e.stack);
      try {
        record(`${where}: json`, JSON.stringify(e));
      } catch {
        /* circular: the inspect above covers it */
      }
    }
  }
}
async function attempt(where, fn) {
  try {
    const v = await fn();
    return v;
  } catch (err) {
    recordError(where, err);
    return undefined;
  }
}

const restore = [];
function capture() {
  for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace']) {
    const orig = console[m];
    console[m] = (...args) => {
      record(`console.${m}`, format(...args));
      return orig.apply(console, args);
    };
    restore.push(() => (console[m] = orig));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const orig = stream.write;
    stream.write = function write(chunk, ...rest) {
      record('stdio', typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return orig.call(this, chunk, ...rest);
    };
    restore.push(() => (stream.write = orig));
  }
  const onWarning = (w) => recordError('process warning', w);
  process.on('warning', onWarning);
  restore.push(() => process.off('warning', onWarning));
}

function needles() {
  const out = [];
  const add = (label, b) => {
    const h = hexOf(b);
    out.push([`${label} hex`, h], [`${label} HEX`, h.toUpperCase()], [`${label} hex half`, h.slice(0, 32)],
      [`${label} HEX half`, h.slice(0, 32).toUpperCase()]);
    if (b.some((x) => x !== 0 && x !== 0xff)) {
      const nsec = nip19.nsecEncode(b);
      out.push([`${label} nsec`, nsec], [`${label} nsec prefix`, nsec.slice(0, 30)]);
    }
  };
  for (const [k, v] of Object.entries(KEYS)) add(k, v);
  add('invalid key 0xff..', INVALID_KEYS.overOrder);
  for (const [a, b] of [['alice', 'bob'], ['agent', 'client'], ['alice', 'carol']]) {
    add(`conversation key ${a}/${b}`, nip44.getConversationKey(KEYS[a], nostr.getPublicKey(KEYS[b])));
  }
  return out;
}

describe('secret keys never appear in logs or errors', () => {
  let relay;
  let authRelay;
  const pools = [];
  const newPool = (opts) => {
    const p = new RelayPool({ reconnect: { initialDelay: 40, maxDelay: 250 }, relayInfo: false, ...opts });
    pools.push(p);
    return p;
  };

  before(async () => {
    relay = await startDevRelay({ memory: true, agxPolicy: true });
    authRelay = await startDevRelay({ memory: true, auth: true });
    capture();
  });
  after(async () => {
    for (const r of restore.splice(0)) r();
    await Promise.all(pools.map((p) => p.close()));
    await relay.close();
    await authRelay.close();
  });

  it('keys, events, NIP-19, NIP-44 and NIP-59 with good and bad input', async () => {
    const { alice, bob, carol } = KEYS;
    const bobPk = nostr.getPublicKey(bob);
    // LocalSigner: good key, invalid keys, wrong types, use after dispose.
    const signer = new LocalSigner(alice);
    await signer.signEvent({ kind: 1, created_at: 1700000000, tags: [], content: 'hi' });
    await attempt('signEvent bad template', () => signer.signEvent({ kind: -1, created_at: 'x', tags: 5, content: 1 }));
    await attempt('nip44Encrypt bad peer', () => signer.nip44Encrypt('zz', 'x'));
    await attempt('nip44Decrypt bad payload', () => signer.nip44Decrypt(bobPk, 'not a payload'));
    await attempt('nip44Decrypt wrong key', async () =>
      signer.nip44Decrypt(bobPk, nip44.encrypt('x', nip44.getConversationKey(carol, bobPk))));
    for (const [name, k] of Object.entries(INVALID_KEYS)) await attempt(`LocalSigner(${name})`, () => new LocalSigner(k));
    await attempt('LocalSigner(31 bytes)', () => new LocalSigner(alice.slice(0, 31)));
    await attempt('LocalSigner(hex string)', () => new LocalSigner(hexOf(alice)));
    await attempt('LocalSigner(nsec string)', () => new LocalSigner(nip19.nsecEncode(alice)));
    signer.dispose();
    await attempt('disposed signer', () => signer.signEvent({ kind: 1, created_at: 1, tags: [], content: '' }));

    // Raw-key functions.
    nostr.finalizeEvent({ kind: 1, created_at: 1700000000, tags: [], content: 'x' }, alice);
    await attempt('finalizeEvent bad key', () => nostr.finalizeEvent({ kind: 1, created_at: 1, tags: [], content: '' }, INVALID_KEYS.overOrder));
    await attempt('finalizeEvent bad template', () => nostr.finalizeEvent({ kind: 'x' }, alice));
    await attempt('getPublicKey bad key', () => nostr.getPublicKey(INVALID_KEYS.zero));
    await attempt('getPublicKey hex', () => nostr.getPublicKey(hexOf(alice)));

    // NIP-19: decoding a damaged nsec must not echo it.
    const nsec = nip19.nsecEncode(alice);
    assert.equal(hexOf(nip19.decode(nsec).data), hexOf(alice));
    const damaged = nsec.slice(0, -1) + (nsec.at(-1) === 'q' ? 'p' : 'q');
    await attempt('nip19.decode damaged nsec', () => nip19.decode(damaged));
    await attempt('nip19.decode nsec + junk', () => nip19.decode(nsec + '!'));
    await attempt('nip19.decode uppercase-mixed nsec', () => nip19.decode(nsec.slice(0, 10) + nsec.slice(10).toUpperCase()));
    await attempt('nip19.nsecEncode bad', () => nip19.nsecEncode(alice.slice(1)));

    // NIP-44.
    const ck = nip44.getConversationKey(alice, bobPk);
    const payload = nip44.encrypt('secret plan', ck);
    assert.equal(nip44.decrypt(payload, ck), 'secret plan');
    const bad = payload.slice(0, 50) + (payload[50] === 'A' ? 'B' : 'A') + payload.slice(51);
    await attempt('nip44.decrypt tampered', () => nip44.decrypt(bad, ck));
    await attempt('nip44.decrypt wrong key', () => nip44.decrypt(payload, nip44.getConversationKey(carol, bobPk)));
    await attempt('nip44.getConversationKey bad peer', () => nip44.getConversationKey(alice, 'ab'.repeat(31)));
    await attempt('nip44.getConversationKey invalid key', () => nip44.getConversationKey(INVALID_KEYS.overOrder, bobPk));
    await attempt('nip44.encrypt short key', () => nip44.encrypt('x', ck.slice(0, 31)));

    // NIP-59.
    const wrap = nip59.wrapEvent({ kind: 14, content: 'sealed', tags: [['p', bobPk]] }, alice, bobPk);
    assert.equal(nip59.unwrapEvent(wrap, bob).content, 'sealed');
    await attempt('unwrapEvent wrong key', () => nip59.unwrapEvent(wrap, carol));
    await attempt('unwrapEvent invalid key', () => nip59.unwrapEvent(wrap, INVALID_KEYS.zero));
    await attempt('unwrapEvent tampered', () => nip59.unwrapEvent({ ...wrap, content: wrap.content.slice(0, -8) + 'AAAAAAA=' }, bob));
    await attempt('unwrapEvent garbage', () => nip59.unwrapEvent({ kind: 1059 }, bob));
    await attempt('wrapEvent bad recipient', () => nip59.wrapEvent({ kind: 14, content: 'x', tags: [] }, alice, 'nope'));
    await attempt('wrapEvent invalid key', () => nip59.wrapEvent({ kind: 14, content: 'x', tags: [] }, INVALID_KEYS.overOrder, bobPk));
    await attempt('wrapEvent lone surrogate', () => nip59.wrapEvent({ kind: 14, content: 'a\ud800b', tags: [] }, alice, bobPk));
    const bobSigner = new LocalSigner(bob);
    assert.equal((await nip59.unwrapEvent(wrap, bobSigner)).content, 'sealed');
    await attempt('unwrapEvent signer wrong recipient', () => nip59.unwrapEvent(wrap, new LocalSigner(carol)));
    bobSigner.dispose();
    assert.ok(sink.some((s) => s.what.endsWith('message')), 'errors were collected');
  });

  it('relay AUTH through the signer', async () => {
    const signer = new LocalSigner(KEYS.carol);
    const p = newPool({ relays: [authRelay.url], signer });
    const e = nostr.finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: 'authed' }, KEYS.carol);
    const res = await p.publish(e);
    assert.equal(res[0].status, 'accepted');
    signer.dispose();
    // A disposed signer cannot answer the next challenge: the failure is reported, without the key.
    const p2 = newPool({ relays: [authRelay.url], signer });
    const res2 = await attempt('publish with a disposed signer', () => p2.publish(e));
    if (res2) record('publish result', inspect(res2, { depth: 8 }));
  });

  it('the NIP-XX agent and client', async () => {
    const agentSigner = new LocalSigner(KEYS.agent);
    const clientSigner = new LocalSigner(KEYS.client);
    const agent = await serveAgent({
      signer: agentSigner,
      pool: newPool({ relays: [relay.url] }),
      info: { supported_models: ['m'], default_model: 'm' },
      async *handler(ctx) {
        if (ctx.message === 'boom') throw new Error('handler exploded');
        yield 'partial ';
        yield 'done';
      },
      onError: (err) => recordError('serveAgent onError', err),
    });
    try {
      const clientPool = newPool({ relays: [relay.url] });
      const ok = await attempt('prompt ok', () => prompt({ pool: clientPool, signer: clientSigner, agent: agent.pubkey, message: 'hello' }).result);
      assert.equal(ok?.text, 'partial done');
      record('prompt result', inspect(ok, { depth: 8 }));
      await attempt('prompt boom', () => prompt({ pool: clientPool, signer: clientSigner, agent: agent.pubkey, message: 'boom' }).result);
      await attempt('prompt bad agent', () => prompt({ pool: clientPool, signer: clientSigner, agent: 'zz', message: 'x' }).result);
    } finally {
      await agent.stop();
      agentSigner.dispose();
      clientSigner.dispose();
    }
  });

  it('the AGX agent', async () => {
    const made = [];
    const peer = (sk, opts) => {
      const signer = new LocalSigner(sk);
      const a = agx.createAgxAgent({
        signer,
        pool: newPool({ relays: [relay.url] }),
        onWarning: (w) => record('agx onWarning', inspect(w, { depth: 8 })),
        onError: (e) => recordError('agx onError', e),
        onMessage: (m) => record('agx onMessage', inspect(m, { depth: 8 })),
        ...opts,
      });
      made.push({ a, signer });
      return { a, signer };
    };
    const bob = peer(KEYS.bob, {
      acceptAll: true,
      handlers: {
        echo: async (payload) => payload,
        crash: async () => {
          throw new Error('internal failure');
        },
      },
    });
    const alice = peer(KEYS.alice, { acceptAll: true });
    try {
      await Promise.all([bob.a.serve(), alice.a.serve()]);
      await alice.a.send(bob.signer.publicKey, 'hello');
      const out = await alice.a.request(bob.signer.publicKey, 'echo', { n: 1 }, { timeout: 10000 });
      assert.deepEqual(out, { n: 1 });
      await attempt('agx request crash', () => alice.a.request(bob.signer.publicKey, 'crash', {}, { timeout: 10000 }));
      await attempt('agx send bad peer', () => alice.a.send('nope', 'x'));
      const rumor = agx.createMessageRumor('direct', alice.signer.publicKey, bob.signer.publicKey);
      const wrap = await agx.wrapRumor(rumor, alice.signer, bob.signer.publicKey);
      await attempt('unwrapAgx wrong signer', () => agx.unwrapAgx(wrap, new LocalSigner(KEYS.carol)));
      await attempt('unwrapAgx wrong raw key', () => agx.unwrapAgx(wrap, KEYS.carol));
      await attempt('unwrapAgx invalid key', () => agx.unwrapAgx(wrap, INVALID_KEYS.overOrder));
      await attempt('createAgxAgent raw key', () => agx.createAgxAgent({ signer: KEYS.alice, pool: newPool({ relays: [relay.url] }) }));
      await sleep(50);
    } finally {
      for (const { a, signer } of made) {
        await a.close();
        signer.dispose();
      }
    }
  });

  it('no collected line contains a secret', () => {
    for (const r of restore.splice(0)) r();
    assert.ok(sink.length > 40, `collected ${sink.length} items`);
    if (process.env.NOSTR_SECRETS_DUMP) writeFileSync(process.env.NOSTR_SECRETS_DUMP, sink.map((s) => `## ${s.what}\n${s.text}`).join('\n'));
    const all = needles();
    const leaksIn = (items) => {
      const leaks = [];
      for (const [label, needle] of all) {
        for (const item of items) if (item.text.includes(needle)) leaks.push(`${label} in ${item.what}: ${item.text.slice(0, 200)}`);
      }
      return leaks;
    };
    // The check itself catches a leak in each form it looks for.
    const planted = (text) => leaksIn([{ what: 'planted', text }]).length > 0;
    assert.ok(planted(`key ${hexOf(KEYS.bob)}`) && planted(hexOf(KEYS.bob).toUpperCase()));
    assert.ok(planted(`bad nsec: ${nip19.nsecEncode(KEYS.alice).slice(0, 40)}`));
    assert.ok(!planted(`pubkey ${nostr.getPublicKey(KEYS.alice)}`));
    assert.deepEqual(leaksIn(sink), []);
  });
});
