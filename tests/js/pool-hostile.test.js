// Relays that misbehave: silent (timeouts, not hangs), hostile (typed drops, nothing wrong
// delivered, the pool stays usable), dead (per-relay outcomes); connections lost mid-publish;
// the WebSocket class injected; close() leaving nothing behind.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import {
  nostr,
  RELAYS,
  pool,
  makeEvent,
  until,
  sleep,
  deadPort,
  startSilentRelay,
  startScriptedRelay,
} from './pool-helpers.js';
import { startDevRelay } from '../support/relays.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('a relay that never answers', () => {
  it('publish times out, subscriptions end their wait, the dead link is detected by ping', async () => {
    const silent = await startSilentRelay();
    // The ping fires only after the publish has timed out, so a loaded machine cannot turn the
    // publish's 'timeout' into 'unreachable' (a dropped link backing off at the deadline).
    const p = pool({ relays: [silent.url], publishTimeout: 400, ping: { interval: 900, timeout: 300 } });
    const states = [];
    p.on('status', (s) => states.push(s));
    try {
      const t0 = Date.now();
      const [r] = await p.publish(makeEvent(nostr.generateSecretKey()));
      assert.equal(r.status, 'timeout');
      assert.equal(r.error.code, 'RELAY_TIMEOUT');
      assert.ok(r.attempts >= 1); // sent again if the ping dropped the connection meanwhile
      // publishTimeout applied, not the 10 s default (the margin is for a loaded machine).
      assert.ok(Date.now() - t0 < 5000, `${Date.now() - t0} ms`);

      let eose = false;
      p.subscribe({ kinds: [1] }, { maxWait: 200, oneose: () => (eose = true) });
      await until(() => eose, 'oneose after maxWait', 2000);
      assert.deepEqual(await p.query({ kinds: [1] }, { maxWait: 100 }), []);

      // No pong: the connection is dropped and tried again.
      await until(() => states.some((s) => s.state === 'backing-off'), 'the ping to fail', 3000);
      const dropped = states.find((s) => s.state === 'backing-off');
      assert.equal(dropped.error.code, 'RELAY_TIMEOUT');
      assert.match(dropped.error.message, /ping/);
    } finally {
      await p.close();
      await silent.close();
    }
  });

  it('a server that accepts TCP and never completes the handshake: connect timeout, unreachable', async () => {
    const silent = await startSilentRelay({ mode: 'tcp' });
    const p = pool({ relays: [silent.url], connectTimeout: 200, publishTimeout: 700, relayInfo: false });
    try {
      await assert.rejects(p.ensureRelay(silent.url, { timeout: 300 }), { code: 'RELAY_UNREACHABLE' });
      const [r] = await p.publish(makeEvent(nostr.generateSecretKey()));
      assert.equal(r.status, 'unreachable');
      assert.equal(r.error.code, 'RELAY_UNREACHABLE');
      assert.match(r.error.message, /no connection within 200 ms/);
      assert.equal(r.attempts, 0);
    } finally {
      await p.close();
      await silent.close();
    }
  });
});

