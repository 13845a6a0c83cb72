// AgxClient: any Signer (the core seals and checks; the signer encrypts, decrypts and signs), the
// SeenStores and a real restart of a serving agent, catch-up polls by SPEC.md's cursor rules, and
// automated-reply depth, over real local relays.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nostr } from './helpers.js';
import { startDevRelay } from '../support/relays.js';
import { sleep, until, useAgxRelay } from './agx-helpers.js';

const { agx, LocalSigner, RelayPool, NostrError } = nostr;
const nowS = () => Math.floor(Date.now() / 1000);
const CHILD = fileURLToPath(new URL('./agx-child.mjs', import.meta.url));

/**
 * A Signer that is not a LocalSigner (so the client takes the external-signer path: the signer
 * encrypts, decrypts and signs; only the wrap's one-time key is used inside the core). `mode`
 * switches nip44Decrypt: 'ok', 'unavailable' (AgxSignerUnavailableError) or 'bad' (a plain error:
 * the input does not check out).
 */
function externalSigner() {
  const inner = LocalSigner.generate();
  const s = {
    mode: 'ok',
    calls: { encrypt: 0, decrypt: 0, sign: 0 },
    inner,
    getPublicKey: () => inner.getPublicKey(),
    signEvent: (t) => (s.calls.sign++, inner.signEvent(t)),
    nip44Encrypt: (pk, text) => (s.calls.encrypt++, inner.nip44Encrypt(pk, text)),
    async nip44Decrypt(pk, payload) {
      s.calls.decrypt++;
      if (s.mode === 'unavailable') throw new agx.AgxSignerUnavailableError('bunker unreachable');
      if (s.mode === 'bad') throw new Error('invalid MAC');
      return inner.nip44Decrypt(pk, payload);
    },
  };
  return s;
}

