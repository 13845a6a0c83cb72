// Exactly-once task results across crashes (issue 8, section 2): the seen stores' task records
// (accepted with the request's wrap, done with the result's wrap), the previous on-disk format
// still read, and a serving agent "crashed" in process by starting a second one on a copy of its
// store taken at the crash point: the task runs again (ctx.redelivered) or its recorded result is
// published again, and the requester resolves exactly one result per task id. The real SIGKILL
// runs are in faults-agx.test.js.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nostr } from './helpers.js';
import { sleep, until, useAgxRelay } from './agx-helpers.js';

const { agx, LocalSigner } = nostr;

const nowS = () => Math.floor(Date.now() / 1000);
const hex = (c) => c.repeat(64);

/** A copy of a store's durable state (what a crash would leave on disk). */
async function copyOf(store) {
  const snap = await store.load();
  const c = new agx.MemorySeenStore();
  await c.append(snap.entries);
  if (snap.cursor !== null) await c.setCursor(snap.cursor);
  for (const r of snap.tasks) await c.putTask(r);
  return c;
}

/**
 * A store over a MemorySeenStore whose first putTask of a record in `state` copies the durable
 * state (`crash.copy`: what the crash leaves on disk) and then never returns: the crash point.
 * `crash.unhang()` lets the "dead" process go on.
 */
function storeCrashingAt(state) {
  const inner = new agx.MemorySeenStore();
  let unhang;
  const hang = new Promise((r) => (unhang = r));
  const crash = {
    copy: null,
    unhang: () => unhang(),
    load: () => inner.load(),
    append: (e) => inner.append(e),
    setCursor: (c) => inner.setCursor(c),
    deleteTask: (id) => inner.deleteTask(id),
    async putTask(r) {
      await inner.putTask(r);
      if (r.state !== state || crash.copy) return;
      crash.copy = await copyOf(inner);
      await hang;
    },
  };
  return crash;
}

describe('seen stores: task records', () => {
  let dir;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'agx-once-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const exp = () => nowS() + 1000;
  const accepted = (c) => ({ id: hex(c), state: 'accepted', wrap: { id: hex('e'), kind: 1059 }, to: hex('f'), runs: 1, expiresAt: exp() });

  it('MemorySeenStore: put, replace, delete, expired left out, copies not shared, bad records refused', async () => {
    const s = new agx.MemorySeenStore();
    const a = accepted('a');
    await s.putTask(a);
    a.runs = 99; // the store kept its own copy
    await s.putTask({ ...accepted('b'), state: 'done', result: { id: hex('d') } });
    await s.putTask({ ...accepted('c'), expiresAt: nowS() - 1 });
    await s.deleteTask(hex('b'));
    const { tasks } = await s.load();
    assert.deepEqual(tasks.map((t) => [t.id[0], t.runs]), [['a', 1]]);
    assert.equal(s.taskCount, 1);
    await assert.rejects(s.putTask({ ...accepted('a'), state: 'done' }), { code: 'INVALID_ARGUMENT' }); // done needs its result
    await assert.rejects(s.putTask({ ...accepted('a'), state: 'running' }), { code: 'INVALID_ARGUMENT' });
    await assert.rejects(s.deleteTask('xyz'), { code: 'INVALID_ARGUMENT' });
  });

  it('FileSeenStore: records survive a reload and a compaction (snapshot v2); files written by the previous version (v1) load', async () => {
    // the previous version's files: a v1 snapshot and a log of seen entries and cursor moves
    const d = path.join(dir, 'old');
    mkdirSync(d, { recursive: true, mode: 0o700 });
    const e = exp();
    writeFileSync(path.join(d, 'seen.json'), JSON.stringify({ v: 1, cursor: 5, seen: [[hex('1'), e]] }), { mode: 0o600 });
    writeFileSync(path.join(d, 'seen.log'), `${JSON.stringify({ s: [[hex('2'), e]] })}\n${JSON.stringify({ c: 9 })}\n`, { mode: 0o600 });
    const a = new agx.FileSeenStore(d, { compactEvery: 3 });
    const got = await a.load();
    assert.deepEqual(got.entries.sort(), [[hex('1'), e], [hex('2'), e]]);
    assert.equal(got.cursor, 9);
    assert.deepEqual(got.tasks, []);
    // task records in the log
    await a.putTask(accepted('a'));
    await a.putTask({ ...accepted('b'), state: 'done', result: { id: hex('d') } });
    await a.close();
    const b = new agx.FileSeenStore(d, { compactEvery: 3 });
    assert.deepEqual((await b.load()).tasks.map((t) => [t.id[0], t.state]).sort(), [['a', 'accepted'], ['b', 'done']]);
    // a done result published: deleted; then a compaction writes them into the snapshot
    await b.deleteTask(hex('b'));
    await b.putTask({ ...accepted('a'), runs: 2 });
    await b.putTask(accepted('c')); // the third line: compacted
    assert.equal(readFileSync(path.join(d, 'seen.log'), 'utf8'), '', 'compacted');
    const snap = JSON.parse(readFileSync(path.join(d, 'seen.json'), 'utf8'));
    assert.equal(snap.v, 2);
    assert.deepEqual(snap.tasks.map((t) => [t.id[0], t.runs]).sort(), [['a', 2], ['c', 1]]);
    await b.append([[hex('3'), e]]);
    await b.close();
    const c = new agx.FileSeenStore(d);
    const last = await c.load();
    assert.deepEqual(last.tasks.map((t) => t.id[0]).sort(), ['a', 'c']);
    assert.equal(last.entries.length, 3);
    await c.close();
  });
});

