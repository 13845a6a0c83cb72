// The pool executes the core's subscription machine (issue 18 item 1): what the core decides
// reaches real relays over real WebSockets. A transient CLOSED is retried on the core's deadline,
// a relay that drops and reconnects gets the REQ again with `since`, a delivered event is the
// core's parse (the frame is not parsed again in JS, non-ASCII text intact), the probe REQ and
// every REQ/CLOSE are the codec's frames, and the constants come from the core.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, pool, makeEvent, until, startScriptedRelay } from './pool-helpers.js';
import { startDevRelay } from '../support/relays.js';

const sk = nostr.generateSecretKey();

describe('pool driven by the core machine', () => {
  it('a transient CLOSED is retried after the core backoff; a permanent one closes with its reason', async () => {
    let reqs = 0;
    const relay = await startScriptedRelay((ws, msg) => {
      if (!Array.isArray(msg) || msg[0] !== 'REQ') return;
      reqs++;
      if (msg[1].startsWith('flaky') && reqs === 1) ws.send(JSON.stringify(['CLOSED', msg[1], 'rate-limited: slow down']));
      else if (msg[1].startsWith('blocked')) ws.send(JSON.stringify(['CLOSED', msg[1], 'blocked: not you']));
      else ws.send(JSON.stringify(['EOSE', msg[1]]));
    });
    const p = pool({ relays: [relay.url], relayInfo: false, retry: { initialDelay: 30, maxDelay: 30, jitter: 0 } });
    try {
      let eosed = false;
      const sub = p.subscribe({ kinds: [1] }, { id: 'flaky', oneose: () => (eosed = true) });
      await until(() => eosed, 'EOSE after the retry');
      assert.equal(reqs, 2, 'the REQ went out again after the rate-limited CLOSED');
      assert.deepEqual(sub.closeReasons, []);
      sub.close();
      let reasons = null;
      const blocked = p.subscribe({ kinds: [1] }, { id: 'blocked', onclose: (r) => (reasons = r) });
      await until(() => reasons !== null, 'the blocked CLOSED');
      assert.equal(reasons[0].reason, 'blocked');
      assert.equal(reasons[0].relay, relay.url);
      assert.ok(blocked.closed);
      await assert.rejects(() => p.query({ kinds: [1] }, { id: 'blocked' }), { code: 'RELAY_CLOSED' });
    } finally {
      await p.close();
      await relay.close();
    }
  });

  it('a transient OK refusal is sent again after the core backoff, not at the publish deadline', async () => {
    // Each OK alone in its task: the single-frame path must arm the machine's retry deadline too
    // (with only the publish deadline armed, the resend waited for it and the publish was rejected).
    let events = 0;
    const relay = await startScriptedRelay((ws, msg) => {
      if (!Array.isArray(msg) || msg[0] !== 'EVENT') return;
      events++;
      ws.send(JSON.stringify(['OK', msg[1].id, events > 1, events > 1 ? '' : 'rate-limited: slow down']));
    });
    const p = pool({ relays: [relay.url], relayInfo: false, retry: { initialDelay: 30, maxDelay: 30, jitter: 0 } });
    try {
      const [r] = await p.publish(makeEvent(sk), { timeout: 60_000, retries: 1 });
      assert.equal(r.status, 'accepted', JSON.stringify(r));
      assert.equal(r.attempts, 2);
      assert.equal(events, 2);
    } finally {
      await p.close();
      await relay.close();
    }
  });

  it('every REQ and CLOSE on the wire is a frame of the codec; a dropped relay gets the REQ again with since', async () => {
    const frames = [];
    const stored = [makeEvent(sk, { created_at: 1_700_000_000, content: 'old' })];
    const relay = await startScriptedRelay((ws, msg) => {
      frames.push(msg);
      if (msg[0] !== 'REQ') return;
      for (const e of stored) ws.send(JSON.stringify(['EVENT', msg[1], e]));
      ws.send(JSON.stringify(['EOSE', msg[1]]));
    });
    const p = pool({ relays: [relay.url], relayInfo: false });
    try {
      const got = [];
      const sub = p.subscribe({ kinds: [1] }, { onevent: (e) => got.push(e.content) });
      await until(() => got.length === 1, 'the stored event');
      // The relay drops the connection: the pool reconnects and asks again from the newest
      // created_at seen, minus the core's overlap.
      for (const c of relay.clients) c.terminate();
      await until(() => frames.filter((f) => f[0] === 'REQ').length === 2, 'the REQ after the reconnect');
      const [first, again] = frames.filter((f) => f[0] === 'REQ');
      assert.equal(first[2].since, undefined);
      assert.equal(again[2].since, 1_700_000_000 - nostr.relayConstants().resubscribeOverlap);
      assert.deepEqual(got, ['old'], 'the overlap brings the event again; it is not delivered twice');
      sub.close();
      await until(() => frames.some((f) => f[0] === 'CLOSE'), 'CLOSE');
      const close = frames.find((f) => f[0] === 'CLOSE');
      assert.deepEqual(close, ['CLOSE', sub.id]);
      for (const f of frames) assert.equal(nostr.decodeClientMessage(JSON.stringify(f)).type, f[0]);
    } finally {
      await p.close();
      await relay.close();
    }
  });

  it('a delivered event is the core parse: no JSON.parse of the frame, text outside ASCII intact', async () => {
    const relay = await startDevRelay({ memory: true, rateLimit: false });
    const p = pool({ relays: [relay.url] });
    const events = [
      makeEvent(sk, { content: 'plain' }),
      makeEvent(sk, { content: 'Grüße, 日本語, 🎉🎉 and "quotes" \\ \n', tags: [['t', 'ünï'], ['e', '😀', 'wss://x']] }),
      makeEvent(sk, { content: '', tags: [] }),
    ];
    try {
      for (const e of events) assert.equal((await p.publish(e))[0].status, 'accepted');
      const parse = JSON.parse;
      let eventFrames = 0;
      JSON.parse = function (text, ...rest) {
        if (typeof text === 'string' && text.startsWith('["EVENT"')) eventFrames++;
        return parse.call(this, text, ...rest);
      };
      let got;
      try {
        got = await p.query({ authors: [events[0].pubkey] });
        const live = new Promise((resolve) => {
          const sub = p.subscribe({ ids: [events[1].id] }, { onevent: (e) => (sub.close(), resolve(e)) });
        });
        got.push(await live);
      } finally {
        JSON.parse = parse;
      }
      assert.equal(eventFrames, 0, 'the pool parsed no EVENT frame');
      assert.equal(got.length, 4);
      for (const e of got) {
        const sent = events.find((x) => x.id === e.id);
        const fields = (x) => ({ kind: x.kind, tags: x.tags, content: x.content, created_at: x.created_at, pubkey: x.pubkey, id: x.id, sig: x.sig });
        assert.deepEqual(fields(e), fields(sent));
        assert.deepEqual(Object.keys(e).sort(), Object.keys(fields(sent)).sort(), 'the seven NIP-01 fields only');
        assert.ok(nostr.verifyEvent(e));
      }
    } finally {
      await p.close();
      await relay.close();
    }
  });

  it('the relay constants are the core table', () => {
    const k = nostr.relayConstants();
    assert.equal(k.seenCap, 4096);
    assert.equal(k.resubscribeOverlap, 60);
    assert.equal(k.subscriptionRetries, 3);
    assert.deepEqual(k.reconnect, { initialDelay: 500, maxDelay: 30_000, factor: 2, jitter: 0.5, stableAfter: 5000 });
    assert.deepEqual(k.retry, { initialDelay: 250, maxDelay: 5000, factor: 2, jitter: 0.5 });
    assert.equal(k.probePrefix, 'ping:');
  });
});