describe('AgxClient', () => {
  const env = useAgxRelay(); // with the AGX write policy
  const { stops } = env;
  let plain; // without it: accepts future-dated wraps
  before(async () => {
    plain = await startDevRelay({ memory: true });
  });
  after(() => plain.close()); // after env's stops: its clients are stopped by then

  function client(opts = {}) {
    const signer = opts.signer ?? LocalSigner.generate();
    const out = { signer, warnings: [], messages: [], receipts: [], errors: [] };
    out.client = env.client({
      signer,
      relays: [opts.relay ?? env.relay.url],
      onWarning: (w) => out.warnings.push(w),
      onError: (e) => out.errors.push(e),
      onReceipt: (r) => out.receipts.push(r),
      ...opts,
    });
    out.client.onMessage((m) => {
      out.messages.push(m);
    });
    return out;
  }

  it('a task and a message between an external signer and a LocalSigner, with handle/request/send/onMessage', async () => {
    const ext = externalSigner();
    const alice = client({ signer: ext, authorize: 'accept-all' });
    const bob = client({ authorize: ({ from, capability }) => from === ext.inner.publicKey && capability === 'math.add' });
    bob.client.handle('math.add', ({ a, b }) => a + b);
    alice.client.handle('echo.*', (p) => p);
    assert.deepEqual(bob.client.capabilities(), ['math.add']);
    await Promise.all([alice.client.start(), bob.client.start()]);
    assert.equal(alice.client.publicKey, ext.inner.publicKey);
    assert.equal(await alice.client.request(bob.signer.publicKey, 'math.add', { a: 2, b: 3 }, { timeout: 10000 }), 5);
    assert.ok(ext.calls.encrypt >= 1 && ext.calls.sign >= 1, 'the external signer sealed');
    await until(() => alice.receipts.length === 1);
    assert.ok(ext.calls.decrypt >= 4, 'the external signer opened the receipt and the result (two layers each)');
    // the other way: LocalSigner -> external signer
    assert.deepEqual(await bob.client.request(ext.inner.publicKey, 'echo.this', { x: [1] }, { timeout: 10000 }), { x: [1] });
    const sent = await bob.client.send(nostr.nip19.npubEncode(ext.inner.publicKey), 'hi alice', { subject: 'greeting' });
    await until(() => alice.messages.length === 1);
    assert.equal(alice.messages[0].text, 'hi alice');
    assert.equal(alice.messages[0].subject, 'greeting');
    assert.equal(alice.messages[0].rumorId, sent.rumorId);
    assert.equal(alice.messages[0].contextId, sent.contextId);
    assert.equal(alice.messages[0].from, bob.signer.publicKey);
    assert.equal(alice.errors.length, 0);
  });

  it('an oversize request fails before sending; a thrown handler error reaches the peer as "handler failed"', async () => {
    const alice = client({ authorize: 'accept-all' });
    const bob = client({ authorize: 'accept-all' });
    bob.client.handle('x.big', () => 'y'.repeat(40000));
    bob.client.handle('x.throw', () => {
      throw new Error('db host 10.0.0.7 password hunter2');
    });
    await Promise.all([alice.client.start(), bob.client.start()]);
    await assert.rejects(alice.client.request(bob.signer.publicKey, 'x.big', { blob: 'z'.repeat(30000) }), (e) => e instanceof NostrError && e.code === 'AGX_TOO_LARGE');
    await assert.rejects(alice.client.send(bob.signer.publicKey, 'q'.repeat(29000)), { code: 'AGX_TOO_LARGE' });
    assert.equal(alice.client.pendingCount, 0);
    await assert.rejects(alice.client.request(bob.signer.publicKey, 'x.big', {}, { timeout: 10000 }), (e) => e.code === 'AGX_TASK_FAILED' && e.result.error === 'result too large');
    await assert.rejects(alice.client.request(bob.signer.publicKey, 'x.throw', {}, { timeout: 10000 }), (e) => e.code === 'AGX_TASK_FAILED' && e.result.error === 'handler failed' && !e.message.includes('hunter2'));
    assert.ok(bob.errors.some((e) => e.message.includes('hunter2')), 'logged locally in full');
  });

  it('NIP-42 AUTH through the signer: a relay that requires it serves both clients (their own pools)', async () => {
    const authRelay = await startDevRelay({ memory: true, agxPolicy: true, auth: true });
    stops.push(() => authRelay.close());
    const ext = externalSigner();
    const alice = client({ signer: ext, relay: authRelay.url, authorize: 'accept-all' });
    const bob = client({ relay: authRelay.url, authorize: 'accept-all' });
    bob.client.handle('a.b', () => 'authed');
    await Promise.all([alice.client.start(), bob.client.start()]);
    const signsBefore = ext.calls.sign;
    assert.equal(await alice.client.request(bob.signer.publicKey, 'a.b', null, { timeout: 15000 }), 'authed');
    assert.equal(alice.client.pool.status(authRelay.url).authenticatedAs, ext.inner.publicKey);
    assert.equal(bob.client.pool.status(authRelay.url).authenticatedAs, bob.signer.publicKey);
    assert.ok(ext.calls.sign > signsBefore);
  });

  it('rejects bad options with typed errors', () => {
    const s = LocalSigner.generate();
    assert.throws(() => new agx.AgxClient({ signer: {}, relays: [env.relay.url] }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new agx.AgxClient({ signer: s }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new agx.AgxClient({ signer: s, relays: [env.relay.url], authorize: 'yes' }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new agx.AgxClient({ signer: s, relays: [env.relay.url], seenStore: {} }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new agx.AgxClient({ signer: s, relays: [env.relay.url], maxAutoDepth: -1 }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new agx.AgxClient({ signer: s, relays: [env.relay.url], onWarning() {} }).handle('', () => 1), { code: 'INVALID_ARGUMENT' });
    s.dispose();
  });

  describe('signer unavailable vs bad input (SPEC.md "Signing")', () => {
    it('an unavailable signer makes the poll incomplete and discards nothing; bad input is discarded once', async () => {
      const ext = externalSigner();
      const bob = client({ signer: ext, authorize: 'accept-all' });
      const calls = [];
      bob.client.handle('t.run', (p) => (calls.push(p.n), p.n));
      const alice = client({ authorize: 'accept-all' });
      await Promise.all([bob.client.start(), alice.client.start()]);
      const first = await bob.client.poll();
      assert.equal(first.complete, true);
      const cursor0 = bob.client.cursor;
      assert.ok(cursor0 > 0);

      ext.mode = 'unavailable';
      const pending = alice.client.request(ext.inner.publicKey, 't.run', { n: 1 }, { timeout: 20000 });
      await until(() => ext.calls.decrypt > 0 && bob.errors.some((e) => e.code === 'SIGNER_UNAVAILABLE'));
      await sleep(1100); // the clock moves on, so an advance would show
      const p1 = await bob.client.poll();
      assert.equal(p1.complete, false);
      assert.ok(p1.unavailable >= 1);
      assert.equal(bob.client.cursor, cursor0, 'an incomplete poll does not advance the cursor');
      assert.equal(calls.length, 0);

      ext.mode = 'ok';
      const p2 = await bob.client.poll();
      assert.equal(p2.complete, true);
      assert.ok(bob.client.cursor > cursor0);
      assert.equal(await pending, 1);
      assert.deepEqual(calls, [1]);
      assert.equal((await bob.client.poll()).processed, 0, 'processed once');

      // bad input: discarded (recorded), never retried, and the poll stays complete
      ext.mode = 'bad';
      const junk = await agx.wrapRumor(agx.createMessageRumor('x', alice.signer.publicKey, ext.inner.publicKey), alice.signer, ext.inner.publicKey);
      assert.equal(await bob.client.ingest(junk), 'discarded');
      const decrypts = ext.calls.decrypt;
      assert.equal(await bob.client.ingest(junk), 'replay');
      assert.equal(ext.calls.decrypt, decrypts, 'a discarded wrap is not opened again');
      ext.mode = 'ok';
    });

    it('classifies errors: AgxSignerUnavailableError, SIGNER_UNAVAILABLE, unavailable: true vs anything else', () => {
      assert.equal(agx.isSignerUnavailable(new agx.AgxSignerUnavailableError()), true);
      assert.equal(agx.isSignerUnavailable(new NostrError('SIGNER_UNAVAILABLE', 'x')), true);
      assert.equal(agx.isSignerUnavailable(Object.assign(new Error('kms timeout'), { unavailable: true })), true);
      assert.equal(agx.isSignerUnavailable(new NostrError('SIGNER_REJECTED', 'x')), false);
      assert.equal(agx.isSignerUnavailable(new NostrError('SIGNER_INVALID_RESPONSE', 'x')), true, 'a NIP-46 bunker answering junk');
      assert.equal(agx.isSignerUnavailable(new NostrError('SIGNER_REFUSED', 'x')), false, 'a NIP-46 bunker refusing the input');
      assert.equal(agx.isSignerUnavailable(new Error('invalid MAC')), false);
      assert.equal(agx.isSignerUnavailable(null), false);
    });
  });

  describe('catch-up polls (SPEC.md "Cursor advance")', () => {
    it('advances only after a complete poll, to the clock read before it; since = cursor - (overlap + 172800)', async () => {
      let clock = nowS();
      const bob = client({ authorize: 'accept-all', now: () => clock, pollOverlap: 60, pollTimeout: 1500 });
      await bob.client.start();
      assert.equal(bob.client.pollLookback, 60 + 172800);
      const c1 = bob.client.cursor;
      assert.equal(c1, clock, 'the first complete poll set the cursor to the clock read before it');
      clock += 500;
      const r = await bob.client.poll();
      assert.equal(r.since, c1 - 60 - 172800);
      assert.equal(r.complete, true);
      assert.equal(bob.client.cursor, clock);
      // a relay that does not answer: incomplete, cursor held
      await env.relay.stop();
      try {
        await until(() => bob.client.pool.status(env.relay.url).state !== 'open');
        clock += 500;
        const bad = await bob.client.poll();
        assert.equal(bad.complete, false);
        assert.equal(bob.client.cursor, clock - 500);
      } finally {
        await env.relay.restart();
      }
    });

    it('a wrap more than 300 s in the future is skipped without being marked seen, and processed once it is due', async () => {
      const alice = LocalSigner.generate();
      let clock = nowS();
      const bob = client({ relay: plain.url, acceptAll: true, now: () => clock });
      await bob.client.start();
      // created_at at least a day ahead: wrapped "three days from now", backdated at most two
      const wrap = await agx.wrapRumor(agx.createMessageRumor('from the future', alice.publicKey, bob.signer.publicKey), alice, bob.signer.publicKey, { now: clock + 3 * 86400 });
      assert.ok(wrap.created_at > clock + 300);
      const pool = new RelayPool({ relays: [plain.url], relayInfo: false });
      assert.equal((await pool.publish(wrap))[0].status, 'accepted');
      await pool.close();
      const p = await bob.client.poll();
      assert.equal(p.complete, true, 'a future event does not make the poll incomplete');
      assert.ok(p.future >= 1);
      assert.equal(bob.messages.length, 0);
      assert.equal(await bob.client.ingest(wrap), 'future', 'not marked seen');
      clock = wrap.created_at; // it is due now
      const p2 = await bob.client.poll();
      assert.equal(p2.processed, 1);
      assert.equal(bob.messages.length, 1);
      assert.equal(bob.messages[0].text, 'from the future');
      alice.dispose();
    });
  });

  describe('SeenStores', () => {
    let dir;
    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'agx-seen-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('FileSeenStore: 0600 files, atomic snapshot, log replay, torn last line ignored, compaction', async () => {
      const d = path.join(dir, 'a');
      const a = new agx.FileSeenStore(d, { compactEvery: 3 });
      assert.deepEqual(await a.load(), { entries: [], cursor: null, tasks: [] });
      const exp = nowS() + 1000;
      await a.append([['a'.repeat(64), exp]]);
      await a.setCursor(1234);
      assert.equal(statSync(path.join(d, 'seen.log')).mode & 0o777, 0o600);
      assert.equal(statSync(path.join(d, 'seen.json')).mode & 0o777, 0o600);
      assert.equal(statSync(d).mode & 0o777, 0o700);
      await a.close();
      appendFileSync(path.join(d, 'seen.log'), '{"s":[["' + 'b'.repeat(64)); // a torn write
      const b = new agx.FileSeenStore(d, { compactEvery: 3 });
      const got = await b.load();
      assert.deepEqual(got, { entries: [['a'.repeat(64), exp]], cursor: 1234, tasks: [] });
      // expired entries are dropped; compaction folds the log into the snapshot
      await b.append([['c'.repeat(64), nowS() - 1]]);
      await b.append([['d'.repeat(64), exp]]);
      await b.append([['e'.repeat(64), exp]]);
      assert.equal(readFileSync(path.join(d, 'seen.log'), 'utf8'), '', 'compacted');
      assert.deepEqual(readdirSync(d).sort(), ['seen.json', 'seen.lock', 'seen.log'], 'no temporary file left');
      // one writer per directory
      await assert.rejects(new agx.FileSeenStore(d).load(), { code: 'AGX_SEEN_STORE_LOCKED' });
      await b.close();
      const c = new agx.FileSeenStore(d);
      const all = await c.load();
      assert.deepEqual(all.entries.map((e) => e[0][0]).sort(), ['a', 'd', 'e']);
      await assert.rejects(c.append([['zz', 1]]), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(c.setCursor(-1), { code: 'INVALID_ARGUMENT' });
      await c.close();
      assert.deepEqual(readdirSync(d).sort(), ['seen.json', 'seen.log'], 'the lock goes with close()');
      // a lock left by a process that is gone is taken over
      writeFileSync(path.join(d, 'seen.lock'), '999999999');
      const e = new agx.FileSeenStore(d);
      assert.equal((await e.load()).entries.length, 3);
      await e.close();
      writeFileSync(path.join(d, 'seen.json'), '[1,2]');
      await assert.rejects(new agx.FileSeenStore(d).load(), { code: 'AGX_SEEN_STORE' });
    });

    it('MemorySeenStore shared by a restarted client: nothing processed twice', async () => {
      const store = new agx.MemorySeenStore();
      const sk = nostr.generateSecretKey();
      const calls = [];
      const mk = () => {
        const c = client({ signer: new LocalSigner(sk), authorize: 'accept-all', seenStore: store });
        c.client.handle('m.x', (p) => (calls.push(p), p));
        return c;
      };
      const alice = client({ authorize: 'accept-all' });
      const b1 = mk();
      await Promise.all([alice.client.start(), b1.client.start()]);
      assert.equal(await alice.client.request(b1.signer.publicKey, 'm.x', 1, { timeout: 10000 }), 1);
      await b1.client.stop();
      assert.ok(store.size >= 2);
      const b2 = mk();
      await b2.client.start();
      await b2.client.poll();
      assert.deepEqual(calls, [1]);
    });

    it('a real restart of the serving agent (SIGKILL) with FileSeenStore processes nothing twice and loses nothing', async () => {
      const sk = nostr.generateSecretKey();
      const bobPk = nostr.getPublicKey(sk);
      const store = path.join(dir, 'bob');
      const log = path.join(dir, 'bob.log');
      writeFileSync(log, '');
      const procs = new Set();
      const startBob = (storeDir) =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, [CHILD, env.relay.url, nostr.bytesToHex(sk), storeDir, log], { stdio: ['ignore', 'pipe', 'inherit'] });
          procs.add(child);
          child.on('exit', () => procs.delete(child));
          child.on('error', reject);
          child.stdout.on('data', (d) => d.toString().includes('ready') && resolve(child));
        });
      const killed = (child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
      stops.push(async () => {
        for (const c of procs) c.kill('SIGKILL');
      });
      const lines = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number);
      const alice = client({ authorize: 'accept-all' });
      await alice.client.start();

      let bob = await startBob(store);
      assert.deepEqual(await alice.client.request(bobPk, 'count.me', { n: 1 }, { timeout: 15000 }), { n: 1 });
      assert.deepEqual(await alice.client.request(bobPk, 'count.me', { n: 2 }, { timeout: 15000 }), { n: 2 });
      bob.kill('SIGKILL');
      await killed(bob);
      // while bob is down
      const r3 = alice.client.request(bobPk, 'count.me', { n: 3 }, { timeout: 30000 });
      const r4 = alice.client.request(bobPk, 'count.me', { n: 4 }, { timeout: 30000 });
      await sleep(300);
      bob = await startBob(store);
      assert.deepEqual(await r3, { n: 3 });
      assert.deepEqual(await r4, { n: 4 });
      assert.deepEqual(lines().sort(), [1, 2, 3, 4], 'each task handled exactly once across the restart');
      bob.kill('SIGTERM');
      await killed(bob);
      // control: the same restart without the durable store handles all four again
      const fresh = await startBob('-');
      await until(() => lines().length === 8, 'eight log lines');
      fresh.kill('SIGKILL');
      await killed(fresh);
      assert.deepEqual(lines().slice(4).sort(), [1, 2, 3, 4]);
    });
  });

  describe('hostile wraps from mallory (alice, bob, mallory over real relays)', () => {
    const { nip44, nip13, finalizeEvent, generateSecretKey, getPublicKey } = nostr;
    const DAY = 86400;

    // Builds a wrap by hand so each rule can be broken on its own. Defaults make a conforming wrap.
    function craft({ rumor, sealSk, to, now = nowS(), wrapCreatedAt = now - 100, tags, pow = 12, commit = String(pow), breakSealSig = false }) {
      const seal = finalizeEvent(
        { kind: 13, created_at: now - 50, tags: [], content: nip44.encrypt(JSON.stringify(rumor), nip44.getConversationKey(sealSk, to)) },
        sealSk,
      );
      if (breakSealSig) seal.sig = (seal.sig[0] === 'a' ? 'b' : 'a') + seal.sig.slice(1);
      const eph = generateSecretKey();
      const base = {
        kind: 1059,
        pubkey: getPublicKey(eph),
        created_at: wrapCreatedAt,
        tags: tags ?? [['p', to], ['expiration', String(wrapCreatedAt + 30 * DAY)]],
        content: nip44.encrypt(JSON.stringify(seal), nip44.getConversationKey(eph, to)),
      };
      for (let start = 0; ; start += 1 << 20) {
        const mined = nip13.minePow(base, pow, { start });
        mined.tags = mined.tags.map((t) => (t[0] === 'nonce' ? [t[0], t[1], commit] : t));
        const ev = finalizeEvent(mined, eph);
        if (pow >= 12 || nip13.getPow(ev.id) < 12) return ev;
      }
    }

    it('two p tags, no expiration, 11-bit PoW: invalid (recorded nowhere); bad seal signature, forged author: discarded (cached); future: retried; nothing reaches a handler', async () => {
      const alice = LocalSigner.generate();
      const aliceSk = generateSecretKey();
      const malSk = generateSecretKey();
      const calls = [];
      const bob = client({ relay: plain.url, authorize: 'accept-all' });
      bob.client.handle('t.x', (p) => (calls.push(p), p));
      await bob.client.start();
      const to = bob.signer.publicKey;
      const alicePk = getPublicKey(aliceSk);
      const req = (who, n) => agx.createTaskRequestRumor({ taskId: `t${n}`, capability: 't.x', payload: n }, who, to);
      const now = nowS();
      const good = craft({ rumor: req(alicePk, 0), sealSk: aliceSk, to });
      const hostile = {
        twoP: craft({ rumor: req(alicePk, 1), sealSk: aliceSk, to, tags: [['p', to], ['p', alice.publicKey], ['expiration', String(now - 100 + 30 * DAY)]] }),
        noExpiration: craft({ rumor: req(alicePk, 2), sealSk: aliceSk, to, tags: [['p', to]] }),
        pow11: craft({ rumor: req(alicePk, 3), sealSk: aliceSk, to, pow: 11 }),
        badSealSig: craft({ rumor: req(alicePk, 4), sealSk: aliceSk, to, breakSealSig: true }),
        // mallory seals a rumor that claims alice as its author
        forgedAuthor: craft({ rumor: req(alicePk, 5), sealSk: malSk, to }),
      };
      const future = craft({ rumor: req(alicePk, 6), sealSk: aliceSk, to, wrapCreatedAt: now + 3600 });
      const expired = craft({ rumor: req(alicePk, 7), sealSk: aliceSk, to, wrapCreatedAt: now - 31 * DAY });
      // the dev relay's AGX policy refuses what it checks (expiration, PoW)
      const guarded = new RelayPool({ relays: [env.relay.url], relayInfo: false });
      for (const k of ['noExpiration', 'pow11']) assert.equal((await guarded.publish(hostile[k]))[0].status, 'rejected', k);
      await guarded.close();
      // a relay without that policy delivers them all: the client must hold the line
      const open = new RelayPool({ relays: [plain.url], relayInfo: false });
      for (const ev of [...Object.values(hostile), future, expired, good]) await open.publish(ev);
      await open.close();
      await until(() => calls.length === 1);
      assert.deepEqual(calls, [0], 'the conforming control went through');
      await bob.client.poll();
      await sleep(200);
      assert.deepEqual(calls, [0]);
      const publicFailures = new Set(['twoP', 'noExpiration', 'pow11']);
      for (const [k, ev] of Object.entries(hostile)) {
        const r = await bob.client.ingest(ev);
        // A public-check failure takes no place in the replay memory: checked again, and again invalid.
        if (publicFailures.has(k)) assert.equal(r, 'invalid', `${k} failed a public check`);
        else assert.equal(r, 'replay', `${k} was discarded (cached) when it arrived`);
      }
      assert.equal(await bob.client.ingest(future), 'future');
      assert.equal(await bob.client.ingest(expired), 'invalid');
      assert.equal(bob.client.replayStats.processed, 2, 'only the good request took a place among processed ids');
      assert.equal(bob.messages.length, 0, 'broken envelopes are not messages');
      const codes = bob.errors.map((e) => e.code);
      for (const c of ['AGX_WRAP_P_TAG', 'AGX_WRAP_NO_EXPIRATION', 'AGX_WRAP_POW', 'NIP59_SEAL_SIGNATURE', 'NIP59_AUTHOR_MISMATCH'])
        assert.ok(codes.includes(c), `${c} in ${codes}`);
      alice.dispose();
    });
  });

  describe('automated-reply depth', () => {
    it('two auto-replying agents stop at the ceiling; delivery continues; a human reset re-opens it', async () => {
      const ping = client({ authorize: 'accept-all' });
      const pong = client({ authorize: 'accept-all' });
      // each answers every message it gets
      ping.client.onMessage((m) => `re: ${m.autoDepth}`);
      pong.client.onMessage((m) => `re: ${m.autoDepth}`);
      await Promise.all([ping.client.start(), pong.client.start()]);
      const first = await ping.client.send(pong.signer.publicKey, 'hello');
      // depths 0 (human) 1 2 ... 8; the reply that would carry 9 is refused
      await until(() => pong.messages.length + ping.messages.length === 9);
      await sleep(500);
      const all = [...ping.messages, ...pong.messages].sort((a, b) => a.autoDepth - b.autoDepth);
      assert.deepEqual(all.map((m) => m.autoDepth), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
      assert.ok(all.every((m) => m.contextId === first.contextId), 'one conversation');
      const refusals = [...ping.warnings, ...pong.warnings].filter((w) => w.includes('depth-ceiling'));
      assert.equal(refusals.length, 1, 'the refusal is surfaced to the operator');
      // the agent that received depth 8 got it (delivery is never cut)
      const last = all.at(-1);
      assert.equal(last.autoDepth, 8);
      // a human reset: a human writes into the conversation again (autoDepth 0), replies resume
      const before = pong.messages.length + ping.messages.length;
      await ping.client.send(pong.signer.publicKey, 'again', { contextId: first.contextId });
      await until(() => pong.messages.length + ping.messages.length >= before + 2);
    });

    it('maxAutoDepth lowers the ceiling; the per-peer bound holds when a peer mints a new conversation per message', async () => {
      const a = client({ authorize: 'accept-all', maxAutoDepth: 2 });
      const b = client({ authorize: 'accept-all', autoReplyLimits: { perPeer: 3 } });
      a.client.onMessage((m) => `a ${m.autoDepth}`);
      b.client.onMessage((m) => (m.autoDepth === 0 ? `b ${m.autoDepth}` : null));
      await Promise.all([a.client.start(), b.client.start()]);
      await b.client.send(a.signer.publicKey, 'one'); // a replies at 1; b does not answer non-zero depths
      await until(() => b.messages.length === 1);
      assert.equal(b.messages[0].autoDepth, 1);
      // five fresh conversations from a: b's per-peer bound lets 3 automated replies through
      for (let i = 0; i < 5; i++) await a.client.send(b.signer.publicKey, `new ${i}`);
      await until(() => b.warnings.filter((w) => w.includes('peer-bound')).length === 2);
      await until(() => a.messages.filter((m) => m.autoDepth === 1).length >= 3);
      await sleep(300);
      assert.equal(a.messages.filter((m) => m.autoDepth === 1).length, 3, 'no more than the bound');
      // a's ceiling of 2: replying to a depth-2 message is refused
      const lim = new agx.AutoReplyLimiter({ maxAutoDepth: 2 });
      assert.equal(lim.ceiling, 2);
      assert.equal(lim.tryReply(b.signer.publicKey, 'c', 1), 'allowed');
      assert.equal(lim.tryReply(b.signer.publicKey, 'c', 2), 'depth-ceiling');
      assert.equal(lim.tryReply(b.signer.publicKey, 'c', -5), 'allowed', 'unusable counts as 0');
      lim.dispose();
      assert.equal(agx.replyDepth(undefined), 1);
      assert.equal(agx.replyDepth(3.5), 1);
      assert.equal(agx.replyDepth(7), 8);
      // resetAutoDepth: a human clears the peer
      b.client.resetAutoDepth(a.signer.publicKey);
      await a.client.send(b.signer.publicKey, 'after reset');
      await until(() => a.messages.filter((m) => m.autoDepth === 1).length === 4);
    });
  });
});
