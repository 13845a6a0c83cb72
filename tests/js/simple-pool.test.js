// SimplePool and Relay against nostr-tools' own pool and relay tests (nbd-wtf/nostr-tools,
// pool.test.ts and relay.test.ts, 2.25), case by case. Each case runs twice with the same body:
// once with nostr-tools' SimplePool, once with ours, on the same real relays (three of our dev
// relays and @nostr-relay/core), so "the same behaviour" is what nostr-tools itself does here.
// Then what we do on purpose differently: reconnect on by default, typed errors, ws(s) URLs only.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket, { WebSocketServer } from 'ws';
import * as ntPool from 'nostr-tools/pool';
import * as ntRelay from 'nostr-tools/relay';
import { nostr, makeEvent, now, until, sleep, deadPort, startScriptedRelay, FAST } from './pool-helpers.js';
import { rejectsCode, throwsCode } from './helpers.js';
import { startDevRelay, startThirdPartyRelay } from '../support/relays.js';

ntPool.useWebSocketImplementation(WebSocket);
ntRelay.useWebSocketImplementation(WebSocket);

const { SimplePool, Relay, RelayPool, NostrError } = nostr;

const IMPLS = [
  ['nostr-tools', (opts) => new ntPool.SimplePool(opts), () => ntRelay.Relay],
  ['nostr-agents', (opts) => new SimplePool(opts), () => Relay],
];

/** Ends a pool of either kind, leaving no socket or timer. */
async function done(pool) {
  if (pool instanceof SimplePool) await pool.relayPool.close();
  else pool.destroy();
}

/** A relay that completes the handshake, then answers nothing: no pong, no frame. */
async function startDeafRelay() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
  await new Promise((r) => wss.once('listening', r));
  const clients = new Set();
  wss.on('connection', (ws) => {
    clients.add(ws);
    ws.on('error', () => {});
  });
  return {
    url: `ws://127.0.0.1:${wss.address().port}`,
    close: () => new Promise((r) => {
      for (const c of clients) c.terminate();
      wss.close(() => r());
    }),
  };
}

let relays = [];
let urls = [];
before(async () => {
  relays = [await startDevRelay({ memory: true, rateLimit: false }), await startDevRelay({ memory: true, rateLimit: false }), await startDevRelay({ memory: true, rateLimit: false }), await startThirdPartyRelay()];
  urls = relays.map((r) => r.url);
});
after(async () => {
  for (const r of relays) await r.close();
});

