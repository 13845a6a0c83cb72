// NIP-46 remote signing, both ends on the package: Nip46Signer against startBunker over real dev
// relays (bunker:// and nostrconnect:// flows, refusals, silence, approval, close, abort,
// switch_relays, NIP-59 through the remote signer).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, sleep, until, rejectsCode } from './helpers.js';
import { startDevRelay } from '../support/relays.js';

const { Nip46Signer, startBunker, LocalSigner, RelayPool, nip59, verifyEvent, serveAgent, prompt } = nostr;
const { parseBunkerURI, toBunkerURL, parseNostrConnectURI, createNostrConnectURI } = nostr;
const nowS = () => Math.floor(Date.now() / 1000);
const ALL = ['sign_event', 'nip44_encrypt', 'nip44_decrypt'];
const note = (content = 'hello from afar') => ({ kind: 1, tags: [['t', 'nip46']], content, created_at: nowS() });

/** Resolves to 'pending' if `p` has not settled after the microtask queue and a macrotask drained. */
async function state(p) {
  let s = 'pending';
  p.then(
    () => (s = 'resolved'),
    () => (s = 'rejected'),
  );
  await sleep(0);
  return s;
}

/** Timers the test moves by hand: proves what a clock would count without waiting for it. */
function manualTimers() {
  let now = 0;
  let next = 0;
  const timers = new Map();
  return {
    setTimeout(fn, ms) {
      const id = ++next;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(id) {
      timers.delete(id);
    },
    advance(ms) {
      now += ms;
      for (const [id, t] of [...timers].sort((a, b) => a[1].at - b[1].at))
        if (t.at <= now && timers.has(id)) {
          timers.delete(id);
          t.fn();
        }
    },
    get size() {
      return timers.size;
    },
  };
}

function gate() {
  let open;
  const p = new Promise((r) => (open = r));
  return { wait: () => p, open: (v) => open(v) };
}

describe('nip46 URIs', () => {
  const pk = 'a'.repeat(64);
  it('round-trips bunker:// and nostrconnect:// and rejects bad ones without echoing them', () => {
    const uri = toBunkerURL({ pubkey: pk, relays: ['ws://127.0.0.1:1', 'wss://r.example'], secret: 's3cr3t-value' });
    assert.deepEqual(parseBunkerURI(uri), { pubkey: pk, relays: ['ws://127.0.0.1:1', 'wss://r.example'], secret: 's3cr3t-value' });
    const nc = createNostrConnectURI({ clientPubkey: pk, relays: ['wss://r.example'], secret: 'xyz', perms: ['sign_event:1', 'nip44_encrypt'], name: 'App' });
    const back = parseNostrConnectURI(nc);
    assert.equal(back.clientPubkey, pk);
    assert.equal(back.secret, 'xyz');
    assert.deepEqual(back.perms, ['sign_event:1', 'nip44_encrypt']);
    assert.equal(back.name, 'App');
    for (const bad of [
      'bunker://nothex?relay=wss://r.example&secret=s3cr3t-value',
      `bunker://${pk}?secret=s3cr3t-value`,
      `bunker://${pk}?relay=https://r.example&secret=s3cr3t-value`,
      `nostr://${pk}?relay=wss://r.example&secret=s3cr3t-value`,
      42,
    ]) {
      assert.throws(
        () => parseBunkerURI(bad),
        (err) => err.code === 'INVALID_ARGUMENT' && !err.message.includes('s3cr3t-value'),
      );
    }
    assert.throws(() => parseNostrConnectURI(`nostrconnect://${pk}?relay=wss://r.example`), { code: 'INVALID_ARGUMENT' });
  });
});

describe('nip46 signer and bunker over a dev relay', () => {
  let relay;
  let relayB;
  const user = LocalSigner.generate();
  const bunkerKey = LocalSigner.generate(); // a remote-signer key nobody serves
  const remoteKeys = []; // one per bunker (distinct from the user's), or every bunker would answer
  const peer = LocalSigner.generate();
  const pools = [];
  const newPool = () => {
    const p = new RelayPool();
    pools.push(p);
    return p;
  };
  const bunkers = [];
  const bunkerWith = async (opts = {}) => {
    const remoteSigner = LocalSigner.generate();
    remoteKeys.push(remoteSigner);
    const b = await startBunker({ signer: user, remoteSigner, relays: [relay.url], pool: newPool(), ...opts });
    bunkers.push(b);
    return b;
  };

  before(async () => {
    relay = await startDevRelay({ memory: true });
    relayB = await startDevRelay({ memory: true });
  });
  after(async () => {
    for (const b of bunkers) await b.stop();
    for (const p of pools) await p.close();
    await relay.close();
    await relayB.close();
    user.dispose();
    bunkerKey.dispose();
    peer.dispose();
    for (const k of remoteKeys) k.dispose();
    // Everything is settled and closed: no timer or socket keeps the process alive.
    await sleep(20);
    assert.deepEqual(process.getActiveResourcesInfo().filter((r) => /Timeout|TCP/.test(r)), []);
  });

  it('bunker:// with a secret: connect, get_public_key, sign, nip44 both ways, ping', async () => {
    const bunker = await bunkerWith({ secret: 'one-time-secret' });
    assert.notEqual(bunker.pubkey, user.publicKey);
    assert.equal(bunker.userPubkey, user.publicKey);
    assert.match(bunker.bunkerUri, /secret=one-time-secret/);
    assert.equal(bunker.secret, 'one-time-secret');
    const signer = await Nip46Signer.connect(bunker.bunkerUri, { pool: newPool(), perms: ['sign_event:1', 'nip44_encrypt', 'nip44_decrypt'] });
    try {
      assert.equal(signer.remotePubkey, bunker.pubkey);
      assert.equal(await signer.getPublicKey(), user.publicKey);
      assert.notEqual(signer.clientPubkey, user.publicKey);
      assert.deepEqual(bunker.clients, [signer.clientPubkey]);
      assert.doesNotMatch(bunker.bunkerUri, /secret=/, 'the secret is single use');
      assert.equal(bunker.secret, null);
      assert.deepEqual(bunker.permsOf(signer.clientPubkey), ['nip44_decrypt', 'nip44_encrypt', 'sign_event:1']);

      const t = note();
      const ev = await signer.signEvent(t);
      assert.ok(verifyEvent(ev));
      assert.equal(ev.pubkey, user.publicKey);
      assert.deepEqual([ev.kind, ev.content, ev.created_at, ev.tags], [t.kind, t.content, t.created_at, t.tags]);

      const toPeer = await signer.nip44Encrypt(peer.publicKey, 'for the peer ✓');
      assert.equal(await peer.nip44Decrypt(user.publicKey, toPeer), 'for the peer ✓');
      const fromPeer = await peer.nip44Encrypt(user.publicKey, 'for the user 💜');
      assert.equal(await signer.nip44Decrypt(peer.publicKey, fromPeer), 'for the user 💜');
      await signer.ping();
      assert.equal(signer.pendingCount, 0);
    } finally {
      await signer.close();
    }
  });

  it('refuses a reused or wrong secret (SIGNER_REFUSED) and never shows the secret in errors', async () => {
    const bunker = await bunkerWith({ secret: 'only-once-42' });
    const uri = bunker.bunkerUri;
    const first = await Nip46Signer.connect(uri, { pool: newPool() });
    await first.close();
    await rejectsCode(Nip46Signer.connect(uri, { pool: newPool() }), 'SIGNER_REFUSED', (err) => {
      assert.equal(err.method, 'connect');
      assert.ok(!err.message.includes('only-once-42'));
    });
    const wrong = toBunkerURL({ pubkey: bunker.pubkey, relays: [relay.url], secret: 'guess' });
    await rejectsCode(Nip46Signer.connect(wrong, { pool: newPool() }), 'SIGNER_REFUSED');
  });

  it('nostrconnect:// flow: the client shows a URI, the bunker answers with its secret', async () => {
    const session = Nip46Signer.nostrConnect({ pool: newPool(), relays: [relay.url], name: 'test app', perms: ['sign_event:1'] });
    const parsed = parseNostrConnectURI(session.uri);
    assert.equal(parsed.clientPubkey, session.clientPubkey);
    assert.equal(parsed.name, 'test app');
    const seen = []; // what the bunker's authorize sees
    const bunker = await bunkerWith({
      authorize: (req) => {
        seen.push(req);
        return true;
      },
    });
    await bunker.connectTo(session.uri);
    const signer = await session.signer;
    try {
      assert.equal(signer.remotePubkey, bunker.pubkey);
      assert.equal(await signer.getPublicKey(), user.publicKey);
      assert.ok(verifyEvent(await signer.signEvent(note('via nostrconnect'))));
      assert.equal(seen[0].method, 'connect');
      assert.equal(seen[0].name, 'test app');
      assert.equal(seen[0].perms, 'sign_event:1');
      // What the URI asked for is granted: authorize is not asked again for it.
      assert.deepEqual(bunker.permsOf(signer.clientPubkey), ['sign_event:1']);
      assert.ok(!seen.some((r) => r.method === 'sign_event'));
      await session.cancel(); // too late to cancel: the signer stays open
      assert.equal(signer.closed, false);
      await signer.ping();
    } finally {
      await signer.close();
    }
  });

  it('nostrconnect:// on more relays than the bunker: each request is handled once', async () => {
    let signs = 0;
    const bunker = await bunkerWith({
      perms: [], // every sign_event goes to authorize, which counts them
      authorize: (req) => {
        if (req.method === 'sign_event') signs++;
        return true;
      },
    });
    const session = Nip46Signer.nostrConnect({ pool: newPool(), relays: [relay.url, relayB.url] });
    await bunker.connectTo(session.uri);
    const signer = await session.signer;
    try {
      assert.deepEqual(signer.relays, [relay.url, relayB.url]);
      await signer.signEvent(note('one'));
      await signer.signEvent(note('two'));
      assert.equal(signs, 2, 'a request seen through two subscriptions is handled once');
    } finally {
      await signer.close();
    }
  });

  it('a bunker that denies answers SIGNER_REFUSED, with its message, and stays usable', async () => {
    const bunker = await bunkerWith({
      perms: [], // nothing granted at connect: authorize decides each request
      authorize: (req) => (req.method === 'sign_event' && req.template.kind === 4 ? 'no DMs today' : req.method !== 'nip44_encrypt'),
    });
    const signer = await Nip46Signer.connect(bunker.bunkerUri, { pool: newPool() });
    try {
      await rejectsCode(signer.signEvent({ ...note(), kind: 4 }), 'SIGNER_REFUSED', (err) => {
        assert.equal(err.method, 'sign_event');
        assert.match(err.remoteError, /no DMs today/);
      });
      await rejectsCode(signer.nip44Encrypt(peer.publicKey, 'x'), 'SIGNER_REFUSED', (err) => assert.match(err.remoteError, /denied/));
      // An error of the operation itself is a refusal too: the bunker answered.
      await rejectsCode(signer.nip44Decrypt(peer.publicKey, 'not a payload'), 'SIGNER_REFUSED', (err) => assert.match(err.remoteError, /NIP44/));
      await rejectsCode(signer.sendRequest('nip04_encrypt', [peer.publicKey, 'x']), 'SIGNER_REFUSED');
      assert.ok(verifyEvent(await signer.signEvent(note())));
    } finally {
      await signer.close();
    }
  });

  it('no bunker behind the URI: SIGNER_UNAVAILABLE after connectTimeout, not requestTimeout', async () => {
    const nobody = LocalSigner.generate();
    const uri = toBunkerURL({ pubkey: nobody.publicKey, relays: [relay.url] });
    nobody.dispose();
    // requestTimeout is 10 min: if connect used it, this test would time out instead.
    await rejectsCode(Nip46Signer.connect(uri, { pool: newPool(), connectTimeout: 300, requestTimeout: 600_000 }), 'SIGNER_UNAVAILABLE', (err) => {
      assert.equal(err.reason, 'timeout');
      assert.equal(err.method, 'connect');
      assert.match(err.message, /connect timeout/);
    });
  });

  it('an unreachable relay: SIGNER_UNAVAILABLE (not a hang, not SIGNER_REFUSED)', async () => {
    const dead = await startDevRelay({ memory: true });
    const url = dead.url;
    await dead.close();
    const pool = new RelayPool({ reconnect: false });
    pools.push(pool);
    await rejectsCode(Nip46Signer.connect(toBunkerURL({ pubkey: bunkerKey.publicKey, relays: [url] }), { pool, connectTimeout: 5000 }), 'SIGNER_UNAVAILABLE');
  });

  it('a silent bunker after connect: SIGNER_UNAVAILABLE after requestTimeout (connectTimeout unused)', async () => {
    const never = gate();
    const bunker = await bunkerWith({ perms: [], authorize: (req) => (req.method === 'sign_event' ? never.wait() : true) });
    const signer = await Nip46Signer.connect(bunker.bunkerUri, { pool: newPool(), connectTimeout: 600_000, requestTimeout: 300 });
    try {
      await rejectsCode(signer.signEvent(note()), 'SIGNER_UNAVAILABLE', (err) => {
        assert.equal(err.reason, 'timeout');
        assert.equal(err.method, 'sign_event');
      });
      assert.equal(signer.pendingCount, 0);
      await signer.ping({ timeout: 30_000 }); // the signer itself is fine
    } finally {
      await signer.close();
    }
  });

  it('approval after auth_url is not counted against requestTimeout; approvalTimeout bounds it', async () => {
    const decisions = [];
    const bunker = await bunkerWith({
      perms: [],
      authorize: async (req, ctx) => {
        if (req.method !== 'sign_event') return true;
        await ctx.sendAuthUrl('https://bunker.example/approve?id=1');
        const g = gate();
        decisions.push(g);
        return g.wait();
      },
    });
    const timers = manualTimers();
    const urls = [];
    const signer = await Nip46Signer.connect(bunker.bunkerUri, {
      pool: newPool(),
      requestTimeout: 1000,
      approvalTimeout: 60_000,
      timers,
      onauth: (url) => urls.push(url),
    });
    try {
      const signing = signer.signEvent(note('approved slowly'));
      await until(() => urls.length === 1 && decisions.length === 1);
      assert.equal(urls[0], 'https://bunker.example/approve?id=1');
      timers.advance(30_000); // 30 "seconds" of user deliberation: 30x the request timeout
      assert.equal(await state(signing), 'pending');
      decisions[0].open(true);
      const ev = await signing;
      assert.ok(verifyEvent(ev));
      assert.equal(ev.content, 'approved slowly');

      // The user never decides: approvalTimeout ends it, as SIGNER_UNAVAILABLE.
      const waiting = signer.signEvent(note('never approved'));
      await until(() => decisions.length === 2);
      await until(() => urls.length === 2);
      timers.advance(59_000);
      assert.equal(await state(waiting), 'pending');
      timers.advance(1_000);
      await rejectsCode(waiting, 'SIGNER_UNAVAILABLE', (err) => assert.equal(err.reason, 'approval-timeout'));

      // A denial after approval is a refusal.
      const denied = signer.signEvent(note('denied'));
      await until(() => decisions.length === 3);
      decisions[2].open('user said no');
      await rejectsCode(denied, 'SIGNER_REFUSED', (err) => assert.match(err.remoteError, /user said no/));
      decisions[1].open(false);
    } finally {
      await signer.close();
    }
  });

  it('an async onauth that rejects decides nothing and is not an unhandled rejection', async () => {
    const bunker = await bunkerWith({
      perms: [],
      authorize: async (req, ctx) => {
        if (req.method === 'sign_event') await ctx.sendAuthUrl('https://bunker.example/approve?id=2');
        return true;
      },
    });
    const unhandled = [];
    const onUnhandled = (e) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const urls = [];
    const signer = await Nip46Signer.connect(bunker.bunkerUri, {
      pool: newPool(),
      onauth: async (url) => {
        urls.push(url);
        throw new Error('could not open a window');
      },
    });
    try {
      const ev = await signer.signEvent(note('approved anyway'));
      assert.ok(verifyEvent(ev));
      assert.deepEqual(urls, ['https://bunker.example/approve?id=2']);
      await new Promise((r) => setTimeout(r, 50)); // an unhandled rejection is reported within a tick or two
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await signer.close();
    }
    assert.deepEqual(unhandled, []);
  });

  it('approving the connect itself (auth_url) is not counted against connectTimeout', async () => {
    const approve = gate();
    let asked = 0;
    const bunker = await bunkerWith({
      authorize: async (req, ctx) => {
        if (req.method !== 'connect') return true;
        asked++;
        await ctx.sendAuthUrl('https://bunker.example/login');
        return approve.wait();
      },
    });
    const timers = manualTimers();
    const urls = [];
    // No secret in the URI: authorize decides the connect.
    const noSecret = toBunkerURL({ pubkey: bunker.pubkey, relays: [relay.url] });
    const connecting = Nip46Signer.connect(noSecret, { pool: newPool(), connectTimeout: 1000, timers, onauth: (u) => urls.push(u) });
    await until(() => asked === 1 && urls.length === 1);
    timers.advance(120_000);
    assert.equal(await state(connecting), 'pending');
    approve.open(true);
    const signer = await connecting;
    assert.equal(await signer.getPublicKey(), user.publicKey);
    await signer.close();
  });

  it('close() rejects every pending request with SIGNER_DISPOSED; later calls too', async () => {
    const never = gate();
    const bunker = await bunkerWith({ perms: [], authorize: () => never.wait() });
    const signer = await Nip46Signer.connect(bunker.bunkerUri, { pool: newPool(), requestTimeout: 600_000 });
    const calls = [
      signer.signEvent(note()),
      signer.nip44Encrypt(peer.publicKey, 'a'),
      signer.nip44Decrypt(peer.publicKey, 'b'),
      signer.signEvent(note('another')),
      signer.sendRequest('nip44_encrypt', [peer.publicKey, 'c']),
    ];
    await until(() => signer.pendingCount === calls.length);
    await signer.close();
    const outcomes = await Promise.allSettled(calls);
    for (const o of outcomes) {
      assert.equal(o.status, 'rejected');
      assert.equal(o.reason.code, 'SIGNER_DISPOSED');
      assert.equal(o.reason.reason, 'closed');
    }
    assert.equal(signer.pendingCount, 0);
    assert.equal(signer.closed, true);
    await rejectsCode(signer.signEvent(note()), 'SIGNER_DISPOSED');
    await rejectsCode(signer.getPublicKey(), 'SIGNER_DISPOSED');
    await signer.close(); // twice is fine

    // A nostrconnect:// session nobody answers: cancel() settles it.
    const session = Nip46Signer.nostrConnect({ pool: newPool(), relays: [relay.url] });
    await session.cancel();
    await rejectsCode(session.signer, 'SIGNER_DISPOSED');
    never.open(false);
  });

  it('Symbol.asyncDispose closes the signer (await using), and an unused Nip46Signer bundles away', async () => {
    const bunker = await bunkerWith({});
    const signer = await Nip46Signer.connect(bunker.bunkerUri, { pool: newPool() });
    assert.equal(typeof signer[Symbol.asyncDispose], 'function');
    assert.equal(signer.closed, false);
    await signer[Symbol.asyncDispose]();
    assert.equal(signer.closed, true);
    await rejectsCode(signer.getPublicKey(), 'SIGNER_DISPOSED');

    // No top-level statement keeps NIP-46 in a bundle that does not import it (the demo page).
    const { build } = await import('esbuild');
    const root = new URL('../..', import.meta.url).pathname;
    const bundle = async (name) =>
      (await build({ stdin: { contents: `export { ${name} } from './js/index.browser.js';`, resolveDir: root }, bundle: true, format: 'esm', platform: 'browser', minify: true, write: false, external: ['ws', 'node:*'], logLevel: 'error' })).outputFiles[0].text;
    assert.doesNotMatch(await bundle('generateSecretKey'), /get_public_key|nostrconnect/);
    assert.match(await bundle('Nip46Signer'), /get_public_key/);
  });

  it('an AbortSignal ends one request (ABORTED) and leaves the others', async () => {
    const never = gate();
    const bunker = await bunkerWith({ perms: [], authorize: (req) => (req.method === 'sign_event' ? never.wait() : true) });
    const signer = await Nip46Signer.connect(bunker.bunkerUri, { pool: newPool(), requestTimeout: 600_000 });
    try {
      const ac = new AbortController();
      const a = signer.signEvent(note(), { signal: ac.signal });
      const b = signer.signEvent(note());
      await until(() => signer.pendingCount === 2);
      ac.abort();
      await rejectsCode(a, 'ABORTED');
      assert.equal(signer.pendingCount, 1);
      await rejectsCode(signer.ping({ signal: AbortSignal.abort() }), 'ABORTED');
      never.open(true);
      assert.ok(verifyEvent(await b));
    } finally {
      await signer.close();
    }
  });

  it('switch_relays moves the client to the relays the bunker names', async () => {
    const bunker = await bunkerWith({ relays: [relay.url, relayB.url], switchRelays: [relayB.url] });
    const onlyA = toBunkerURL({ pubkey: bunker.pubkey, relays: [relay.url], secret: bunker.secret });
    const signer = await Nip46Signer.connect(onlyA, { pool: newPool() });
    try {
      assert.deepEqual(signer.relays, [relayB.url], 'connect asked switch_relays');
      assert.deepEqual(await signer.switchRelays(), [relayB.url]);
      await relay.stop(); // the old relay goes away: requests go through the new one
      assert.ok(verifyEvent(await signer.signEvent(note('over relay B'))));
    } finally {
      await signer.close();
      await relay.restart();
    }
  });

  it('with switchRelays: false the client stays where the URI put it', async () => {
    const bunker = await bunkerWith({ relays: [relay.url, relayB.url], switchRelays: [relayB.url] });
    const onlyA = toBunkerURL({ pubkey: bunker.pubkey, relays: [relay.url], secret: bunker.secret });
    const signer = await Nip46Signer.connect(onlyA, { pool: newPool(), switchRelays: false });
    try {
      assert.deepEqual(signer.relays, [relay.url]);
      await signer.ping();
    } finally {
      await signer.close();
    }
  });

  it('NIP-59 wrap and unwrap with the key in the bunker', async () => {
    const bunker = await bunkerWith();
    const signer = await Nip46Signer.connect(bunker.bunkerUri, { pool: newPool() });
    try {
      const rumor = { kind: 14, tags: [['p', peer.publicKey]], content: 'sealed remotely', created_at: nowS() };
      const wrap = await nip59.wrapEvent(rumor, signer, peer.publicKey);
      const opened = await nip59.unwrapEvent(wrap, peer);
      assert.equal(opened.pubkey, user.publicKey);
      assert.equal(opened.content, 'sealed remotely');

      const back = await nip59.wrapEvent({ kind: 14, tags: [['p', user.publicKey]], content: 'reply', created_at: nowS() }, peer, user.publicKey);
      const got = await nip59.unwrapEvent(back, signer);
      assert.equal(got.pubkey, peer.publicKey);
      assert.equal(got.content, 'reply');
    } finally {
      await signer.close();
    }
  });

  it('NIP-XX: a prompt and an agent, each with its key in a bunker', async () => {
    const agentUser = LocalSigner.generate();
    const agentKey = LocalSigner.generate();
    remoteKeys.push(agentUser, agentKey);
    const agentBunker = await startBunker({ signer: agentUser, remoteSigner: agentKey, relays: [relay.url], pool: newPool() });
    bunkers.push(agentBunker);
    const clientBunker = await bunkerWith();
    const agentSigner = await Nip46Signer.connect(agentBunker.bunkerUri, { pool: newPool() });
    const clientSigner = await Nip46Signer.connect(clientBunker.bunkerUri, { pool: newPool() });
    const agentPool = new RelayPool({ relays: [relay.url] });
    const clientPool = new RelayPool({ relays: [relay.url] });
    pools.push(agentPool, clientPool);
    const agent = await serveAgent({
      signer: agentSigner,
      pool: agentPool,
      info: { supported_models: ['echo'], default_model: 'echo', tool_names: [] },
      async *handler({ message }) {
        for (const word of message.split(' ')) yield `${word.toUpperCase()} `;
      },
    });
    try {
      assert.equal(agent.pubkey, agentUser.publicKey);
      const run = prompt({ pool: clientPool, signer: clientSigner, agent: agent.pubkey, message: 'remote keys both ends' });
      const { text } = await run.result;
      assert.equal(text.trim(), 'REMOTE KEYS BOTH ENDS');
    } finally {
      await agent.stop();
      await agentSigner.close();
      await clientSigner.close();
    }
  });

  it('answers that do not hold up are typed errors (INVALID_EVENT), not accepted', async () => {
    // A bunker whose signer signs something else than asked.
    const crooked = {
      getPublicKey: () => user.getPublicKey(),
      signEvent: (t) => user.signEvent({ ...t, content: `${t.content} (edited)` }),
      nip44Encrypt: (p, s) => user.nip44Encrypt(p, s),
      nip44Decrypt: (p, s) => user.nip44Decrypt(p, s),
    };
    const bunker = await bunkerWith({ signer: crooked });
    const signer = await Nip46Signer.connect(bunker.bunkerUri, { pool: newPool() });
    try {
      await rejectsCode(signer.signEvent(note()), 'INVALID_EVENT', (err) => assert.match(err.message, /differs from the template/));
      await rejectsCode(signer.signEvent({ kind: 1, tags: 'no', content: '', created_at: 0 }), 'INVALID_EVENT');
    } finally {
      await signer.close();
    }
  });

  it("bad input is refused with LocalSigner's codes before the bunker is asked", async () => {
    const asked = [];
    const watched = {
      getPublicKey: () => user.getPublicKey(),
      signEvent: (t) => (asked.push('signEvent'), user.signEvent(t)),
      nip44Encrypt: (p, s) => (asked.push('encrypt'), user.nip44Encrypt(p, s)),
      nip44Decrypt: (p, s) => (asked.push('decrypt'), user.nip44Decrypt(p, s)),
    };
    const bunker = await bunkerWith({ signer: watched });
    const signer = await Nip46Signer.connect(bunker.bunkerUri, { pool: newPool() });
    const local = LocalSigner.generate();
    const pk = local.publicKey;
    const cases = [
      [(s) => s.signEvent(null), 'no template'],
      [(s) => s.signEvent({ created_at: 1, tags: [], content: '' }), 'no kind'],
      [(s) => s.signEvent({ kind: 1, created_at: -5, tags: [], content: '' }), 'negative created_at'],
      [(s) => s.signEvent({ kind: 1, created_at: 1, tags: [], content: null }), 'content not a string'],
      [(s) => s.nip44Encrypt('zz', 'x'), 'bad key'],
      [(s) => s.nip44Encrypt(pk, 42), 'plaintext not a string'],
      [(s) => s.nip44Decrypt(pk, ['x']), 'payload not a string'],
    ];
    try {
      for (const [call, what] of cases) {
        let want;
        await assert.rejects(call(local), (e) => ((want = e), true));
        await rejectsCode(call(signer), want.code, (err) => assert.equal(err.message, want.message, what));
      }
      assert.deepEqual(asked, [], 'the bunker was asked nothing');
      // either case of hex, as LocalSigner; the bunker gets lowercase
      const me = await signer.getPublicKey();
      const payload = await signer.nip44Encrypt(me.toUpperCase(), 'hi');
      assert.equal(await signer.nip44Decrypt(me.toUpperCase(), payload), 'hi');
      assert.deepEqual(asked, ['encrypt', 'decrypt']);
    } finally {
      local.dispose();
      await signer.close();
    }
  });

  it('bad options are INVALID_ARGUMENT, synchronously or as a rejection', async () => {
    await rejectsCode(Nip46Signer.connect('bunker://zz', {}), 'INVALID_ARGUMENT');
    await rejectsCode(Nip46Signer.connect(toBunkerURL({ pubkey: bunkerKey.publicKey, relays: [relay.url] }), { requestTimeout: -1 }), 'INVALID_ARGUMENT');
    assert.throws(() => Nip46Signer.nostrConnect({ relays: [] }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new Nip46Signer(), { code: 'INVALID_ARGUMENT' });
    await rejectsCode(startBunker({ signer: user, relays: ['http://x'] }), 'INVALID_ARGUMENT');
    await rejectsCode(startBunker({ signer: {}, relays: [relay.url] }), 'INVALID_ARGUMENT');
    await rejectsCode(startBunker({ signer: user, relays: [relay.url], perms: ['sign_event:x'] }), 'INVALID_ARGUMENT');
    await rejectsCode(startBunker({ signer: user, relays: [relay.url], perms: ['nip04_encrypt'] }), 'INVALID_ARGUMENT');
    await rejectsCode(startBunker({ signer: user, relays: [relay.url], store: {} }), 'INVALID_ARGUMENT');
    await rejectsCode(startBunker({ signer: user, relays: [relay.url], authorize: true }), 'INVALID_ARGUMENT');
    await rejectsCode(startBunker({ signer: user, relays: [relay.url], secret: '' }), 'INVALID_ARGUMENT');
  });
});
