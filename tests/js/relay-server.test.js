// The dev relay (nostr-agents/relay-server and `nostr-agents relay`) and the third-party relay
// harness, over real WebSockets on 127.0.0.1.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRelay } from 'nostr-agents/relay-server';
import { nostr, prng, sleep } from './helpers.js';
import { startDevRelay, startThirdPartyRelay, rawClient } from '../support/relays.js';

const now = () => Math.floor(Date.now() / 1000);
const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));

function makeEvent(sk, fields = {}) {
  return nostr.finalizeEvent({ kind: 1, created_at: now(), tags: [], content: 'hello', ...fields }, sk);
}

const isOk = (id) => (f) => f[0] === 'OK' && f[1] === id;
const isSub = (type, sub) => (f) => f[0] === type && f[1] === sub;

async function publish(c, evt) {
  await c.send(['EVENT', evt]);
  return c.next(isOk(evt.id));
}

/** Sends a REQ and collects the stored events up to EOSE. */
async function fetchStored(c, sub, ...filters) {
  await c.send(['REQ', sub, ...filters]);
  const events = [];
  for (;;) {
    const f = await c.next((x) => (x[0] === 'EVENT' || x[0] === 'EOSE' || x[0] === 'CLOSED') && x[1] === sub);
    if (f[0] === 'EOSE') return events;
    if (f[0] === 'CLOSED') throw new Error(`CLOSED: ${f[2]}`);
    events.push(f[2]);
  }
}

/** Runs `fn` with a relay and clients that are all closed afterwards, pass or fail. */
async function withRelay(opts, fn) {
  const relay = await startRelay(opts);
  const clients = [];
  const client = () => {
    const c = rawClient(relay.url);
    clients.push(c);
    return c;
  };
  try {
    await fn(relay, client);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await relay.close();
  }
}

function mine(sk, template, bits) {
  const pubkey = nostr.getPublicKey(sk);
  for (let n = 0; ; n++) {
    const t = { ...template, tags: [...template.tags, ['nonce', String(n), String(bits)]] };
    const id = nostr.getEventHash({ ...t, pubkey });
    let zeros = 0;
    for (const ch of id) {
      const v = parseInt(ch, 16);
      if (v === 0) zeros += 4;
      else {
        zeros += Math.clz32(v) - 28;
        break;
      }
    }
    if (zeros >= bits) return nostr.finalizeEvent(t, sk);
  }
}