describe('a serving agent cut short (a copy of its store at the crash point), over a real relay', () => {
  const env = useAgxRelay();
  const { stops } = env;

  /** An AgxClient (accept-all) that keeps its onError reports in c.errors. */
  function client(opts = {}) {
    const errors = [];
    const c = env.client({ onError: (e) => errors.push(e), authorize: 'accept-all', ...opts });
    c.errors = errors;
    return c;
  }

  it('cut short mid-handler: the task runs again with ctx.redelivered, the requester resolves once and drops the late second result', { timeout: 120_000 }, async () => {
    const sk = nostr.generateSecretKey();
    const store1 = new agx.MemorySeenStore();
    let crashStore;
    let release;
    const held = new Promise((r) => (release = r));
    const bob1 = client({ signer: new LocalSigner(sk), seenStore: store1 });
    stops.push(async () => release()); // runs before bob1's stop, even when an assertion failed
    bob1.handle('job.do', async (p, ctx) => {
      assert.equal(ctx.redelivered, false);
      crashStore = await copyOf(store1); // the crash point: the task is recorded accepted
      await held;
      return { by: 'bob1', ...p };
    });
    const alice = client({ signer: LocalSigner.generate(), requestTimeout: 60_000 });
    await Promise.all([bob1.start(), alice.start()]);
    const result = alice.request(bob1.publicKey, 'job.do', { n: 7 });
    await until(() => crashStore);
    assert.deepEqual((await crashStore.load()).tasks.map((t) => t.state), ['accepted']);
    // the restarted agent (same key) on what the crash left
    const seen = [];
    const bob2 = client({ signer: new LocalSigner(sk), seenStore: crashStore });
    bob2.handle('job.do', (p, ctx) => (seen.push(ctx.redelivered), { by: 'bob2', ...p }));
    await bob2.start();
    assert.deepEqual(await result, { by: 'bob2', n: 7 });
    assert.deepEqual(seen, [true], 'run again once, flagged');
    assert.equal(bob2.taskStats.reruns, 1);
    await until(() => crashStore.taskCount === 0); // published: the record goes
    // the first process was not really dead: its late result (another rumor) is dropped by alice
    release();
    await until(() => alice.taskStats.duplicateResults === 1);
    await bob2.poll();
    assert.deepEqual(seen, [true], 'the request was not accepted again from the wire');
  });

  it('a task cut short maxTaskRuns times is answered "handler failed" instead of run again', { timeout: 120_000 }, async () => {
    const sk = nostr.generateSecretKey();
    const store1 = new agx.MemorySeenStore();
    let crashStore;
    let release;
    const held = new Promise((r) => (release = r));
    const bob1 = client({ signer: new LocalSigner(sk), seenStore: store1 });
    stops.push(async () => release());
    bob1.handle('job.do', async () => {
      crashStore = await copyOf(store1);
      await held;
      return 'late';
    });
    const alice = client({ signer: LocalSigner.generate(), requestTimeout: 60_000 });
    await Promise.all([bob1.start(), alice.start()]);
    const result = alice.request(bob1.publicKey, 'job.do', 0);
    result.catch(() => {});
    await until(() => crashStore);
    const [rec] = (await crashStore.load()).tasks;
    await crashStore.putTask({ ...rec, runs: 2 }); // cut short twice already
    const warnings = [];
    const calls = [];
    const bob2 = client({ signer: new LocalSigner(sk), seenStore: crashStore, maxTaskRuns: 2, onWarning: (w) => warnings.push(w) });
    bob2.handle('job.do', () => calls.push(1));
    await bob2.start();
    await assert.rejects(result, (e) => e.code === 'AGX_TASK_FAILED' && e.result.error === 'handler failed' && e.rejected === undefined);
    assert.deepEqual(calls, []);
    assert.match(warnings.join('\n'), /cut short 2 times/);
    await until(() => crashStore.taskCount === 0);
  });

  it('cut short between the task record and the seen marks: run again once, and never accepted again from the wire after its record is gone', { timeout: 120_000 }, async () => {
    const sk = nostr.generateSecretKey();
    // putTask(accepted) makes the copy (the marks are not written yet) and never returns: the crash
    const crashing = storeCrashingAt('accepted');
    const bob1 = client({ signer: new LocalSigner(sk), seenStore: crashing });
    stops.push(async () => crashing.unhang());
    bob1.handle('job.do', () => 'never');
    const alice = client({ signer: LocalSigner.generate(), requestTimeout: 60_000 });
    await Promise.all([bob1.start(), alice.start()]);
    const result = alice.request(bob1.publicKey, 'job.do', 1);
    await until(() => crashing.copy);
    const runs = [];
    const restart = async () => {
      const b = client({ signer: new LocalSigner(sk), seenStore: crashing.copy });
      b.handle('job.do', (p, ctx) => (runs.push(ctx.redelivered), p + 1));
      await b.start();
      return b;
    };
    const bob2 = await restart();
    assert.equal(await result, 2);
    await until(() => crashing.copy.taskCount === 0);
    await bob2.stop();
    const bob3 = await restart(); // polls the relay again: the request is still there
    await bob3.poll();
    assert.deepEqual(runs, [true], 'run once after the crash, and not again');
    crashing.unhang();
  });

  it('cut short after the result was recorded, before it was published: the same result event is published at restart', { timeout: 120_000 }, async () => {
    const sk = nostr.generateSecretKey();
    // putTask(done) makes the copy and then never returns: the crash between the record and the publish
    const crashing = storeCrashingAt('done');
    const runs = [];
    const bob1 = client({ signer: new LocalSigner(sk), seenStore: crashing });
    stops.push(async () => crashing.unhang());
    bob1.handle('job.do', (p) => (runs.push(1), { ok: p }));
    const alice = client({ signer: LocalSigner.generate(), requestTimeout: 60_000 });
    await Promise.all([bob1.start(), alice.start()]);
    const result = alice.request(bob1.publicKey, 'job.do', 'x');
    await until(() => crashing.copy);
    const recorded = (await crashing.copy.load()).tasks;
    assert.deepEqual(recorded.map((t) => t.state), ['done']);
    const bob2 = client({ signer: new LocalSigner(sk), seenStore: crashing.copy });
    bob2.handle('job.do', (p) => (runs.push(2), { ok: p }));
    await bob2.start();
    assert.deepEqual(await result, { ok: 'x' });
    assert.equal(bob2.taskStats.republished, 1);
    assert.deepEqual(runs, [1], 'not run again: its result was recorded');
    await until(() => crashing.copy.taskCount === 0);
    // the first process publishes the same event: a replay for alice, not a second result
    crashing.unhang();
    await sleep(500);
    assert.equal(alice.taskStats.duplicateResults, 0);
  });
});