for (const [impl, makePool, RelayClass] of IMPLS) {
  describe(`pool.test.ts cases with ${impl}'s SimplePool`, () => {
    it('removing duplicates when subscribing', async () => {
      const pool = makePool();
      try {
        const sk = nostr.generateSecretKey();
        const received = [];
        const event = makeEvent(sk, { kind: 1, content: 'test' });
        let eosed = false;
        pool.subscribeMany(urls, { authors: [nostr.getPublicKey(sk)] }, { onevent: (e) => received.push(e), oneose: () => (eosed = true) });
        await until(() => eosed, 'EOSE');
        await Promise.any(pool.publish(urls, event));
        await until(() => received.length > 0, 'the event');
        await sleep(200);
        assert.equal(received.length, 1);
        assert.deepEqual(JSON.parse(JSON.stringify(received[0])), event);
      } finally {
        await done(pool);
      }
    });

    it('same with double subs', async () => {
      const pool = makePool();
      try {
        const sk = nostr.generateSecretKey();
        const received = [];
        let eoses = 0;
        for (let i = 0; i < 2; i++)
          pool.subscribeMany(urls, { authors: [nostr.getPublicKey(sk)] }, { onevent: (e) => received.push(e), oneose: () => eoses++ });
        await until(() => eoses === 2, 'EOSE of both');
        await Promise.any(pool.publish(urls, makeEvent(sk, { kind: 22346, content: 'test2' })));
        await until(() => received.length >= 2, 'the event twice');
        await sleep(200);
        assert.equal(received.length, 2);
      } finally {
        await done(pool);
      }
    });

    it('subscribe many map', async () => {
      const pool = makePool();
      try {
        const sk = nostr.hexToBytes('8ea002840d413ccdd5be98df5dd89d799eaa566355ede83ca0bbdbb4b145e0d3');
        const pub = nostr.getPublicKey(sk);
        const stamp = now();
        const event1 = makeEvent(sk, { kind: 20001, content: `test1 ${impl}`, created_at: stamp });
        const event2 = makeEvent(sk, { kind: 20002, content: `test2 ${impl}`, tags: [['t', 'biloba']], created_at: stamp });
        const event3 = makeEvent(sk, { kind: 20003, content: `test3 ${impl}`, tags: [['t', 'biloba']], created_at: stamp });
        const [relayA, relayB, relayC] = urls;
        const received = [];
        let eosed = false;
        pool.subscribeMap(
          [
            { url: relayA, filter: { authors: [pub], kinds: [20001] } },
            { url: relayB, filter: { authors: [pub], kinds: [20002] } },
            { url: relayC, filter: { kinds: [20003], '#t': ['biloba'] } },
          ],
          { onevent: (e) => received.push(e), oneose: () => (eosed = true) },
        );
        await until(() => eosed, 'EOSE');
        await Promise.all(pool.publish([relayA, relayB], event1));
        await until(() => received.length === 1, 'event1');
        assert.equal(received[0].id, event1.id);
        await pool.publish([relayB], event2)[0];
        await until(() => received.length === 2, 'event2');
        assert.equal(received[1].id, event2.id);
        // events that match no relay's filter there
        await Promise.all([...pool.publish([relayA, relayB], event3), ...pool.publish([relayC], event1)]);
        await sleep(150);
        assert.equal(received.length, 2);
        await pool.publish([relayC], event3)[0];
        await until(() => received.length === 3, 'event3');
        assert.equal(received[2].id, event3.id);
      } finally {
        await done(pool);
      }
    });

    it('query a bunch of events and cancel on eose', async () => {
      const pool = makePool();
      try {
        const sk = nostr.generateSecretKey();
        const stored = [];
        // (regular kinds only: a replaceable kind 0 or 3 would keep one event per relay)
        for (let i = 0; i < 12; i++) stored.push(makeEvent(sk, { kind: [1, 2, 4, 6][i % 4], content: `bunch ${i}`, created_at: now() - i }));
        // Each relay holds a different part: together more than any one of them.
        for (const [i, e] of stored.entries()) await Promise.all(pool.publish([urls[i % urls.length]], e));
        const ids = new Set();
        const reasons = await new Promise((resolve) => {
          pool.subscribeManyEose(urls, { kinds: [0, 1, 2, 3, 4, 5, 6], authors: [nostr.getPublicKey(sk)], limit: 40 }, { onevent: (e) => ids.add(e.id), onclose: resolve });
        });
        assert.equal(ids.size, 12);
        assert.deepEqual(reasons.map((r) => r.reason), urls.map(() => 'closed automatically on eose'));
      } finally {
        await done(pool);
      }
    });

    it('querySync()', async () => {
      const pool = makePool();
      try {
        const authors = [];
        for (const url of urls) {
          const sk = nostr.generateSecretKey();
          authors.push(nostr.getPublicKey(sk));
          for (let i = 0; i < 3; i++) await pool.publish([url], makeEvent(sk, { content: `q${i}`, created_at: now() - i }))[0];
        }
        // every relay has a copy of one event too
        const shared = makeEvent(nostr.generateSecretKey(), { content: 'everywhere' });
        authors.push(shared.pubkey);
        await Promise.all(pool.publish(urls, shared));
        const events = await pool.querySync(urls, { authors, kinds: [1], limit: 2 });
        assert.ok(events.length > 2, `${events.length} events`);
        assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'no duplicates');
        assert.equal(events.filter((e) => e.id === shared.id).length, 1);
      } finally {
        await done(pool);
      }
    });

    it('get()', async () => {
      const pool = makePool();
      try {
        const sk = nostr.generateSecretKey();
        const older = makeEvent(sk, { content: 'older', created_at: now() - 10 });
        const newer = makeEvent(sk, { content: 'newer', created_at: now() - 5 });
        await Promise.all([...pool.publish([urls[0]], older), ...pool.publish([urls[1]], newer)]);
        const filter = { authors: [older.pubkey] };
        const event = await pool.get(urls, filter);
        assert.equal(event.id, newer.id);
        const byId = await pool.get(urls, { ids: [older.id] });
        assert.equal(byId.id, older.id);
        assert.equal(await pool.get(urls, { ids: ['0'.repeat(64)] }), null);
      } finally {
        await done(pool);
      }
    });

    it('reconnect on disconnect in pool (enableReconnect: true)', async () => {
      const pool = makePool({ enableReconnect: true });
      const relay = relays[1];
      try {
        const r = await pool.ensureRelay(relay.url);
        if (impl === 'nostr-tools') r.resubscribeBackoff = [50, 100];
        let closes = 0;
        r.onclose = () => closes++;
        assert.equal(r.connected, true);
        // a subscription keeps the relay wanted (ours reconnects what something uses)
        const got = [];
        const sk = nostr.generateSecretKey();
        pool.subscribeMany([relay.url], { authors: [nostr.getPublicKey(sk)] }, { onevent: (e) => got.push(e.content) });
        await relay.restart();
        const live = makeEvent(sk, { content: 'after reconnect' });
        const fresh = makePool();
        await fresh.publish([relay.url], live)[0];
        await done(fresh);
        await until(() => got.includes('after reconnect'), 'the event after the reconnect', 15_000);
        assert.equal(r.connected, true);
        assert.equal(closes, 0, 'a transient drop that reconnects fires no onclose');
      } finally {
        await done(pool);
      }
    });

    it('track relays when publishing', async () => {
      const pool = makePool();
      try {
        const e1 = makeEvent(nostr.generateSecretKey(), { content: 'hello' });
        const e2 = makeEvent(nostr.generateSecretKey(), { content: 'hello' });
        pool.trackRelays = true;
        await Promise.all(pool.publish(urls, e1));
        assert.ok(pool.seenOn.get(e1.id));
        // (nostr-tools spells a URL with a trailing slash)
        assert.deepEqual([...pool.seenOn.get(e1.id)].map((r) => r.url.replace(/\/$/, '')).sort(), [...urls].sort());
        pool.trackRelays = false;
        await Promise.all(pool.publish(urls, e2));
        assert.equal(pool.seenOn.get(e2.id), undefined);
      } finally {
        await done(pool);
      }
    });

    it('publish() rejects (does not resolve) when a relay is unreachable', async () => {
      const pool = makePool();
      try {
        const event = makeEvent(nostr.generateSecretKey(), { content: 'hello' });
        const dead = `ws://127.0.0.1:${await deadPort()}`;
        const [settled, ok] = await Promise.allSettled(pool.publish([dead, urls[0]], event, { maxWait: 1500 }));
        assert.equal(settled.status, 'rejected');
        assert.equal(ok.status, 'fulfilled');
        assert.equal(typeof ok.value, 'string');
        if (impl === 'nostr-agents') assert.equal(settled.reason.code, 'RELAY_UNREACHABLE');
        else assert.match(String(settled.reason), /connection failure/);
      } finally {
        await done(pool);
      }
    });

    it('publish() rejects a refused event per relay with the relay\'s message', async () => {
      const pool = makePool();
      try {
        const expired = makeEvent(nostr.generateSecretKey(), { content: 'expired', tags: [['expiration', String(now() - 3600)]] });
        const [r] = await Promise.allSettled(pool.publish([urls[0]], expired));
        assert.equal(r.status, 'rejected');
        assert.match(r.reason.message, /invalid|expired/i);
      } finally {
        await done(pool);
      }
    });
  });

  describe(`relay.test.ts cases with ${impl}'s Relay`, () => {
    it('connectivity, with new Relay() and Relay.connect()', async () => {
      const R = RelayClass();
      const relay = new R(urls[0]);
      await relay.connect();
      assert.equal(relay.connected, true);
      relay.close();
      const r2 = await R.connect(urls[3]);
      assert.equal(r2.connected, true);
      r2.close();
      await until(() => !r2.connected, 'closed');
    });

    it('querying, and listening, publishing and closing', async () => {
      const R = RelayClass();
      const relay = await R.connect(urls[0]);
      try {
        const sk = nostr.generateSecretKey();
        const pk = nostr.getPublicKey(sk);
        await relay.publish(makeEvent(sk, { kind: 0, content: '{"name":"x"}' }));
        const profile = await new Promise((resolve) => {
          const sub = relay.subscribe([{ authors: [pk], kinds: [0] }], { onevent: (e) => { resolve(e); sub.close(); } });
        });
        assert.equal(profile.pubkey, pk);
        assert.equal(profile.kind, 0);
        const kind = 23571;
        let closedWith;
        const seen = [];
        const closed = new Promise((resolve) => {
          const sub = relay.subscribe([{ kinds: [kind], authors: [pk] }], {
            onevent(e) {
              seen.push(e);
              sub.close();
            },
            onclose(reason) {
              closedWith = reason;
              resolve();
            },
          });
        });
        const ok = await relay.publish(makeEvent(sk, { kind, content: 'content', created_at: now() }));
        assert.equal(typeof ok, 'string');
        await closed;
        assert.equal(seen.length, 1);
        assert.equal(seen[0].content, 'content');
        assert.equal(closedWith, 'closed by caller');
      } finally {
        relay.close();
      }
    });

    it('publish timeout', async () => {
      const silent = await startScriptedRelay(() => {}); // accepts the socket, never answers
      const R = RelayClass();
      const relay = await R.connect(silent.url);
      relay.publishTimeout = 150;
      try {
        const err = await relay.publish(makeEvent(nostr.generateSecretKey(), { content: 'hello' })).then(() => null, (e) => e);
        assert.ok(err, 'rejected');
        if (impl === 'nostr-agents') assert.equal(err.code, 'RELAY_TIMEOUT');
        else assert.match(err.message, /publish timed out/);
      } finally {
        relay.close();
        await silent.close();
      }
    });

    it('ping-pong timeout: an unresponsive relay is dropped (onclose without reconnect)', async () => {
      const silent = await startDeafRelay();
      const R = RelayClass();
      const relay = new R(silent.url, { enablePing: true, enableReconnect: false });
      relay.pingTimeout = 100;
      relay.pingFrequency = 100;
      let closes = 0;
      relay.onclose = () => closes++;
      try {
        await relay.connect();
        assert.equal(relay.connected, true);
        await until(() => closes > 0, 'onclose after the unanswered ping', 10_000);
        assert.equal(relay.connected, false);
      } finally {
        relay.close();
        await silent.close();
      }
    });
  });
}