for (const storage of ['sqlite', 'memory']) {
  const opts = { memory: storage === 'memory' };
  describe(`dev relay (${storage} store)`, () => {
    test('publish: OK true, duplicate, invalid signature and id', async () => {
      await withRelay(opts, async (relay, client) => {
        assert.equal(relay.storage, storage);
        const c = client();
        const sk = nostr.generateSecretKey();
        const e = makeEvent(sk);
        assert.deepEqual(await publish(c, e), ['OK', e.id, true, '']);
        const dup = await publish(c, e);
        assert.equal(dup[2], true);
        assert.match(dup[3], /^duplicate:/);

        const flip = (s) => (s[0] === '0' ? '1' : '0') + s.slice(1);
        const badSig = { ...makeEvent(sk, { content: 'other' }) };
        badSig.sig = flip(badSig.sig);
        const r1 = await publish(c, badSig);
        assert.equal(r1[2], false);
        assert.match(r1[3], /^invalid:/);
        const badId = { ...makeEvent(sk, { content: 'third' }), content: 'tampered' };
        const r2 = await publish(c, badId);
        assert.equal(r2[2], false);
        assert.match(r2[3], /^invalid:/);
        assert.deepEqual(await fetchStored(c, 's', { authors: [e.pubkey] }), [e]);
      });
    });

    test('REQ: stored newest first with limit, EOSE, then live events; CLOSE stops them', async () => {
      await withRelay(opts, async (relay, client) => {
        const sk = nostr.generateSecretKey();
        const t = now() - 100;
        const events = [];
        const pub = client();
        for (let i = 0; i < 5; i++) {
          const e = makeEvent(sk, { created_at: t + i, content: `n${i}` });
          events.push(e);
          assert.equal((await publish(pub, e))[2], true);
        }
        const sub = client();
        const got = await fetchStored(sub, 'a', { authors: [nostr.getPublicKey(sk)], limit: 3 });
        assert.deepEqual(got.map((e) => e.content), ['n4', 'n3', 'n2']);
        const all = await fetchStored(sub, 'b', { kinds: [1] });
        assert.equal(all.length, 5);

        const live = makeEvent(sk, { content: 'live' });
        await publish(pub, live);
        const fa = await sub.next(isSub('EVENT', 'a'));
        assert.deepEqual(fa[2], live);
        await sub.next(isSub('EVENT', 'b'));

        await sub.send(['CLOSE', 'a']);
        await sub.send(['CLOSE', 'b']);
        // A round trip after CLOSE proves the relay processed it before the next publish.
        await fetchStored(sub, 'probe', { ids: ['0'.repeat(64)] });
        await sub.send(['CLOSE', 'probe']);
        const after = makeEvent(sk, { content: 'after close' });
        await publish(pub, after);
        assert.ok(await sub.none((f) => f[0] === 'EVENT'));
      });
    });

    test('REQ: multiple filters, since/until, #tags, ids, limit 0', async () => {
      await withRelay(opts, async (relay, client) => {
        const c = client();
        const sk = nostr.generateSecretKey();
        const base = now() - 1000;
        const a = makeEvent(sk, { created_at: base, tags: [['t', 'alpha']], content: 'a' });
        const b = makeEvent(sk, { created_at: base + 10, tags: [['t', 'beta'], ['p', 'x'.repeat(64)]], content: 'b' });
        const k7 = makeEvent(sk, { kind: 7, created_at: base + 20, content: '+' });
        for (const e of [a, b, k7]) await publish(c, e);
        const ids = (list) => list.map((e) => e.content);
        assert.deepEqual(ids(await fetchStored(c, 'q1', { '#t': ['alpha'] }, { kinds: [7] })), ['+', 'a']);
        assert.deepEqual(ids(await fetchStored(c, 'q2', { kinds: [1], since: base + 5 })), ['b']);
        assert.deepEqual(ids(await fetchStored(c, 'q3', { kinds: [1], until: base + 5 })), ['a']);
        assert.deepEqual(ids(await fetchStored(c, 'q4', { '#t': ['alpha', 'beta'], '#p': ['x'.repeat(64)] })), ['b']);
        assert.deepEqual(ids(await fetchStored(c, 'q5', { ids: [a.id, k7.id] })), ['+', 'a']);
        assert.deepEqual(await fetchStored(c, 'q6', { kinds: [1], limit: 0 }), []);
        assert.deepEqual(await fetchStored(c, 'q7', { kinds: [] }), []);
        const dupes = await fetchStored(c, 'q8', { ids: [a.id] }, { '#t': ['alpha'] });
        assert.equal(dupes.length, 1);
        await c.send(['COUNT', 'c1', { kinds: [1] }, { kinds: [7] }]);
        assert.deepEqual(await c.next(isSub('COUNT', 'c1')), ['COUNT', 'c1', { count: 3 }]);
        // Live delivery checks the whole filter, tags included.
        await fetchStored(c, 'live', { kinds: [1], '#t': ['gamma'] });
        await publish(c, makeEvent(sk, { content: 'untagged' }));
        const tagged = makeEvent(sk, { tags: [['t', 'gamma']], content: 'tagged' });
        await publish(c, tagged);
        assert.deepEqual((await c.next(isSub('EVENT', 'live')))[2], tagged);
        assert.ok(await c.none(isSub('EVENT', 'live'), 100));
        await c.send(['REQ', 'bad', { kinds: 'x' }]);
        const closed = await c.next(isSub('CLOSED', 'bad'));
        assert.match(closed[2], /^invalid:/);
      });
    });

    test('replaceable and addressable events: newest wins, ties by lowest id', async () => {
      await withRelay(opts, async (relay, client) => {
        const c = client();
        const sk = nostr.generateSecretKey();
        const pk = nostr.getPublicKey(sk);
        const t = now() - 50;
        const m1 = makeEvent(sk, { kind: 0, created_at: t, content: '{"name":"one"}' });
        const m2 = makeEvent(sk, { kind: 0, created_at: t + 1, content: '{"name":"two"}' });
        await publish(c, m1);
        await publish(c, m2);
        assert.deepEqual(await fetchStored(c, 'r1', { kinds: [0], authors: [pk] }), [m2]);
        const old = await publish(c, makeEvent(sk, { kind: 0, created_at: t - 10, content: '{"name":"old"}' }));
        assert.equal(old[2], true);
        assert.match(old[3], /^duplicate:/);
        assert.deepEqual(await fetchStored(c, 'r2', { kinds: [0], authors: [pk] }), [m2]);

        // Same created_at: the lowest id stays, whatever the order of arrival.
        const x = makeEvent(sk, { kind: 10002, created_at: t, content: 'x' });
        const y = makeEvent(sk, { kind: 10002, created_at: t, content: 'y' });
        const [lo, hi] = x.id < y.id ? [x, y] : [y, x];
        await publish(c, hi);
        await publish(c, lo);
        await publish(c, hi);
        assert.deepEqual(await fetchStored(c, 'r3', { kinds: [10002] }), [lo]);

        // Addressable: one per d tag.
        const d1 = makeEvent(sk, { kind: 30078, created_at: t, tags: [['d', 'one']], content: '1a' });
        const d1b = makeEvent(sk, { kind: 30078, created_at: t + 5, tags: [['d', 'one']], content: '1b' });
        const d2 = makeEvent(sk, { kind: 30078, created_at: t + 1, tags: [['d', 'two']], content: '2' });
        for (const e of [d1, d1b, d2]) assert.equal((await publish(c, e))[2], true);
        const got = await fetchStored(c, 'r4', { kinds: [30078], authors: [pk] });
        assert.deepEqual(got.map((e) => e.content), ['1b', '2']);
        assert.deepEqual(await fetchStored(c, 'r5', { kinds: [30078], '#d': ['one'] }), [d1b]);
        // Another author's same address is independent.
        const other = makeEvent(nostr.generateSecretKey(), { kind: 30078, created_at: t, tags: [['d', 'one']] });
        await publish(c, other);
        assert.equal((await fetchStored(c, 'r6', { kinds: [30078], '#d': ['one'] })).length, 2);
      });
    });

    test('ephemeral events are forwarded to live subscribers and never stored', async () => {
      await withRelay(opts, async (relay, client) => {
        const sub = client();
        const pub = client();
        await fetchStored(sub, 'e', { kinds: [20001] });
        const e = makeEvent(nostr.generateSecretKey(), { kind: 20001, content: 'typing' });
        assert.deepEqual(await publish(pub, e), ['OK', e.id, true, '']);
        assert.deepEqual((await sub.next(isSub('EVENT', 'e')))[2], e);
        assert.deepEqual(await fetchStored(pub, 'later', { kinds: [20001] }), []);
        assert.equal(relay.store.size, 0);
      });
    });

    test('NIP-09: deletion by the author removes e and a targets, re-publication refused', async () => {
      await withRelay(opts, async (relay, client) => {
        const c = client();
        const sk = nostr.generateSecretKey();
        const pk = nostr.getPublicKey(sk);
        const t = now() - 30;
        const note = makeEvent(sk, { created_at: t, content: 'regret' });
        const keep = makeEvent(sk, { created_at: t, content: 'keep' });
        const art = makeEvent(sk, { kind: 30023, created_at: t, tags: [['d', 'post']], content: 'article' });
        for (const e of [note, keep, art]) await publish(c, e);

        // Someone else's deletion request has no effect.
        const mallory = nostr.generateSecretKey();
        await publish(c, makeEvent(mallory, { kind: 5, tags: [['e', note.id]] }));
        assert.equal((await fetchStored(c, 'm', { ids: [note.id] })).length, 1);

        const del = makeEvent(sk, { kind: 5, created_at: t + 1, tags: [['e', note.id], ['a', `30023:${pk}:post`]] });
        assert.equal((await publish(c, del))[2], true);
        const left = await fetchStored(c, 'd', { authors: [pk] });
        assert.deepEqual(left.map((e) => e.id).sort(), [keep.id, del.id].sort(), 'the request itself is kept');

        const again = await publish(c, note);
        assert.equal(again[2], false);
        assert.match(again[3], /^blocked:/);
        // An older version of the deleted address is refused; a newer one is accepted.
        const oldArt = makeEvent(sk, { kind: 30023, created_at: t, tags: [['d', 'post']], content: 'old again' });
        assert.equal((await publish(c, oldArt))[2], false);
        const newArt = makeEvent(sk, { kind: 30023, created_at: t + 2, tags: [['d', 'post']], content: 'new' });
        assert.equal((await publish(c, newArt))[2], true);
        assert.deepEqual(await fetchStored(c, 'a', { kinds: [30023] }), [newArt]);
      });
    });

    test('NIP-40: expired events rejected, expiring events stop being served', async () => {
      await withRelay(opts, async (relay, client) => {
        const c = client();
        const sk = nostr.generateSecretKey();
        const expired = makeEvent(sk, { tags: [['expiration', String(now() - 1)]] });
        const r = await publish(c, expired);
        assert.equal(r[2], false);
        assert.match(r[3], /^invalid:/);
        const exp = now() + 2;
        const soon = makeEvent(sk, { tags: [['expiration', String(exp)]], content: 'soon gone' });
        assert.equal((await publish(c, soon))[2], true);
        assert.deepEqual(await fetchStored(c, 'x1', { ids: [soon.id] }), [soon]);
        await sleep(exp * 1000 - Date.now() + 50);
        assert.deepEqual(await fetchStored(c, 'x2', { ids: [soon.id] }), []);
        assert.deepEqual(await fetchStored(c, 'x3', { kinds: [1] }), []);
      });
    });
  });
}

