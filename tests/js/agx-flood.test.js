// Per-peer task flood limits (issue 8, section 2: "a peer flooding tasks"): the TaskGate's rules
// with a manual clock, then a serving agent over a real relay flooded by one peer while another is
// served: handler concurrency never above the limits, typed rejections on the wire (a failed
// result "rate-limited ..." / "overloaded ...", AGX_TASK_FAILED with err.rejected at the
// requester), every task answered (nothing accepted is dropped), the gate's memory bounded.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nostr } from './helpers.js';
import { until, useAgxRelay } from './agx-helpers.js';

const { agx, LocalSigner } = nostr;

describe('TaskGate (flood limits, manual clock)', () => {
  it('slots, per-peer slots, queue bounds, fair hand-out, token-bucket rate with retryAfter, tracked peers bounded', () => {
    const g = new agx.TaskGate({ maxConcurrent: 2, perPeerConcurrent: 1, maxQueued: 2, perPeerQueued: 1, perPeerRate: { count: 3, window: 30 }, maxTrackedPeers: 2 });
    assert.equal(g.offer('a', 100, 'a1'), 'run');
    assert.equal(g.offer('a', 100, 'a2'), 'queued'); // a holds its one slot
    assert.deepEqual(g.offer('a', 100, 'a3'), { rejected: 'overloaded' }); // a's queue place is taken
    assert.equal(g.offer('b', 100, 'b1'), 'run'); // another peer still gets a slot
    assert.equal(g.offer('b', 100, 'b2'), 'queued');
    assert.equal(g.running, 2);
    assert.equal(g.queued, 2);
    // a's slot frees: a's queued job (not b's: b is at its per-peer limit) takes it
    assert.deepEqual(g.release('a'), { peer: 'a', job: 'a2' });
    assert.deepEqual(g.release('b'), { peer: 'b', job: 'b2' });
    assert.equal(g.release('a'), null);
    assert.equal(g.release('b'), null);
    assert.equal(g.running, 0);
    // a used 2 of its 3 tokens (the overloaded one cost none): one more, then the rate
    assert.equal(g.offer('a', 100, 'a4'), 'run');
    assert.deepEqual(g.offer('a', 100, 'a5'), { rejected: 'rate-limited', retryAfter: 10 }); // 3 per 30 s: one per 10 s
    assert.equal(g.release('a'), null);
    assert.equal(g.offer('a', 110, 'a6'), 'run'); // refilled
    g.release('a');
    // admitted (a re-run after a restart): neither the rate nor a full queue refuses it
    assert.equal(g.offer('a', 110, 'r1', { admitted: true }), 'run');
    assert.equal(g.offer('a', 110, 'r2', { admitted: true }), 'queued');
    assert.equal(g.offer('a', 110, 'r3', { admitted: true }), 'queued');
    assert.deepEqual(g.clear().map((e) => e.job), ['r2', 'r3']);
    g.release('a');
    // a third peer: the stalest idle peer is forgotten
    assert.equal(g.offer('c', 120, 'c1'), 'run');
    assert.equal(g.trackedPeers, 2);
    assert.throws(() => new agx.TaskGate({ maxConcurrent: 0 }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new agx.TaskGate({ perPeerRate: { count: 1 } }), { code: 'INVALID_ARGUMENT' });
    assert.equal(new agx.TaskGate({ perPeerRate: null }).limits.perPeerRate, null);
    assert.throws(() => new agx.AgxClient({ signer: LocalSigner.generate(), relays: ['ws://127.0.0.1:1'], taskLimits: { maxQueued: -1 } }), { code: 'INVALID_ARGUMENT' });
  });
});

describe('a peer flooding tasks (real relay)', () => {
  const { client } = useAgxRelay();

  it('limits hold (handler concurrency never above them), typed rejections, every task answered, memory bounded, another peer still served', { timeout: 300_000 }, async () => {
    const limits = { maxConcurrent: 3, perPeerConcurrent: 2, maxQueued: 4, perPeerQueued: 2, perPeerRate: { count: 6, window: 3600 }, maxTrackedPeers: 2 };
    const store = new agx.MemorySeenStore();
    const bob = client({ authorize: 'accept-all', taskLimits: limits, seenStore: store });
    const mallory = client({ authorize: 'accept-all', requestTimeout: 120_000 });
    const alice = client({ authorize: 'accept-all', requestTimeout: 120_000 });
    const carol = client({ authorize: 'accept-all', requestTimeout: 120_000 });
    const running = new Map();
    let total = 0;
    let maxTotal = 0;
    const maxPer = new Map();
    let maxQueuedSeen = 0;
    let release;
    const held = new Promise((r) => (release = r));
    bob.handle('slow.op', async (p, ctx) => {
      total++;
      running.set(ctx.from, (running.get(ctx.from) ?? 0) + 1);
      maxTotal = Math.max(maxTotal, total);
      maxPer.set(ctx.from, Math.max(maxPer.get(ctx.from) ?? 0, running.get(ctx.from)));
      maxQueuedSeen = Math.max(maxQueuedSeen, bob.taskStats.queued);
      try {
        if (ctx.from === mallory.publicKey) await held; // mallory's tasks hold their slots until released
        return p;
      } finally {
        total--;
        running.set(ctx.from, running.get(ctx.from) - 1);
      }
    });
    await Promise.all([bob.start(), mallory.start(), alice.start(), carol.start()]);
    const outcome = (p) => p.then((v) => ({ ok: v }), (e) => ({ code: e.code, rejected: e.rejected, retryAfter: e.retryAfter }));

    // 1. mallory floods 16 tasks at once: 2 run, 2 wait, 12 are rejected as overloaded (typed, on the wire)
    const flood = Array.from({ length: 16 }, (_, i) => outcome(mallory.request(bob.publicKey, 'slow.op', { i })));
    await until(() => bob.taskStats.rejected.overloaded === 12 && bob.taskStats.queued === 2);
    assert.equal(bob.taskStats.running, 2);
    // 2. alice is served meanwhile (a global slot is left; mallory is at its per-peer limit)
    assert.deepEqual(await alice.request(bob.publicKey, 'slow.op', { a: 1 }), { a: 1 });
    // 3. released: mallory's four accepted tasks complete, none dropped
    release();
    const got = await Promise.all(flood);
    const done = got.filter((g) => g.ok);
    const over = got.filter((g) => g.rejected === 'overloaded');
    assert.equal(done.length, 4, 'the accepted ones complete');
    assert.equal(over.length, 12, 'the rest are rejected as overloaded');
    assert.ok(over.every((g) => g.code === 'AGX_TASK_FAILED'));
    // 4. mallory's rate: 6 tokens per hour, 4 spent; of 4 more, 2 run and 2 are rate-limited with a retry time
    const more = await Promise.all(Array.from({ length: 4 }, (_, i) => outcome(mallory.request(bob.publicKey, 'slow.op', { j: i }))));
    assert.equal(more.filter((g) => g.ok).length, 2);
    const limited = more.filter((g) => g.rejected === 'rate-limited');
    assert.equal(limited.length, 2);
    assert.ok(limited.every((g) => g.code === 'AGX_TASK_FAILED' && g.retryAfter >= 1 && g.retryAfter <= 600));
    // 5. a third peer is still served, and the gate tracks at most maxTrackedPeers idle peers
    assert.deepEqual(await carol.request(bob.publicKey, 'slow.op', { c: 1 }), { c: 1 });
    const s = bob.taskStats;
    assert.ok(s.trackedPeers <= 2, `tracked peers bounded (${s.trackedPeers})`);
    assert.equal(s.running + s.queued, 0);
    assert.deepEqual(s.rejected, { 'rate-limited': 2, overloaded: 12 });
    assert.ok(maxTotal <= 3, `handlers at once: ${maxTotal}`);
    assert.ok(maxPer.get(mallory.publicKey) <= 2, `mallory's handlers at once: ${maxPer.get(mallory.publicKey)}`);
    assert.equal(maxPer.get(mallory.publicKey), 2, 'the flood did fill its per-peer slots');
    assert.ok(maxQueuedSeen <= 4);
    await until(() => store.taskCount === 0); // every accepted task answered, its record gone; no rejected one recorded
  });
});
