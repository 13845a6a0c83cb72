// FAULTS for AGX tasks (issue 8, section 2): tasks sent through a real dev relay to a serving
// agent that is a real child process (tests/js/agx-child.mjs, FileSeenStore), while the agent is
// SIGKILLed and restarted (between tasks, and in the middle of tasks) and the relay is killed and
// restarted. Every task id gets exactly one result at the requester, with its own output; none is
// lost; each is accepted from the wire once (the child logs each handler start, synchronously),
// and only a task whose handler was running at a SIGKILL runs again after the restart (logged as
// a re-run: ctx.redelivered).
//
// The task count: NOSTR_FAULT_TASKS, default 120; `NOSTR_FAULT_TASKS=1000 node --test
// tests/js/faults-agx.test.js` is the issue's full 1,000 (several minutes: see docs/security.md,
// "Faults and load"). Why not 1,000 by default: every AGX wrap carries 12 bits of proof of work
// over the whole serialized wrap, and the nonce tag comes before the ~1.5 KB content, so each of
// the ~4,096 expected attempts re-hashes the content: ~40 ms of CPU per wrap in WASM, three wraps
// per task (request, receipt, result), ~120 ms of CPU per task across the two processes.
// Requests go out NOSTR_FAULT_IN_FLIGHT (default 10) at a time; the faults land at fixed
// fractions of the run. The in-flight test runs NOSTR_FAULT_TASKS tasks too (default 60), its
// handler taking NOSTR_FAULT_HANDLER_MS (default 150) so that a SIGKILL lands mid-task: the kill
// is sent as the child reports a handler starting.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nostr, sleep } from './helpers.js';
import { startDevRelay } from '../support/relays.js';

const { agx, LocalSigner, RelayPool } = nostr;
const CHILD = fileURLToPath(new URL('./agx-child.mjs', import.meta.url));
const TASKS = Number(process.env.NOSTR_FAULT_TASKS ?? 120);
const INFLIGHT_TASKS = Number(process.env.NOSTR_FAULT_TASKS ?? 60);
const IN_FLIGHT = Number(process.env.NOSTR_FAULT_IN_FLIGHT ?? 10);
const HANDLER_MS = Number(process.env.NOSTR_FAULT_HANDLER_MS ?? 150);
const REQUEST_TIMEOUT = Number(process.env.NOSTR_FAULT_TASK_TIMEOUT ?? 180_000);