describe('a hostile relay', () => {
  it('malformed, oversized, non-matching, badly signed, unknown: typed drops, only the good event delivered', async () => {
    const sk = nostr.generateSecretKey();
    const good = makeEvent(sk, { content: 'good' });
    const good2 = makeEvent(sk, { content: 'good 2' });
    const nonMatching = makeEvent(sk, { kind: 7, content: '+' });
    const forged = { ...makeEvent(sk, { content: 'forged' }), sig: good.sig };
    const tampered = { ...good, content: 'evil' }; // good's id, other content
    const junk = { id: 'zz', kind: 1 };
    let reqs = 0;
    const hostile = await startScriptedRelay((ws, msg) => {
      if (!Array.isArray(msg)) return;
      if (msg[0] === 'EVENT') ws.send(JSON.stringify(['OK', msg[1].id, true, '']));
      if (msg[0] !== 'REQ') return;
      const sub = msg[1];
      if (++reqs > 1) {
        ws.send(JSON.stringify(['EVENT', sub, good2]));
        ws.send(JSON.stringify(['EOSE', sub]));
        return;
      }
      ws.send('not json at all');
      ws.send('["EVENT"]');
      ws.send(Buffer.from('binary'), { binary: true });
      ws.send(JSON.stringify(['EVENT', sub, junk]));
      ws.send(JSON.stringify(['EVENT', sub, { ...good, content: 'x'.repeat(300_000) }])); // over maxFrameBytes
      ws.send(JSON.stringify(['EVENT', sub, { ...good, content: 'é'.repeat(70_000) }])); // over it in bytes only
      ws.send(JSON.stringify(['EVENT', sub, nonMatching]));
      ws.send(JSON.stringify(['EVENT', sub, forged]));
      ws.send(JSON.stringify(['EVENT', sub, tampered]));
      ws.send(JSON.stringify(['EVENT', 'nobody', good]));
      ws.send(JSON.stringify(['OK', 'not-an-id', true, '']));
      ws.send(JSON.stringify(['NOTICE', 'you have been warned']));
      ws.send(JSON.stringify(['EVENT', sub, good]));
      ws.send(JSON.stringify(['EVENT', sub, good]));
      ws.send(JSON.stringify(['EOSE', sub]));
    });
    const p = pool({ relays: [hostile.url], maxFrameBytes: 128 * 1024 });
    const drops = [];
    const notices = [];
    p.on('drop', (d) => drops.push(d));
    p.on('notice', (n) => notices.push(n.message));
    try {
      const got = [];
      let eose = false;
      p.subscribe({ kinds: [1], authors: [nostr.getPublicKey(sk)] }, { onevent: (e) => got.push(e), oneose: () => (eose = true) });
      await until(() => eose, 'EOSE');
      assert.deepEqual(got.map((e) => e.id), [good.id]);
      assert.equal(got[0].content, 'good');
      const codes = drops.map((d) => `${d.reason}/${d.code}`);
      assert.deepEqual(codes, [
        'malformed/RELAY_FRAME_INVALID',
        'malformed/RELAY_FRAME_ARITY',
        'malformed/RELAY_FRAME_INVALID', // binary
        'malformed/INVALID_EVENT',
        'malformed/RELAY_FRAME_TOO_LARGE',
        'malformed/RELAY_FRAME_TOO_LARGE',
        'not-matching/RELAY_EVENT_NOT_MATCHING',
        'bad-signature/INVALID_SIGNATURE',
        'bad-signature/ID_MISMATCH',
        'unknown-subscription/RELAY_SUBSCRIPTION_UNKNOWN',
        'malformed/RELAY_FRAME_TYPE', // OK with a bad id
        'duplicate/RELAY_EVENT_DUPLICATE',
      ]);
      assert.equal(drops[7].eventId, forged.id);
      assert.deepEqual(notices, ['you have been warned']);
      assert.equal(p.stats.delivered, 1);

      // Still usable: publishing and another subscription work.
      const [r] = await p.publish(makeEvent(sk, { content: 'hello hostile' }));
      assert.equal(r.status, 'accepted');
      const again = await p.query({ kinds: [1] });
      assert.deepEqual(again.map((e) => e.id), [good2.id]);
      assert.equal(p.status(hostile.url).state, 'open');
    } finally {
      await p.close();
      await hostile.close();
    }
  });

  it('a connection lost before the OK: the publish waits for the reconnect and sends again', async () => {
    let events = 0;
    const relay = await startScriptedRelay((ws, msg) => {
      if (!Array.isArray(msg) || msg[0] !== 'EVENT') return;
      if (++events === 1) ws.terminate();
      else ws.send(JSON.stringify(['OK', msg[1].id, false, 'duplicate: got it the first time']));
    });
    const p = pool({ relays: [relay.url], relayInfo: false });
    try {
      const [r] = await p.publish(makeEvent(nostr.generateSecretKey()));
      assert.equal(r.status, 'accepted', JSON.stringify(r));
      assert.equal(r.attempts, 2);
      assert.equal(r.reason, 'duplicate');
    } finally {
      await p.close();
      await relay.close();
    }
  });
});

