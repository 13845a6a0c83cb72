// RelayPool's `verifyWorkers` option: the signature checks of received events run in a pool of
// workers (Web Workers in browsers, worker_threads in Node), each with its own instance of the
// package's WASM module (verify-worker.js), so a burst of events does not hold the main thread.
//
// Same results, same order: a worker only answers, per frame, "this EVENT frame's event verifies"
// (the core's decode and verify_batch on the very bytes received); the pool's subscription machine
// then takes every frame as before (parse, dedupe, filter, delivery or drop) and skips the
// signature check of the frames a worker found valid. Anything else (a bad signature, a malformed
// frame, a worker that failed or answered nothing usable) is checked on the main thread exactly as
// without workers, so the drop reasons and messages are the machine's own. A connection's frames
// are fed in arrival order: what arrives while a batch is with the workers waits behind it, and a
// disconnect feeds everything held (checking on the main thread what the workers have not
// answered) before the machine hears of it.
import { NostrError } from '../errors.js';

// Frames per job: big backlogs are split so several workers share them and so feeding one answer
// stays a short main-thread task.
const MAX_JOB = 256;
// Feeding answers to the machine: FEED_SLICE frames at a time, for up to FEED_BUDGET ms per task.
const FEED_SLICE = 16;
const FEED_BUDGET = 8;
// A new task soon (setImmediate in Node; a MessageChannel turn in browsers: no 4 ms clamp).
const macrotask = (fn) => {
  if (typeof setImmediate === 'function') return setImmediate(fn);
  const ch = new MessageChannel();
  ch.port1.onmessage = () => {
    ch.port1.close();
    fn();
  };
  ch.port2.postMessage(0);
};
// Jobs a worker holds at once: one being checked, one ready behind it.
const IN_FLIGHT = 2;
const DEFAULTS = { workers: 0, minFrames: 1, timeout: 10_000, maxFailures: 3 };
const NODE_WORKER = /* @__PURE__ */ ['node', 'worker_threads'].join(':');

const isNode = () => typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';

function defaultWorkers() {
  const n = globalThis.navigator?.hardwareConcurrency ?? 2;
  return Math.max(1, Math.min(4, n - 1));
}

/**
 * The option's value as settings, or null when off. `true`, a worker count, or
 * { workers, minFrames, timeout, maxFailures, url } (url: where the worker script is, for apps that
 * serve it themselves). INVALID_ARGUMENT for anything else.
 */
export function verifyWorkerSettings(value) {
  if (value === undefined || value === false || value === 0) return null;
  let o;
  if (value === true) o = {};
  else if (typeof value === 'number') o = { workers: value };
  else if (value !== null && typeof value === 'object') o = value;
  else throw new NostrError('INVALID_ARGUMENT', 'verifyWorkers must be true, a worker count or { workers, minFrames, timeout }');
  const s = { ...DEFAULTS, ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) };
  for (const k of ['workers', 'minFrames', 'maxFailures'])
    if (!Number.isInteger(s[k]) || s[k] < 0) throw new NostrError('INVALID_ARGUMENT', `verifyWorkers.${k} must be an integer >= 0`);
  if (!(typeof s.timeout === 'number' && s.timeout > 0)) throw new NostrError('INVALID_ARGUMENT', 'verifyWorkers.timeout must be a number of ms > 0');
  if (s.url !== undefined && typeof s.url !== 'string' && typeof s.url?.href !== 'string')
    throw new NostrError('INVALID_ARGUMENT', 'verifyWorkers.url must be a URL or a string');
  if (s.url !== undefined && typeof s.url !== 'string' && !(s.url instanceof URL)) s.url = new URL(s.url.href);
  if (s.workers === 0) s.workers = defaultWorkers();
  return s;
}

/** The pool's verifier for `value` (RelayPoolOptions.verifyWorkers), or null when off. */
export function verifyWorkersFor(pool, value) {
  const s = verifyWorkerSettings(value);
  return s ? new VerifyWorkers(pool, s) : null;
}

// One started worker: a Web Worker or a worker_threads Worker behind the same small surface.
class WorkerHandle {
  constructor(settings, onMessage, onFail) {
    this.jobs = new Map(); // job id -> job
    this.dead = false;
    this.ready = this._start(settings, onMessage, onFail);
  }