describe('SimplePool: where we differ from nostr-tools on purpose', () => {
  it('reconnects by default: a relay that restarts gets the subscription back, events missed meanwhile arrive once', async () => {
    const relay = relays[0];
    const pool = new SimplePool();
    const writer = new SimplePool({ enableReconnect: false });
    try {
      const sk = nostr.generateSecretKey();
      const got = [];
      let eosed = false;
      pool.subscribeMany([relay.url], { authors: [nostr.getPublicKey(sk)] }, { onevent: (e) => got.push(e.content), oneose: () => (eosed = true) });
      await until(() => eosed, 'EOSE');
      await relay.stop();
      await until(() => pool.listConnectionStatus().get(relay.url) === false, 'the drop');
      await relay.restart();
      await Promise.all(writer.publish([relay.url], makeEvent(sk, { content: 'while reconnecting' })));
      await until(() => got.includes('while reconnecting'), 'the event', 15_000);
      await sleep(100);
      assert.deepEqual(got, ['while reconnecting']);
      assert.equal(pool.listConnectionStatus().get(relay.url), true);
    } finally {
      await pool.relayPool.close();
      await writer.relayPool.close();
    }
  });

  it('with enableReconnect: false a relay that goes away closes the subscription there, as nostr-tools does', async () => {
    const relay = await startDevRelay({ memory: true });
    const pool = new SimplePool({ enableReconnect: false });
    try {
      let reasons = null;
      let eosed = false;
      pool.subscribeMany([relay.url], { kinds: [1] }, { oneose: () => (eosed = true), onclose: (r) => (reasons = r) });
      await until(() => eosed, 'EOSE');
      await relay.stop();
      await until(() => reasons !== null, 'onclose');
      assert.equal(reasons.length, 1);
      assert.equal(reasons[0].url, relay.url);
      assert.equal(typeof reasons[0].reason, 'string');
    } finally {
      await pool.relayPool.close();
      await relay.close();
    }
  });

  it('verifies and dedupes: a forged copy is dropped, the genuine event comes once', async () => {
    const sk = nostr.generateSecretKey();
    const genuine = makeEvent(sk, { content: 'genuine' });
    const forged = { ...genuine, sig: '00'.repeat(64) };
    const liar = await startScriptedRelay((ws, msg) => {
      if (msg?.[0] === 'REQ') {
        ws.send(JSON.stringify(['EVENT', msg[1], forged]));
        ws.send(JSON.stringify(['EVENT', msg[1], genuine]));
        ws.send(JSON.stringify(['EVENT', msg[1], genuine]));
        ws.send(JSON.stringify(['EOSE', msg[1]]));
      }
    });
    const pool = new SimplePool();
    try {
      await Promise.all(pool.publish([urls[0]], genuine));
      // The forged copy comes first and carries the genuine id: it must not suppress the genuine one.
      const events = await pool.querySync([liar.url], { authors: [genuine.pubkey] });
      assert.deepEqual(events.map((e) => e.id), [genuine.id]);
      assert.equal(nostr.verifyEvent(events[0]), true);
      assert.equal(pool.relayPool.stats.dropped['bad-signature'], 1);
      const both = await pool.querySync([liar.url, urls[0]], { authors: [genuine.pubkey] });
      assert.deepEqual(both.map((e) => e.id), [genuine.id]);
    } finally {
      await pool.relayPool.close();
      await liar.close();
    }
  });

  it('bad arguments throw typed errors at the call; relays-first on RelayPool says so; nothing is left unhandled', async () => {
    const pool = new SimplePool();
    const rp = new RelayPool({ ...FAST });
    const unhandled = [];
    const onUnhandled = (err) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      const event = makeEvent(nostr.generateSecretKey(), { content: 'x' });
      throwsCode(() => pool.subscribe({ kinds: [1] }, [urls[0]], {}), 'INVALID_ARGUMENT', (e) => assert.match(e.message, /relays first/));
      throwsCode(() => pool.publish(event, [urls[0]]), 'INVALID_ARGUMENT', (e) => assert.match(e.message, /relays first/));
      throwsCode(() => pool.subscribe(['http://example.com'], { kinds: [1] }, {}), 'RELAY_URL_INVALID');
      throwsCode(() => pool.publish(['https://example.com'], event), 'RELAY_URL_INVALID');
      throwsCode(() => pool.subscribe([urls[0]], 'kinds', {}), 'INVALID_FILTER');
      await rejectsCode(pool.querySync('wss://x', { kinds: [1] }), 'INVALID_ARGUMENT');
      await rejectsCode(pool.ensureRelay('http://x'), 'RELAY_URL_INVALID');
      // One promise per relay: the bad event rejects each (typed), and a publish nobody awaits crashes nothing.
      const bad = { ...event, sig: '00'.repeat(64) };
      const outs = pool.publish([urls[0], urls[1]], bad);
      assert.equal(outs.length, 2);
      for (const p of outs) await rejectsCode(p, 'INVALID_SIGNATURE');
      pool.publish([urls[0]], bad); // not awaited
      pool.publish([urls[0], urls[0]], event); // a repeated URL: its second promise rejects, unawaited
      // RelayPool's own order is (event, { relays }): the relays-first call names the mistake, and
      // its rejection, unawaited, is not an unhandled one.
      throwsCode(() => rp.subscribe([urls[0]], { kinds: [1] }), 'INVALID_ARGUMENT', (e) => assert.match(e.message, /relays as an option/));
      await rejectsCode(rp.query([urls[0]], { kinds: [1] }), 'INVALID_ARGUMENT');
      await rejectsCode(rp.publish([urls[0]], event), 'INVALID_ARGUMENT', (e) => assert.match(e.message, /publish\(event, \{ relays \}\)/));
      rp.publish([urls[0]], event); // not awaited
      rp.publish(bad, { relays: [urls[0]] }); // not awaited
      throwsCode(() => new RelayPool({ relays: ['http://x'] }), 'RELAY_URL_INVALID');
      throwsCode(() => new RelayPool({ relays: ['wss://ok.example', 'ftp://x'] }), 'RELAY_URL_INVALID');
      throwsCode(() => new Relay('https://x'), 'RELAY_URL_INVALID');
      await sleep(300);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await pool.relayPool.close();
      await rp.close();
    }
  });

  it('publish resolves per relay with the relay\'s OK message; a duplicate URL rejects its own promise only', async () => {
    const pool = new SimplePool();
    try {
      const event = makeEvent(nostr.generateSecretKey(), { content: 'per relay' });
      const results = await Promise.allSettled(pool.publish([urls[0], urls[1], urls[0].replace('ws://', 'WS://')], event));
      assert.equal(results[0].status, 'fulfilled');
      assert.equal(results[1].status, 'fulfilled');
      assert.equal(results[2].status, 'rejected');
      assert.equal(results[2].reason.code, 'INVALID_ARGUMENT');
      const again = await pool.publish([urls[0]], event)[0];
      assert.match(again, /^duplicate:/);
    } finally {
      await pool.relayPool.close();
    }
  });

  it('NIP-42: onauth answers a relay that requires AUTH, for reads and writes', async () => {
    const relay = await startDevRelay({ memory: true, auth: true });
    const sk = nostr.generateSecretKey();
    const onauth = async (t) => nostr.finalizeEvent(t, sk);
    const pool = new SimplePool();
    const bare = new SimplePool();
    try {
      const event = makeEvent(sk, { content: 'authed' });
      const [refused] = await Promise.allSettled(bare.publish([relay.url], event));
      assert.equal(refused.status, 'rejected');
      assert.equal(refused.reason.reason, 'auth-required');
      assert.equal(typeof (await pool.publish([relay.url], event, { onauth })[0]), 'string');
      const events = await new Promise((resolve) => {
        const got = [];
        pool.subscribeManyEose([relay.url], { authors: [event.pubkey] }, { onauth, onevent: (e) => got.push(e), onclose: () => resolve(got) });
      });
      assert.deepEqual(events.map((e) => e.id), [event.id]);
    } finally {
      await pool.relayPool.close();
      await bare.relayPool.close();
      await relay.close();
    }
  });

  it('countMany (NIP-45 COUNT) takes the largest count of the relays; relay.count counts', async () => {
    const pool = new SimplePool();
    try {
      const target = nostr.getPublicKey(nostr.generateSecretKey());
      const follow = () => makeEvent(nostr.generateSecretKey(), { kind: 3, content: '', tags: [['p', target]] });
      const a = [follow(), follow(), follow()];
      await Promise.all(a.flatMap((e) => pool.publish([urls[0]], e)));
      await Promise.all(pool.publish([urls[1]], a[0]));
      const { count } = await pool.countMany([urls[0], urls[1]], target, 'followers');
      assert.equal(count, 3);
      const relay = await pool.ensureRelay(urls[1]);
      assert.equal(await relay.count([{ kinds: [3], '#p': [target] }]), 1);
      await assert.rejects(pool.countMany([urls[0]], target, 'likes'), (e) => e instanceof NostrError && e.code === 'INVALID_ARGUMENT');
    } finally {
      await pool.relayPool.close();
    }
  });

  it('listConnectionStatus, close(relays), pruneIdleRelays, destroy', async () => {
    const pool = new SimplePool();
    try {
      await pool.ensureRelay(urls[0]);
      await pool.ensureRelay(urls[1]);
      assert.deepEqual([...pool.listConnectionStatus()].sort(), [[urls[0], true], [urls[1], true]].sort());
      await pool.close([urls[1]]);
      assert.deepEqual([...pool.listConnectionStatus()], [[urls[0], true]]);
      const sub = pool.subscribeMany([urls[2]], { kinds: [1], limit: 1 }, {});
      await sleep(20);
      assert.deepEqual(pool.pruneIdleRelays(0), [urls[0]], 'the relay in use stays');
      sub.close();
      assert.deepEqual(pool.pruneIdleRelays(0), [urls[2]]);
      await pool.ensureRelay(urls[3]);
      await pool.destroy();
      assert.equal(pool.listConnectionStatus().size, 0);
      // still usable, as nostr-tools' pool is after destroy()
      const relay = await pool.ensureRelay(urls[0]);
      assert.equal(relay.connected, true);
    } finally {
      await pool.relayPool.close();
    }
  });
});