describe('AGX tasks across restarts of the relay and of the serving agent', () => {
  let relay;
  let dir;
  const procs = new Set();

  before(async () => {
    relay = await startDevRelay();
    dir = mkdtempSync(path.join(tmpdir(), 'nostr-agents-faults-agx-'));
  });
  after(async () => {
    for (const c of procs) c.kill('SIGKILL');
    await relay.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** bob: the serving agent, a child process with a FileSeenStore; alice: the requester, here. */
  async function setup(name, { handlerMs = 0 } = {}) {
    const sk = nostr.generateSecretKey();
    const bobPk = nostr.getPublicKey(sk);
    const store = path.join(dir, name);
    const log = path.join(dir, `${name}.log`);
    writeFileSync(log, '');
    const env = { ...process.env, NOSTR_AGX_CHILD_DELAY: String(handlerMs) };
    const startBob = () =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [CHILD, relay.url, nostr.bytesToHex(sk), store, log], { stdio: ['ignore', 'pipe', 'inherit'], env });
        procs.add(child);
        child.on('exit', () => procs.delete(child));
        child.on('error', reject);
        child.stdout.on('data', (d) => d.toString().includes('ready') && resolve(child));
      });
    /** Resolves when `child` next reports a handler starting. */
    const handling = (child) =>
      new Promise((resolve) => {
        const on = (d) => {
          if (!d.toString().includes('handling')) return;
          child.stdout.off('data', on);
          resolve();
        };
        child.stdout.on('data', on);
      });
    /** The log: one {n, rerun} per handler start. */
    const entries = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => ({ n: Number(l.split(' ')[0]), rerun: l.endsWith(' r') }));
    const kills = [];
    /** SIGKILLs bob, noting which tasks were sent and which were answered by then. */
    const killBob = async (child) => {
      kills.push({ sent: new Set(sent), answered: new Set(results.keys()) });
      await kill(child);
    };
    const pool = new RelayPool({ relays: [relay.url], relayInfo: false, reconnect: { initialDelay: 50, maxDelay: 500 }, publishTimeout: 30_000 });
    const alice = new agx.AgxClient({ signer: LocalSigner.generate(), pool, authorize: 'accept-all', pollInterval: 0, onWarning: () => {} });
    await alice.start();
    const results = new Map();
    const failed = [];
    const duplicates = [];
    const sent = new Set();
    /**
     * Requests tasks [from, to), IN_FLIGHT at a time. faults: [[fraction, fn]]: fn runs once that
     * fraction of the batch is answered (a result arriving twice would resolve nothing twice: each
     * request() settles once, and alice counts the extra ones in taskStats.duplicateResults).
     */
    const batch = async (from, to, faults = []) => {
      let next = from;
      let answered = 0;
      const pending = [];
      const worker = async () => {
        while (next < to) {
          const n = next++;
          sent.add(n);
          try {
            const out = await alice.request(bobPk, 'count.me', { n }, { timeout: REQUEST_TIMEOUT });
            if (results.has(n)) duplicates.push(n);
            results.set(n, out);
          } catch (err) {
            failed.push({ n, code: err.code });
          }
          answered++;
          for (const f of faults) if (!f.done && answered >= Math.floor((to - from) * f[0])) (f.done = true), pending.push(f[1]());
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      await Promise.all(pending);
    };
    /**
     * Every task id has exactly one result, its own output; each task was accepted from the wire
     * once (at most one first run); a run again after a restart (ctx.redelivered) only for a task
     * that was sent and not answered when bob was SIGKILLed: one whose handler was cut short, or
     * one accepted and queued for a handler slot. Returns { reruns, cutShort }: runs after a
     * restart, and how many of them followed a handler start before the kill.
     */
    const check = async (count) => {
      const started = new Set(entries().map((e) => e.n));
      assert.deepEqual(failed.map((f) => ({ ...f, handled: started.has(f.n) })), [], 'no request failed');
      assert.deepEqual(duplicates, [], 'no task resolved twice');
      for (let n = 0; n < count; n++) assert.deepEqual(results.get(n), { n }, `task ${n} answered with its own output`);
      await sleep(500); // a task handled a second time (a replayed wrap) would be logged by now
      const firsts = new Map();
      const reruns = [];
      const handled = new Set();
      const acceptedAgain = [];
      for (const e of entries()) {
        if (e.rerun) reruns.push(e.n);
        else {
          // a first run after any run of the same task: accepted from the wire a second time
          if (handled.has(e.n)) acceptedAgain.push(e.n);
          firsts.set(e.n, (firsts.get(e.n) ?? 0) + 1);
        }
        handled.add(e.n);
      }
      assert.deepEqual(acceptedAgain, [], 'no task accepted twice');
      // bob publishes a result only once it is recorded: never two different results for a task
      assert.equal(alice.taskStats.duplicateResults, 0, 'no second result reached alice');
      assert.equal(handled.size, count, 'every task handled');
      const mayRerun = new Set(kills.flatMap((k) => [...k.sent].filter((n) => !k.answered.has(n))));
      assert.deepEqual(reruns.filter((n) => !mayRerun.has(n)), [], 'only tasks in flight at a SIGKILL run again');
      assert.ok(reruns.length <= kills.length * IN_FLIGHT, 'at most the tasks in flight at each kill run again');
      return { reruns: reruns.length, cutShort: reruns.filter((n) => firsts.has(n)).length };
    };
    const close = async () => {
      await alice.stop();
      await pool.close();
    };
    return { startBob, batch, check, close, handling, killBob, alice };
  }

  const kill = (child) =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
  const restartRelay = async () => {
    await relay.stop(); // every socket drops; the stored wraps are kept
    await sleep(300);
    await relay.restart();
  };

  it(`${TASKS} tasks, each processed exactly once, none lost: relay restarted with tasks in flight (3x), agent SIGKILLed between tasks and sent tasks while down (2x)`, { timeout: 3_600_000 }, async (tc) => {
    const t = await setup('bob');
    let bob = await t.startBob();
    try {
      const third = Math.floor(TASKS / 3);
      await t.batch(0, third, [[0.5, restartRelay]]);
      // SIGKILL (no task of its own in flight), then a batch sent while it is down.
      await t.killBob(bob);
      const second = t.batch(third, 2 * third, [[0.5, restartRelay]]);
      await sleep(300);
      bob = await t.startBob();
      await second;
      // Both down at once: the agent killed, the relay killed; tasks sent meanwhile.
      await t.killBob(bob);
      await relay.stop();
      const last = t.batch(2 * third, TASKS, [[0.5, restartRelay]]);
      await sleep(300);
      await relay.restart();
      bob = await t.startBob();
      await last;
      const { reruns } = await t.check(TASKS);
      assert.equal(reruns, 0, 'killed between tasks: nothing runs again');
      tc.diagnostic(`${TASKS} tasks, ${reruns} re-runs, duplicate results dropped by the requester: ${t.alice.taskStats.duplicateResults}`);
    } finally {
      await t.close();
      await kill(bob);
    }
  });

  // Exactly-once across a crash mid-task: bob records each accepted task (with its wrap) before its
  // handler runs and each result (with its wrap) before publishing it; at restart an accepted task
  // runs again (ctx.redelivered) and a done one is published again; alice resolves one result
  // per task id. The SIGKILLs land as the child reports a handler starting.
  it(`${INFLIGHT_TASKS} tasks, none lost, exactly one result each: the agent SIGKILLed mid-task (2x), the relay restarted with tasks in flight`, { timeout: 3_600_000 }, async (tc) => {
    const t = await setup('bob-inflight', { handlerMs: HANDLER_MS });
    let bob = await t.startBob();
    const killMidTask = async () => {
      await t.handling(bob); // a handler has just started: it is mid-task
      await t.killBob(bob);
      await sleep(200);
      bob = await t.startBob();
    };
    try {
      await t.batch(0, INFLIGHT_TASKS, [
        [0.25, killMidTask],
        [0.5, restartRelay],
        [0.75, killMidTask],
      ]);
      const { reruns, cutShort } = await t.check(INFLIGHT_TASKS);
      assert.ok(cutShort >= 2, 'each SIGKILL cut a running handler short, and that task ran again');
      tc.diagnostic(
        `${INFLIGHT_TASKS} tasks, 2 SIGKILLs mid-task: ${reruns} tasks run again after a restart (${cutShort} cut short mid-handler, ${reruns - cutShort} accepted and queued), duplicate results dropped by the requester: ${t.alice.taskStats.duplicateResults}`,
      );
    } finally {
      await t.close();
      await kill(bob);
    }
  });
});