  async _start(settings, onMessage, onFail) {
    const fail = (err) => {
      if (!this.dead) onFail(this, err);
    };
    try {
      if (isNode()) {
        const { Worker } = await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_WORKER);
        const w = new Worker(settings.url ?? new URL('./verify-worker.js', import.meta.url));
        w.on('message', (m) => onMessage(this, m));
        w.on('error', fail);
        w.on('messageerror', fail);
        w.on('exit', (code) => fail(new Error(`the worker exited (code ${code})`)));
        w.unref(); // never what keeps Node running (after the listeners, which would ref it again)
        this._post = (m) => w.postMessage(m);
        this._end = () => w.terminate();
      } else {
        // The literal `new Worker(new URL('./…', import.meta.url), { type: 'module' })`: the form
        // Vite, webpack 5 and Parcel find and bundle the worker from.
        const w = settings.url
          ? new Worker(settings.url, { type: 'module' })
          : new Worker(new URL('./verify-worker.js', import.meta.url), { type: 'module' });
        w.onmessage = (e) => onMessage(this, e.data);
        w.onerror = (e) => {
          e.preventDefault?.();
          fail(new Error(e.message || 'the worker failed to load or threw'));
        };
        w.onmessageerror = () => fail(new Error('a message from the worker could not be read'));
        this._post = (m) => w.postMessage(m);
        this._end = () => w.terminate();
      }
      if (this.dead) this._end();
    } catch (err) {
      fail(err);
    }
  }

  post(message) {
    this.ready.then(() => {
      if (this.dead || !this._post) return;
      try {
        this._post(message);
      } catch (err) {
        if (!this.dead) this._failNow?.(err);
      }
    });
  }

  terminate() {
    this.dead = true;
    try {
      this._end?.();
    } catch {
      // already gone
    }
  }
}

export class VerifyWorkers {
  constructor(pool, settings) {
    this._pool = pool;
    this._s = settings;
    this._workers = [];
    this._held = new Map(); // connection -> [job], in arrival order
    this._waiting = []; // jobs not sent yet, oldest first
    this._scheduled = new Set(); // connections whose feeding goes on in a later task
    this._nextJob = 1;
    this._failures = 0;
    this._off = false; // too many failures: the main thread checks everything
    this._closed = false;
    this.stats = { jobs: 0, frames: 0, verifiedInWorkers: 0, fallbacks: 0, failures: 0 };
    pool._abort.signal.addEventListener('abort', () => this.close(), { once: true });
  }

  /**
   * The pool's hook (RelayPool._flushFrames). `frames`: what one connection received this task
   * (or undefined); endOfTask: called from the end-of-task flush, else from a disconnect or an
   * unbatchable frame, which must find everything earlier fed. True when the verifier took the
   * frames (it feeds them later, in order); false when the pool feeds them now itself.
   */
  take(conn, frames, endOfTask) {
    const held = this._held.get(conn);
    if (!endOfTask) {
      if (held) this._drain(conn, true);
      return false;
    }
    if (!frames) return false;
    if (!held && (frames.length < this._s.minFrames || this._off || this._closed)) return false;
    let list = held;
    if (!list) this._held.set(conn, (list = []));
    for (const f of frames) {
      // Frames that arrive while every worker is busy wait in the connection's last unsent job:
      // a browser hands each WebSocket message to its own task, and this is what batches them.
      let job = list[list.length - 1];
      if (!job || job.worker !== null || job.valid !== undefined || job.frames.length >= MAX_JOB) {
        job = { id: this._nextJob++, conn, frames: [], valid: undefined, worker: null, timer: null, at: 0 };
        list.push(job);
        this._waiting.push(job);
      }
      job.frames.push(f);
    }
    this._pump();
    this._drain(conn, false); // jobs settled at once (workers off) go now
    return true;
  }

  // Sends waiting jobs, oldest first, to workers with fewer than IN_FLIGHT jobs (starting workers
  // up to the count asked for).
  _pump() {
    while (this._waiting.length > 0) {
      const job = this._waiting[0];
      if (this._off || this._closed) {
        this._waiting.shift();
        this._settle(job, null);
        continue;
      }
      const alive = (this._workers = this._workers.filter((x) => !x.dead));
      let w = null;
      for (const x of alive) if (x.jobs.size < IN_FLIGHT && (w === null || x.jobs.size < w.jobs.size)) w = x;
      if (w === null || (w.jobs.size > 0 && alive.length < this._s.workers)) {
        if (alive.length >= this._s.workers) return; // all busy: the job waits (and grows)
        w = new WorkerHandle(this._s, (h, m) => this._onMessage(h, m), (h, err) => this._onFail(h, err));
        w._failNow = (err) => this._onFail(w, err);
        this._workers.push(w);
      }
      this._waiting.shift();
      this._send(w, job);
    }
  }

