// AbortSignal options do what they say, at once. The pool here never fires its own timers (its
// `timers` option holds them), so a wait that only a timer would end never ends: a signal that
// is not honoured makes the test hang (and fail on its node:test timeout) instead of passing
// late. The relay is a real WebSocket server that answers nothing: no EOSE, no OK.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocketServer } from 'ws';
import { nostr } from './helpers.js';
import { startDevRelay } from '../support/relays.js';

const { LocalSigner, RelayPool, prompt, AgentError, NostrError } = nostr;

// Timers that never fire: maxWait, publish timeouts and backoffs wait forever.
const frozenTimers = { setTimeout: () => 0, clearTimeout: () => {} };

describe('AbortSignal, honoured before anything is sent', () => {
  let wss;
  let url;
  const frames = [];
  const waiters = [];
  const nextReq = () => new Promise((resolve) => waiters.push(resolve));
  const signer = LocalSigner.generate();
  const agent = LocalSigner.generate().publicKey;

  before(async () => {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => wss.on('listening', r));
    url = `ws://127.0.0.1:${wss.address().port}`;
    wss.on('connection', (ws) =>
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data));
        frames.push(msg[0]);
        if (msg[0] === 'REQ') for (const w of waiters.splice(0)) w(msg);
      }),
    );
  });
  after(async () => {
    for (const c of wss.clients) c.terminate();
    await new Promise((r) => wss.close(r));
    signer.dispose();
  });

  it('prompt: the signal aborting while the run waits for EOSE ends it with CANCELLED; the prompt is never sent', { timeout: 30_000 }, async () => {
    const pool = new RelayPool({ relays: [url], relayInfo: false, timers: frozenTimers });
    const unhandled = [];
    const onUnhandled = (e) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      frames.length = 0;
      const ac = new AbortController();
      const req = nextReq();
      const run = prompt({ pool, signer, agent, message: 'hello', signal: ac.signal });
      await req; // the run's subscription is on the relay, which never sends EOSE
      ac.abort();
      await assert.rejects(run.result, (e) => e instanceof AgentError && e.code === 'CANCELLED' && /before the prompt was sent/.test(e.message));
      assert.equal(await run.sent, false);
      assert.equal(run.done, true);
      const updates = [];
      for await (const u of run) updates.push(u);
      assert.deepEqual(updates.map((u) => [u.type, u.ok, u.error?.code]), [['terminal', false, 'CANCELLED']]);
      assert.ok(!frames.includes('EVENT'), `nothing published: ${frames}`);
      assert.equal(await run.cancel(), false, 'cancelled already');
    } finally {
      await pool.close();
      process.off('unhandledRejection', onUnhandled);
    }
    assert.deepEqual(unhandled, []);
  });

  it('prompt: cancel() in the same phase, and an aborted ai.info lookup (privacy auto), end the run at once', { timeout: 30_000 }, async () => {
    const pool = new RelayPool({ relays: [url], relayInfo: false, timers: frozenTimers });
    try {
      frames.length = 0;
      let req = nextReq();
      const run = prompt({ pool, signer, agent, message: 'hello' });
      await req;
      assert.equal(await run.cancel(), false, 'no ai.cancel: the prompt never went out');
      await assert.rejects(run.result, { code: 'CANCELLED' });

      const ac = new AbortController();
      req = nextReq();
      const auto = prompt({ pool, signer, agent, message: 'hello', privacy: 'auto', signal: ac.signal });
      const [, , filter] = await req; // the ai.info query, which never ends by itself here
      assert.deepEqual(filter.kinds, [nostr.nipxx.KINDS.info]);
      assert.equal(auto.privacy, null, 'still reading ai.info');
      ac.abort();
      await assert.rejects(auto.result, (e) => e instanceof AgentError && e.code === 'CANCELLED');
      assert.ok(!frames.includes('EVENT'), `nothing published: ${frames}`);
    } finally {
      await pool.close();
    }
  });

  it('ensureRelay: an aborted signal is ABORTED, also for a relay that is already open (as publish)', { timeout: 30_000 }, async () => {
    const relay = await startDevRelay({ memory: true });
    const pool = new RelayPool({ relays: [relay.url], relayInfo: false });
    try {
      assert.equal((await pool.ensureRelay(relay.url)).state, 'open');
      const ac = new AbortController();
      ac.abort();
      await assert.rejects(pool.ensureRelay(relay.url, { signal: ac.signal }), (e) => e instanceof NostrError && e.code === 'ABORTED');
      const ev = nostr.finalizeEvent({ kind: 1, content: 'x', tags: [], created_at: Math.floor(Date.now() / 1000) }, nostr.generateSecretKey());
      await assert.rejects(pool.publish(ev, { signal: ac.signal }), { code: 'ABORTED' });
      // and a signal aborting while it connects (to a relay that accepts nothing)
      const ac2 = new AbortController();
      const p = pool.ensureRelay('ws://127.0.0.1:9', { signal: ac2.signal, timeout: 60_000 });
      ac2.abort();
      await assert.rejects(p, { code: 'ABORTED' });
    } finally {
      await pool.close();
      await relay.close();
    }
  });
});