describe('three relays, one dead', () => {
  it('publish resolves per relay; the subscription reaches EOSE without the dead one', async () => {
    const dev = await startDevRelay({ memory: true });
    const third = await RELAYS[1][1]();
    const dead = `ws://127.0.0.1:${await deadPort()}`;
    const p = pool({ relays: [dev.url, third.url, dead], publishTimeout: 1500 });
    try {
      const sk = nostr.generateSecretKey();
      const e = makeEvent(sk);
      const seen = [];
      const t0 = Date.now();
      const outcomes = await p.publish(e, { onresult: (r) => seen.push(r.status) });
      assert.deepEqual(
        outcomes.map((o) => [o.relay, o.status]),
        [[dev.url, 'accepted'], [third.url, 'accepted'], [dead, 'unreachable']],
      );
      assert.equal(outcomes[2].error.code, 'RELAY_UNREACHABLE');
      assert.deepEqual(seen, ['accepted', 'accepted', 'unreachable'], 'onresult as each settles');
      assert.ok(Date.now() - t0 < 4000);

      const got = await p.query({ ids: [e.id] });
      assert.deepEqual(got.map((x) => x.id), [e.id], 'once, though two relays sent it');
      assert.ok(p.stats.dropped.duplicate >= 1);
      assert.equal(p.status(dead).state, 'closed');
    } finally {
      await p.close();
      await dev.close();
      await third.close();
    }
  });
});

describe('WebSocket selection', () => {
  it('an injected class is used; without ping() the pool probes liveness with a REQ', async () => {
    let constructed = 0;
    // A browser-shaped WebSocket: onopen/onmessage/onclose/onerror, send, close; no ping().
    class BrowserLikeWebSocket {
      constructor(url) {
        constructed++;
        this._ws = new WebSocket(url);
        for (const type of ['open', 'message', 'close', 'error']) this._ws.addEventListener(type, (e) => this[`on${type}`]?.(e));
      }
      get readyState() {
        return this._ws.readyState;
      }
      send(data) {
        this._ws.send(data);
      }
      close() {
        this._ws.close();
      }
    }
    const relay = await startDevRelay({ memory: true });
    const silent = await startSilentRelay();
    const p = pool({ relays: [relay.url], WebSocket: BrowserLikeWebSocket, ping: { interval: 60, timeout: 200 } });
    const states = [];
    const errors = [];
    p.on('status', (s) => {
      states.push(`${s.relay === relay.url ? 'dev' : 'silent'}:${s.state}`);
      if (s.error) errors.push(s.error);
    });
    const drops = [];
    p.on('drop', (d) => drops.push(d));
    try {
      await p.ensureRelay(relay.url);
      await sleep(400); // several probes, each answered by EOSE and closed
      assert.equal(p.status(relay.url).state, 'open');
      assert.deepEqual(states, ['dev:connecting', 'dev:open']);
      assert.deepEqual(drops, []);
      assert.ok(constructed >= 1);
      assert.ok(p.stats.frames >= 3, 'probes were answered');

      await p.ensureRelay(silent.url);
      // Nothing needs that relay after ensureRelay(): it is dropped and not tried again.
      await until(() => states.includes('silent:closed'), 'the probe to go unanswered', 3000);
      assert.match(errors.at(-1).message, /no answer to ping/);
    } finally {
      await p.close();
      await relay.close();
      await silent.close();
    }
  });
});