describe('dev relay', () => {
  test('NIP-11 document over HTTP on the same port', async () => {
    await withRelay({ auth: true, maxMessageLength: 50_000 }, async (relay) => {
      const http = relay.url.replace('ws://', 'http://');
      const res = await fetch(http, { headers: { accept: 'application/nostr+json' } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type'), /application\/nostr\+json/);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      const doc = await res.json();
      assert.equal(doc.software, 'nostr-agents');
      assert.ok(doc.supported_nips.includes(1) && doc.supported_nips.includes(42));
      assert.equal(doc.limitation.max_message_length, 50_000);
      assert.equal(doc.limitation.auth_required, true);
      for (const k of ['max_subscriptions', 'max_filters', 'max_limit', 'max_subid_length'])
        assert.equal(typeof doc.limitation[k], 'number', k);
      const plain = await fetch(http);
      assert.match(await plain.text(), /nostr-agents dev relay/);
    });
  });

  test('malformed and oversized frames get NOTICE or OK false, the connection stays usable', async () => {
    await withRelay({ maxMessageLength: 2000 }, async (relay, client) => {
      const c = client();
      const sk = nostr.generateSecretKey();
      for (const raw of ['not json', '{"a":1}', '[]', '[1,2]', '["NOPE"]', '["EVENT"]', '["EVENT",{}]', '["REQ"]', '["CLOSE"]', '["AUTH",5]']) {
        await c.send(raw);
        const f = await c.next((x) => x[0] === 'NOTICE');
        assert.match(f[1], /^invalid:/, raw);
      }
      await c.send(['EVENT', { id: 'abc', kind: 'one' }]);
      const broken = await c.next(isOk('abc'));
      assert.equal(broken[2], false);
      assert.match(broken[3], /^invalid:/);

      const big = makeEvent(sk, { content: 'x'.repeat(3000) });
      const r = await publish(c, big);
      assert.equal(r[2], false);
      assert.match(r[3], /^invalid: message too large/);
      await c.send(['REQ', 'big', { ids: Array.from({ length: 40 }, () => 'a'.repeat(64)) }]);
      assert.match((await c.next(isSub('CLOSED', 'big')))[2], /^invalid: message too large/);

      const small = makeEvent(sk);
      assert.equal((await publish(c, small))[2], true);
      assert.equal(relay.connections, 1);
    });
  });

  test('hundreds of random malformed frames never crash it', async () => {
    await withRelay({ memory: true }, async (relay, client) => {
      const rand = prng(7);
      const sk = nostr.generateSecretKey();
      const valid = makeEvent(sk);
      const pick = (xs) => xs[Math.floor(rand() * xs.length)];
      const junk = () =>
        pick([null, 1, -1, 1.5, 1e300, '', 'x', [], {}, [[1]], { kinds: 'x' }, { since: 1.5 }, { '#e': [1] },
          { limit: -3 }, { ids: [valid.id], kinds: [1e21] }, { '#\u00e9': ['x'] }, { ...valid, tags: 'no' },
          { ...valid, kind: -1 }, { ...valid, id: 5 }, { ...valid, created_at: 2 ** 60 }, { authors: [null] }]);
      const c = client();
      for (let i = 0; i < 400; i++) {
        const type = pick(['EVENT', 'REQ', 'COUNT', 'CLOSE', 'AUTH', 'NOPE', 7, null]);
        const frame = [type];
        const n = Math.floor(rand() * 4);
        if (type === 'REQ' || type === 'COUNT') frame.push(pick(['s', '', 5, 'x'.repeat(80)]));
        for (let j = 0; j < n; j++) frame.push(junk());
        await c.send(rand() < 0.1 ? JSON.stringify(frame).slice(0, -1) : frame);
      }
      assert.equal((await publish(c, makeEvent(sk, { content: 'still alive' })))[2], true);
      assert.ok(!c.frames.some((f) => f[0] === 'NOTICE' && /internal error/.test(f[1])), 'no internal errors');
    });
  });

  test('rate limit: token bucket per connection answers rate-limited:', async () => {
    await withRelay({ rateLimit: { rate: 1, burst: 3 } }, async (relay, client) => {
      const c = client();
      const sk = nostr.generateSecretKey();
      const events = Array.from({ length: 5 }, (_, i) => makeEvent(sk, { content: `r${i}` }));
      for (const e of events) await c.send(['EVENT', e]);
      const results = [];
      for (const e of events) results.push(await c.next(isOk(e.id)));
      assert.deepEqual(results.map((r) => r[2]), [true, true, true, false, false]);
      assert.match(results[3][3], /^rate-limited:/);
      await c.send(['REQ', 'limited', { kinds: [1] }]);
      assert.match((await c.next(isSub('CLOSED', 'limited')))[2], /^rate-limited:/);
      // Another connection has its own bucket.
      const d = client();
      assert.equal((await publish(d, makeEvent(sk, { content: 'other conn' })))[2], true);
    });
  });

  test('limits on subscriptions, filters and subscription ids', async () => {
    await withRelay({ maxSubscriptions: 2, maxFilters: 2 }, async (relay, client) => {
      const c = client();
      await fetchStored(c, 's1', { kinds: [1] });
      await fetchStored(c, 's2', { kinds: [1] });
      await fetchStored(c, 's2', { kinds: [2] }); // replacing an open id is fine
      await c.send(['REQ', 's3', { kinds: [1] }]);
      assert.match((await c.next(isSub('CLOSED', 's3')))[2], /^blocked:/);
      await c.send(['CLOSE', 's1']);
      await fetchStored(c, 's3', { kinds: [1] });
      await c.send(['REQ', 's2', {}, {}, {}]);
      assert.match((await c.next(isSub('CLOSED', 's2')))[2], /^invalid: too many filters/);
      await c.send(['REQ', 'x'.repeat(65), {}]);
      assert.match((await c.next(isSub('CLOSED', 'x'.repeat(65))))[2], /^invalid:/);
    });
  });

  // Issue 16 item 3: a hostile client holding many large non-matching filters.
  test('a hostile client: connections, filter bytes (per connection and in all) and COUNT work are capped, advertised in NIP-11, refused with standard prefixes', async () => {
    const opts = { maxConnections: 3, maxFilterBytes: 300_000, maxTotalFilterBytes: 500_000, maxCountScan: 5 };
    await withRelay(opts, async (relay, client) => {
      const doc = relay.info();
      assert.equal(doc.limitation.max_connections, 3);
      assert.equal(doc.limitation.max_filter_bytes, 300_000);
      assert.equal(doc.limitation.max_count_scan, 5);
      const rand = prng(16);
      const hexId = () => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
      // About 200 KB per REQ: 10 filters of 300 ids that match nothing.
      const big = () => Array.from({ length: 10 }, () => ({ ids: Array.from({ length: 300 }, hexId) }));
      const [c1, c2, c3] = [client(), client(), client()];
      await fetchStored(c1, 'big1', ...big());
      await c1.send(['REQ', 'big2', ...big()]);
      assert.match((await c1.next(isSub('CLOSED', 'big2')))[2], /^blocked: .*more than 300000 bytes/);
      await fetchStored(c2, 'big1', ...big()); // ~400 KB held in all
      await c3.send(['REQ', 'big1', ...big()]);
      assert.match((await c3.next(isSub('CLOSED', 'big1')))[2], /^blocked: the relay holds too many filters/);
      await c1.send(['CLOSE', 'big1']); // frees its bytes
      await sleep(50);
      await fetchStored(c3, 'big1', ...big());
      // A fourth connection is refused with a NOTICE and closed.
      const c4 = client();
      assert.match((await c4.next((f) => f[0] === 'NOTICE'))[1], /^blocked: too many connections \(max 3\)/);
      assert.equal(await c4.closed, 1013);
      // Among all those filters, a publish reaches exactly the subscription it matches.
      const sk = nostr.generateSecretKey();
      await fetchStored(c1, 'mine', { kinds: [1], '#t': ['bench'] });
      const e = makeEvent(sk, { tags: [['t', 'bench']] });
      assert.equal((await publish(c2, e))[2], true);
      assert.deepEqual((await c1.next(isSub('EVENT', 'mine')))[2], e);
      assert.ok(await c2.none((f) => f[0] === 'EVENT'), 'no EVENT for the non-matching filters');
      // COUNT looks at maxCountScan stored events at most, then answers approximate (NIP-45).
      for (let i = 0; i < 7; i++) assert.equal((await publish(c1, makeEvent(sk, { content: `n${i}` })))[2], true);
      await c1.send(['COUNT', 'n', { kinds: [1] }]);
      assert.deepEqual((await c1.next(isSub('COUNT', 'n')))[2], { count: 5, approximate: true });
      await c1.send(['COUNT', 'one', { ids: [e.id] }, { ids: [e.id] }]);
      assert.deepEqual((await c1.next(isSub('COUNT', 'one')))[2], { count: 1 });
      // A malformed filter is refused by the core's one parse.
      await c1.send(['REQ', 'bad', { kinds: ['1'] }]);
      assert.match((await c1.next(isSub('CLOSED', 'bad')))[2], /^invalid:/);
    });
  });

  test('NIP-42: challenge on connect, auth-required before AUTH, checks of the AUTH event', async () => {
    await withRelay({ auth: true }, async (relay, client) => {
      const c = client();
      const [, challenge] = await c.next((f) => f[0] === 'AUTH');
      assert.equal(typeof challenge, 'string');
      const sk = nostr.generateSecretKey();
      const e = makeEvent(sk);
      const denied = await publish(c, e);
      assert.equal(denied[2], false);
      assert.match(denied[3], /^auth-required:/);
      await c.send(['REQ', 'r', { kinds: [1] }]);
      assert.match((await c.next(isSub('CLOSED', 'r')))[2], /^auth-required:/);

      const auth = (tags, created_at = now(), kind = 22242) =>
        nostr.finalizeEvent({ kind, created_at, tags, content: '' }, sk);
      const tries = [
        auth([['relay', relay.url], ['challenge', 'wrong']]),
        auth([['relay', 'ws://127.0.0.1:1'], ['challenge', challenge]]),
        auth([['relay', relay.url], ['challenge', challenge]], now() - 3600),
        auth([['relay', relay.url], ['challenge', challenge]], now(), 1),
      ];
      const forged = auth([['relay', relay.url], ['challenge', challenge]]);
      tries.push({ ...forged, sig: forged.sig.replace(/^./, (ch) => (ch === 'a' ? 'b' : 'a')) });
      for (const a of tries) {
        await c.send(['AUTH', a]);
        const r = await c.next(isOk(a.id));
        assert.equal(r[2], false);
        assert.match(r[3], /^invalid:/);
      }
      const good = auth([['relay', relay.url.replace('127.0.0.1', 'localhost') + '/'], ['challenge', challenge]]);
      await c.send(['AUTH', good]);
      assert.deepEqual(await c.next(isOk(good.id)), ['OK', good.id, true, '']);
      assert.equal((await publish(c, e))[2], true);
      assert.deepEqual(await fetchStored(c, 'r2', { kinds: [1] }), [e]);

      // A second connection has its own challenge and is still unauthenticated.
      const d = client();
      const [, ch2] = await d.next((f) => f[0] === 'AUTH');
      assert.notEqual(ch2, challenge);
      await d.send(['AUTH', good]);
      assert.equal((await d.next(isOk(good.id)))[2], false);
    });
  });

  test('NIP-42 allow list answers restricted: to other pubkeys', async () => {
    const alice = nostr.generateSecretKey();
    const bob = nostr.generateSecretKey();
    await withRelay({ auth: true, allowedPubkeys: [nostr.getPublicKey(alice)] }, async (relay, client) => {
      for (const [sk, ok] of [
        [alice, true],
        [bob, false],
      ]) {
        const c = client();
        const [, challenge] = await c.next((f) => f[0] === 'AUTH');
        const a = nostr.finalizeEvent(
          { kind: 22242, created_at: now(), tags: [['relay', relay.url], ['challenge', challenge]], content: '' },
          sk,
        );
        await c.send(['AUTH', a]);
        assert.equal((await c.next(isOk(a.id)))[2], true);
        const r = await publish(c, makeEvent(sk));
        assert.equal(r[2], ok);
        if (!ok) assert.match(r[3], /^restricted:/);
      }
    });
  });

  test('AUTH is refused when NIP-42 is off, and optional mode sends a challenge without requiring it', async () => {
    const sk = nostr.generateSecretKey();
    await withRelay({}, async (relay, client) => {
      const c = client();
      const a = nostr.finalizeEvent({ kind: 22242, created_at: now(), tags: [['relay', relay.url]], content: '' }, sk);
      await c.send(['AUTH', a]);
      const r = await c.next(isOk(a.id));
      assert.equal(r[2], false);
      assert.match(r[3], /^restricted:/);
      assert.ok(!c.frames.some((f) => f[0] === 'AUTH'));
    });
    await withRelay({ auth: 'optional' }, async (relay, client) => {
      const c = client();
      await c.next((f) => f[0] === 'AUTH');
      assert.equal((await publish(c, makeEvent(sk)))[2], true);
    });
  });

  test('--agx-policy: gift wraps need an expiration <= 31 days ahead and 12 bits of PoW', async () => {
    const sk = nostr.generateSecretKey();
    const inDays = (d) => String(now() + d * 86400);
    const wrap = (tags) => ({ kind: 1059, created_at: now(), tags: [['p', 'f'.repeat(64)], ...tags], content: 'sealed' });
    const good = mine(sk, wrap([['expiration', inDays(7)]]), 12);
    const noExp = mine(sk, wrap([]), 12);
    const farExp = mine(sk, wrap([['expiration', inDays(40)]]), 12);
    const lowCommit = mine(sk, wrap([['expiration', inDays(7)]]), 8);
    // Enough bits by luck is not enough when the nonce commits to fewer.
    let weak;
    for (let i = 0; ; i++) {
      weak = nostr.finalizeEvent(wrap([['expiration', inDays(7)], ['n', String(i)]]), sk);
      if (!/^0{3}/.test(weak.id)) break;
    }
    await withRelay({ agxPolicy: true }, async (relay, client) => {
      const c = client();
      const expect = async (e, ok, prefix) => {
        const r = await publish(c, e);
        assert.equal(r[2], ok, `${r[3]}`);
        if (prefix) assert.match(r[3], prefix);
      };
      await expect(noExp, false, /^invalid:/);
      await expect(farExp, false, /^invalid:/);
      await expect(weak, false, /^pow:/);
      await expect(lowCommit, false, /^pow:/);
      await expect(good, true);
      await expect(makeEvent(sk, { content: 'plain notes are not affected' }), true);
      const doc = await (await fetch(relay.url.replace('ws', 'http'), { headers: { accept: 'application/nostr+json' } })).json();
      assert.ok(doc.supported_nips.includes(13));
    });
    await withRelay({}, async (relay, client) => {
      const c = client();
      assert.equal((await publish(c, weak))[2], true, 'without the policy any gift wrap is accepted');
    });
  });

  test('a nonce tag committing to fewer than 12 bits is refused even when the id has 12', async () => {
    const sk = nostr.generateSecretKey();
    const pubkey = nostr.getPublicKey(sk);
    const tmpl = (n) => ({
      kind: 1059,
      created_at: now(),
      tags: [['expiration', String(now() + 3600)], ['nonce', String(n), '4']],
      content: '',
    });
    let n = 0;
    while (!/^000/.test(nostr.getEventHash({ ...tmpl(n), pubkey }))) n++;
    const e = nostr.finalizeEvent(tmpl(n), sk);
    await withRelay({ agxPolicy: true }, async (relay, client) => {
      const r = await publish(client(), e);
      assert.equal(r[2], false);
      assert.match(r[3], /^pow: nonce tag commits to difficulty 4/);
    });
  });

  test('--agx-policy refuses what the core\'s relay_accepts refuses: two p tags, no p tag, a future created_at', async () => {
    const sk = nostr.generateSecretKey();
    const exp = (d) => ['expiration', String(now() + d)];
    const P = ['p', 'f'.repeat(64)];
    const Q = ['p', 'e'.repeat(64)];
    const twoP = mine(sk, { kind: 1059, created_at: now(), tags: [P, Q, exp(86400)], content: 'sealed' }, 12);
    const noP = mine(sk, { kind: 1059, created_at: now(), tags: [exp(86400)], content: 'sealed' }, 12);
    const future = mine(sk, { kind: 1059, created_at: now() + 3600, tags: [P, exp(86400 * 2)], content: 'sealed' }, 12);
    const slightlyAhead = mine(sk, { kind: 1059, created_at: now() + 60, tags: [P, exp(86400)], content: 'sealed' }, 12);
    await withRelay({ agxPolicy: true }, async (relay, client) => {
      const c = client();
      for (const [e, code] of [[twoP, 'AGX_WRAP_P_TAG'], [noP, 'AGX_WRAP_P_TAG'], [future, 'AGX_WRAP_FUTURE']]) {
        const r = await publish(c, e);
        assert.equal(r[2], false, code);
        assert.match(r[3], new RegExp(`^invalid: .*\\(${code}\\)$`));
      }
      // Within the core's 300 s skew: accepted.
      assert.equal((await publish(c, slightlyAhead))[2], true);
      // A wrap made by the AGX client (seal, wrap, PoW) passes.
      const alice = nostr.LocalSigner.generate();
      const bob = nostr.LocalSigner.generate();
      try {
        const rumor = nostr.agx.createMessageRumor('hi', alice.publicKey, bob.publicKey);
        const real = await nostr.agx.wrapRumor(rumor, alice, bob.publicKey);
        assert.equal((await publish(c, real))[2], true);
      } finally {
        alice.dispose();
        bob.dispose();
      }
    });
    await withRelay({}, async (relay, client) => {
      assert.equal((await publish(client(), twoP))[2], true, 'without the policy the relay takes it');
    });
  });

  test('SQLite file keeps events, replacements and deletions across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nostr-agents-relay-'));
    const db = join(dir, 'relay.sqlite');
    try {
      const sk = nostr.generateSecretKey();
      const keep = makeEvent(sk, { content: 'persisted' });
      const gone = makeEvent(sk, { content: 'deleted' });
      await withRelay({ db }, async (relay, client) => {
        assert.equal(relay.storage, 'sqlite');
        const c = client();
        await publish(c, keep);
        await publish(c, gone);
        await publish(c, makeEvent(sk, { kind: 5, tags: [['e', gone.id]] }));
      });
      await withRelay({ db }, async (relay, client) => {
        const c = client();
        assert.deepEqual(await fetchStored(c, 'p', { kinds: [1] }), [keep]);
        assert.equal((await publish(c, gone))[2], false);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('startDevRelay: stop drops clients, restart serves the same events on the same port', async () => {
    const relay = await startDevRelay();
    const c1 = rawClient(relay.url);
    let c2;
    try {
      const e = makeEvent(nostr.generateSecretKey());
      await publish(c1, e);
      await relay.stop();
      await c1.closed;
      await relay.restart();
      c2 = rawClient(relay.url);
      assert.deepEqual(await fetchStored(c2, 'x', { ids: [e.id] }), [e]);
    } finally {
      await c1.close();
      await c2?.close();
      await relay.close();
    }
  });

  test('`nostr-agents relay --port 0` prints its URL and serves', async () => {
    const child = spawn(process.execPath, [CLI, 'relay', '--port', '0', '--memory'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let c;
    try {
      const url = await new Promise((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = out.match(/ws:\/\/127\.0\.0\.1:\d+/);
          if (m) resolve(m[0]);
        });
        child.once('exit', () => reject(new Error(`relay exited: ${out}`)));
      });
      assert.notEqual(url, 'ws://127.0.0.1:0');
      c = rawClient(url);
      const e = makeEvent(nostr.generateSecretKey());
      assert.equal((await publish(c, e))[2], true);
      assert.deepEqual(await fetchStored(c, 'cli', { ids: [e.id] }), [e]);
    } finally {
      await c?.close();
      child.kill('SIGTERM');
    }
    assert.deepEqual(await exited, { code: 0, signal: null });
  });

  test('without SQLite and without --db the CLI keeps events in memory and says plainly that nothing persists', async () => {
    const preload = fileURLToPath(new URL('../support/no-sqlite.cjs', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'relay-nosqlite-'));
    const child = spawn(process.execPath, ['--require', preload, CLI, 'relay', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: dir,
    });
    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    try {
      for (let i = 0; i < 1200 && !/stop with/.test(err); i++) await sleep(25); // a loaded machine starts it slowly
      assert.match(out, /ws:\/\/127\.0\.0\.1:\d+/);
      assert.match(err, /SQLite is unavailable[\s\S]*npm install better-sqlite3@12/);
      assert.match(err, /storage: memory only: NOTHING PERSISTS/);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
    rmSync(dir, { recursive: true, force: true });
  });

  test('--db without SQLite: refuses to start, exit 3 (configuration) with the command that fixes it; no file, no fallback', async () => {
    const preload = fileURLToPath(new URL('../support/no-sqlite.cjs', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'relay-nosqlite-'));
    try {
      const child = spawn(process.execPath, ['--require', preload, CLI, 'relay', '--port', '0', '--db', 'relay.db'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        cwd: dir,
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      assert.equal(code, 3, err);
      assert.match(err, /SQLite is unavailable/);
      assert.match(err, /npm install better-sqlite3@12/);
      assert.doesNotMatch(out, /listening/);
      assert.doesNotMatch(err, /in memory|falling back/);
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('unknown CLI command exits non-zero with usage', async () => {
    const child = spawn(process.execPath, [CLI, 'nope'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 2); // 2: usage (see docs/cli.md, exit codes)
    assert.match(err, /unknown command "nope"[\s\S]*relay/);
  });
});

describe('third-party relay (@nostr-relay/core) harness', () => {
  test('starts, accepts, serves, rejects bad events, replaceable + ephemeral, restarts on the same port', async () => {
    const relay = await startThirdPartyRelay();
    const clients = [];
    const client = () => {
      const c = rawClient(relay.url);
      clients.push(c);
      return c;
    };
    try {
      const c = client();
      const sk = nostr.generateSecretKey();
      const pk = nostr.getPublicKey(sk);
      const e = makeEvent(sk, { content: 'third party' });
      assert.equal((await publish(c, e))[2], true);
      assert.deepEqual(await fetchStored(c, 'a', { ids: [e.id] }), [e]);
      // A re-sent event is acknowledged again (it answers from a 10-minute result cache, so
      // without a `duplicate:` reason).
      assert.equal((await publish(c, e))[2], true);
      const bad = { ...makeEvent(sk, { content: 'bad' }) };
      bad.sig = (bad.sig[0] === '0' ? '1' : '0') + bad.sig.slice(1);
      const r = await publish(c, bad);
      assert.equal(r[2], false);
      assert.match(r[3], /^invalid:/);

      const t = now() - 10;
      const m1 = makeEvent(sk, { kind: 0, created_at: t, content: 'one' });
      const m2 = makeEvent(sk, { kind: 0, created_at: t + 1, content: 'two' });
      await publish(c, m1);
      await publish(c, m2);
      assert.deepEqual(await fetchStored(c, 'm', { kinds: [0], authors: [pk] }), [m2]);

      const sub = client();
      await fetchStored(sub, 'live', { kinds: [1, 20001], authors: [pk] });
      const eph = makeEvent(sk, { kind: 20001, content: 'eph' });
      assert.equal((await publish(c, eph))[2], true);
      assert.deepEqual((await sub.next(isSub('EVENT', 'live')))[2], eph);
      assert.deepEqual(await fetchStored(c, 'eph', { kinds: [20001] }), []);

      // Known quirk pool tests rely on: its live matching ignores tag filters, so an event
      // without the #p asked for is still delivered after EOSE (ours checks every filter).
      const quirk = client();
      await fetchStored(quirk, 'p', { kinds: [1], authors: [pk], '#p': ['a'.repeat(64)] });
      const untagged = makeEvent(sk, { content: 'no p tag' });
      await publish(c, untagged);
      assert.deepEqual((await quirk.next(isSub('EVENT', 'p')))[2], untagged);

      const port = relay.port;
      await relay.stop();
      await sub.closed;
      await relay.restart();
      assert.equal(relay.port, port);
      const c3 = client();
      assert.deepEqual(await fetchStored(c3, 'after', { ids: [e.id] }), [e]);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await relay.close();
    }
  });

  test('with auth it sends a challenge on connect and accepts a valid AUTH', async () => {
    const relay = await startThirdPartyRelay({ auth: true });
    const c = rawClient(relay.url);
    try {
      const [, challenge] = await c.next((f) => f[0] === 'AUTH');
      const sk = nostr.generateSecretKey();
      const a = nostr.finalizeEvent(
        { kind: 22242, created_at: now(), tags: [['relay', relay.url], ['challenge', challenge]], content: '' },
        sk,
      );
      await c.send(['AUTH', a]);
      assert.equal((await c.next(isOk(a.id)))[2], true);
    } finally {
      await c.close();
      await relay.close();
    }
  });
});
