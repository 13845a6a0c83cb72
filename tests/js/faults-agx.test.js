// FAULTS for AGX tasks (issue 8, section 2): tasks sent through a real dev relay to a serving
// agent that is a real child process (tests/js/agx-child.mjs, FileSeenStore), while the agent is
// SIGKILLed and restarted and the relay is killed and restarted. Every task is answered, with its
// own output, and handled exactly once (the child logs each task it handles, synchronously,
// before answering).
//
// The task count: NOSTR_FAULT_TASKS, default 120; `NOSTR_FAULT_TASKS=1000 node --test
// tests/js/faults-agx.test.js` is the issue's full 1,000 (several minutes: see README, Hardening,
// "Faults and load"). Why not 1,000 by default: every AGX wrap carries 12 bits of proof of work
// over the whole serialized wrap, and the nonce tag comes before the ~1.5 KB content, so each of
// the ~4,096 expected attempts re-hashes the content: ~40 ms of CPU per wrap in WASM, three wraps
// per task (request, receipt, result), ~120 ms of CPU per task across the two processes.
// Requests go out NOSTR_FAULT_IN_FLIGHT (default 10) at a time; the faults land at fixed
// fractions of the run.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nostr } from './helpers.js';
import { startDevRelay } from '../support/relays.js';

const { agx, LocalSigner, RelayPool } = nostr;
const CHILD = fileURLToPath(new URL('./agx-child.mjs', import.meta.url));
const TASKS = Number(process.env.NOSTR_FAULT_TASKS ?? 120);
const IN_FLIGHT = Number(process.env.NOSTR_FAULT_IN_FLIGHT ?? 10);
const REQUEST_TIMEOUT = Number(process.env.NOSTR_FAULT_TASK_TIMEOUT ?? (process.env.NOSTR_FAULT_INFLIGHT_KILL ? 30_000 : 180_000));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
  async function setup(name) {
    const sk = nostr.generateSecretKey();
    const bobPk = nostr.getPublicKey(sk);
    const store = path.join(dir, name);
    const log = path.join(dir, `${name}.log`);
    writeFileSync(log, '');
    const startBob = () =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [CHILD, relay.url, nostr.bytesToHex(sk), store, log], { stdio: ['ignore', 'pipe', 'inherit'] });
        procs.add(child);
        child.on('exit', () => procs.delete(child));
        child.on('error', reject);
        child.stdout.on('data', (d) => d.toString().includes('ready') && resolve(child));
      });
    const pool = new RelayPool({ relays: [relay.url], relayInfo: false, reconnect: { initialDelay: 50, maxDelay: 500 }, publishTimeout: 30_000 });
    const alice = new agx.AgxClient({ signer: LocalSigner.generate(), pool, authorize: 'accept-all', pollInterval: 0, onWarning: () => {} });
    await alice.start();
    const results = new Map();
    const failed = [];
    /** Requests tasks [from, to), IN_FLIGHT at a time; `midway` runs once half of them are answered. */
    const batch = async (from, to, midway) => {
      let next = from;
      let answered = 0;
      let fault = Promise.resolve();
      const worker = async () => {
        while (next < to) {
          const n = next++;
          try {
            results.set(n, await alice.request(bobPk, 'count.me', { n }, { timeout: REQUEST_TIMEOUT }));
          } catch (err) {
            failed.push({ n, code: err.code });
          }
          if (++answered === Math.floor((to - from) / 2) && midway) fault = midway();
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      await fault;
    };
    /** Every task answered with its own output and handled exactly once. */
    const check = async (count) => {
      const handled = readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number);
      const once = new Set(handled);
      assert.deepEqual(failed.map((f) => ({ ...f, handled: once.has(f.n) })), [], 'no request failed');
      for (let n = 0; n < count; n++) assert.deepEqual(results.get(n), { n }, `task ${n} answered with its own output`);
      await sleep(500); // a task handled a second time (a replayed wrap) would be logged by now
      const again = readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number);
      const counts = new Map();
      for (const n of again) counts.set(n, (counts.get(n) ?? 0) + 1);
      assert.deepEqual([...counts].filter(([, c]) => c > 1).map(([n]) => n), [], 'no task handled twice');
      assert.equal(counts.size, count, 'every task handled');
    };
    const close = async () => {
      await alice.stop();
      await pool.close();
    };
    return { startBob, batch, check, close };
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

  it(`${TASKS} tasks, each processed exactly once, none lost: relay restarted with tasks in flight (3x), agent SIGKILLed between tasks and sent tasks while down (2x)`, { timeout: 3_600_000 }, async () => {
    const t = await setup('bob');
    let bob = await t.startBob();
    try {
      const third = Math.floor(TASKS / 3);
      await t.batch(0, third, restartRelay);
      // SIGKILL (no task of its own in flight), then a batch sent while it is down.
      await kill(bob);
      const second = t.batch(third, 2 * third, restartRelay);
      await sleep(300);
      bob = await t.startBob();
      await second;
      // Both down at once: the agent killed, the relay killed; tasks sent meanwhile.
      await kill(bob);
      await relay.stop();
      const last = t.batch(2 * third, TASKS, restartRelay);
      await sleep(300);
      await relay.restart();
      bob = await t.startBob();
      await last;
      await t.check(TASKS);
    } finally {
      await t.close();
      await kill(bob);
    }
  });

  // KNOWN DEFECT (reported in issue 8's closing note): AgxClient marks a task's wrap and rumor as
  // processed, durably, BEFORE it runs the handler and publishes the result (at-most-once,
  // js/agx/client.js #ingest). An agent SIGKILLed between that mark and the result's publish
  // loses the task: after the restart its store says "done" and the requester waits forever.
  // Exactly-once across a crash needs the result recorded with the mark (an outbox replayed at
  // start). Run it with NOSTR_FAULT_INFLIGHT_KILL=1.
  it('the agent SIGKILLed with tasks in flight: none lost', {
    timeout: 600_000,
    todo: 'tasks in flight at a SIGKILL are lost (marked processed before they are answered)',
    skip: process.env.NOSTR_FAULT_INFLIGHT_KILL ? false : 'known defect, see the comment; NOSTR_FAULT_INFLIGHT_KILL=1 runs it',
  }, async () => {
    const t = await setup('bob-inflight');
    let bob = await t.startBob();
    try {
      await t.batch(0, 60, async () => {
        await kill(bob); // mid-stream: several tasks are being handled or answered
        await sleep(200);
        bob = await t.startBob();
      });
      await t.check(60);
    } finally {
      await t.close();
      await kill(bob);
    }
  });
});