describe('status and close', () => {
  it('reconnect: false stops after the first failure; backing-off carries the next attempt time', async () => {
    const dead = `ws://127.0.0.1:${await deadPort()}`;
    const once = pool({ relays: [dead], reconnect: false, publishTimeout: 2000 });
    const states = [];
    once.on('status', (s) => states.push(s.state));
    try {
      const [r] = await once.publish(makeEvent(nostr.generateSecretKey()));
      assert.equal(r.status, 'unreachable');
      assert.deepEqual(states, ['connecting', 'closed']);
    } finally {
      await once.close();
    }
    const again = pool({ relays: [dead], reconnect: { initialDelay: 100, maxDelay: 100, jitter: 0 } });
    const seen = [];
    again.on('status', (s) => seen.push({ ...s, seenAt: Date.now() }));
    try {
      again.subscribe({ kinds: [1] });
      await until(() => seen.filter((s) => s.state === 'backing-off').length >= 2, 'two backoffs');
      const b = seen.find((s) => s.state === 'backing-off');
      assert.equal(b.error.code, 'RELAY_UNREACHABLE');
      // The next attempt is announced about one delay (100 ms, no jitter) after the status event;
      // measured against the event's own arrival time, so a loaded machine cannot skew it.
      assert.ok(b.nextAttemptAt >= b.seenAt - 50 && b.nextAttemptAt <= b.seenAt + 200, `${b.nextAttemptAt - b.seenAt} ms`);
    } finally {
      await again.close();
    }
    assert.equal(seen.at(-1).state, 'closed');
  });

  it('backoff is exponential, capped and jittered through the injected random, on injected timers', async () => {
    const dead = `ws://127.0.0.1:${await deadPort()}`;
    let now = 1_000_000;
    const timers = [];
    const fake = {
      setTimeout: (fn, ms) => {
        const t = { fn, at: now + ms };
        timers.push(t);
        return t;
      },
      clearTimeout: (t) => {
        const i = timers.indexOf(t);
        if (i >= 0) timers.splice(i, 1);
      },
    };
    const p = new nostr.RelayPool({
      relays: [dead],
      timers: fake,
      now: () => now,
      random: () => 0.5,
      relayInfo: false,
      reconnect: { initialDelay: 100, maxDelay: 400, factor: 2, jitter: 0.5 },
    });
    const delays = [];
    p.on('status', (s) => s.state === 'backing-off' && delays.push(s.nextAttemptAt - now));
    try {
      p.subscribe({ kinds: [1] });
      for (let i = 1; i <= 4; i++) {
        await until(() => delays.length === i, `backoff ${i}`);
        // Only the reconnect timer is pending (the connect timeout was cleared by the failure).
        assert.equal(timers.length, 1);
        const [t] = timers.splice(0, 1);
        now = t.at;
        t.fn();
      }
      // min(400, 100 * 2^n), minus jitter 0.5 * random 0.5 = a quarter off.
      assert.deepEqual(delays, [75, 150, 300, 300]);
    } finally {
      await p.close();
    }
    assert.deepEqual(timers, [], 'close() cleared the injected timers');
  });

  it('close() settles everything and leaves no timer or socket: the process exits by itself', async () => {
    const relay = await startDevRelay({ memory: true });
    const dead = `ws://127.0.0.1:${await deadPort()}`;
    const script = `
      import * as n from 'nostr-agents';
      await n.init();
      const p = new n.RelayPool({ relays: [process.env.LIVE, process.env.DEAD],
        reconnect: { initialDelay: 30, maxDelay: 60 }, ping: { interval: 50, timeout: 50 } });
      const sub = p.subscribe({ kinds: [1], authors: ['0'.repeat(64)] });
      const next = sub[Symbol.asyncIterator]().next();
      const sk = n.generateSecretKey();
      const ev = n.finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: 'x' }, sk);
      const pub = p.publish(ev, { timeout: 60000 });
      await p.ensureRelay(process.env.LIVE);
      await new Promise((r) => setTimeout(r, 300));
      const statesBefore = p.status().map((s) => s.state);
      await p.close();
      const outcomes = (await pub).map((o) => o.status + (o.error ? ':' + o.error.code : ''));
      const done = (await next).done;
      const resources = process.getActiveResourcesInfo().filter((r) => r !== 'PipeWrap' && r !== 'TTYWrap');
      console.log(JSON.stringify({ statesBefore, outcomes, done, resources }));
    `;
    try {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        cwd: ROOT,
        env: { ...process.env, LIVE: relay.url, DEAD: dead },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const t0 = Date.now();
      const code = await new Promise((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.on('exit', (c, sig) => {
          clearTimeout(kill);
          resolve(sig ?? c);
        });
      });
      assert.equal(code, 0, `child exit ${code}: ${err}`);
      const r = JSON.parse(out.trim().split('\n').at(-1));
      // The dead relay is in its reconnect cycle (30-60 ms backoffs): between two tries or in one.
      assert.equal(r.statesBefore[0], 'open');
      assert.ok(['backing-off', 'connecting'].includes(r.statesBefore[1]), JSON.stringify(r.statesBefore));
      assert.deepEqual(r.outcomes, ['accepted', 'aborted:POOL_CLOSED']);
      assert.equal(r.done, true);
      // Sockets being torn down may still be listed right after close(); timers may not.
      assert.ok(!r.resources.includes('Timeout'), JSON.stringify(r.resources));
      assert.ok(Date.now() - t0 < 8000, 'exited by itself');
    } finally {
      await relay.close();
    }
  });
});