  _send(w, job) {
    job.worker = w;
    w.jobs.set(job.id, job);
    this.stats.jobs++;
    this.stats.frames += job.frames.length;
    job.timer = setTimeout(() => this._onFail(w, new Error(`no answer within ${this._s.timeout} ms`)), this._s.timeout);
    if (typeof job.timer === 'object') job.timer?.unref?.();
    w.post({ id: job.id, frames: job.frames });
  }

  _onMessage(w, m) {
    const job = m && w.jobs.get(m.id);
    if (!job) return;
    const ok = typeof m.valid === 'string' && m.valid.length === job.frames.length && /^[01]*$/.test(m.valid);
    if (!ok) return this._onFail(w, new Error(m && typeof m.error === 'string' ? m.error : 'the worker answered something unreadable'));
    w.jobs.delete(job.id);
    this._settle(job, m.valid);
    this._pump();
    this._drain(job.conn, false);
  }

  // A worker failed (crashed, could not load, timed out, answered nonsense): it is ended, its
  // jobs are checked on the main thread, the next job starts another. After maxFailures the
  // verifier stops using workers and says so once on the pool's 'error' listeners.
  _onFail(w, err) {
    if (w.dead) return;
    w.terminate();
    const jobs = [...w.jobs.values()];
    w.jobs.clear();
    this._failures++;
    this.stats.failures++;
    if (!this._closed && this._failures >= this._s.maxFailures && !this._off) {
      this._off = true;
      const e = new NostrError('VERIFY_WORKER_FAILED', `verification workers failed ${this._failures} times (last: ${err?.message ?? err}); verifying on the main thread from now on`, { cause: err });
      this._pool._emit('error', e);
    }
    const conns = new Set();
    for (const job of jobs) {
      this._settle(job, null);
      conns.add(job.conn);
    }
    this._pump();
    for (const conn of conns) this._drain(conn, false);
  }

  _settle(job, valid) {
    if (job.worker === null) {
      const i = this._waiting.indexOf(job);
      if (i >= 0) this._waiting.splice(i, 1);
      job.worker = false; // never sent
    }
    if (job.timer !== null) clearTimeout(job.timer);
    job.timer = null;
    if (job.worker) job.worker.jobs.delete(job.id);
    job.valid = valid; // null: checked on the main thread
  }

  // Feeds the connection's held jobs in order: up to the first unanswered one, or (all) every one.
  _drain(conn, all) {
    const list = this._held.get(conn);
    if (!list) return;
    const pool = this._pool;
    // Fed in slices, a few ms at a time (the rest in a later task), so that feeding a big answer
    // never becomes the long task the workers are there to avoid; all: everything now.
    const until = all ? Infinity : performance.now() + FEED_BUDGET;
    while (list.length > 0) {
      const job = list[0];
      if (job.valid === undefined) {
        if (!all) return;
        this._settle(job, null);
      }
      if (pool._closed || pool._byIdx[conn.idx] !== conn) {
        list.shift(); // closed, or the relay was removed
        continue;
      }
      const end = all ? job.frames.length : Math.min(job.frames.length, job.at + FEED_SLICE);
      this._feed(conn, job, job.at, end);
      job.at = end;
      if (job.at >= job.frames.length) list.shift();
      if (list.length > 0 && performance.now() >= until) return this._later(conn);
    }
    this._held.delete(conn);
  }

  _later(conn) {
    if (this._scheduled.has(conn)) return;
    this._scheduled.add(conn);
    macrotask(() => {
      this._scheduled.delete(conn);
      if (!this._closed) this._drain(conn, false);
    });
  }

  _feed(conn, job, from, to) {
    const frames = from === 0 && to === job.frames.length ? job.frames : job.frames.slice(from, to);
    const valid = job.valid === null ? undefined : job.valid.slice(from, to);
    if (valid === undefined) this.stats.fallbacks += frames.length;
    else for (let i = 0; i < valid.length; i++) if (valid.charCodeAt(i) === 49) this.stats.verifiedInWorkers++;
    this._pool._feedBatch(conn, frames, valid); // the pool's own path: deliveries, then each outcome's actions
  }

  /** Ends every worker (RelayPool.close() does, through its abort signal); held frames go with the pool. */
  close() {
    if (this._closed) return;
    this._closed = true;
    for (const w of this._workers) {
      for (const job of w.jobs.values()) if (job.timer !== null) clearTimeout(job.timer);
      w.jobs.clear();
      w.terminate();
    }
    this._workers = [];
    this._held.clear();
    this._waiting = [];
  }

  /** Workers started and alive (tests, stats). */
  get size() {
    return this._workers.filter((w) => !w.dead).length;
  }
}
