// Flood limits for the tasks an AgxClient serves: how many handlers run at once (in all and per
// peer), how many accepted tasks may wait for a slot (in all and per peer), and a per-peer rate (a
// token bucket: `count` tasks, refilled evenly over `window` seconds, as NIP-XX's prompt limit).
// The decisions are the core's (src/protocols/agx/task_gate: sans-IO, `now` in seconds passed in);
// this file checks the options and maps the core's tickets to the host's jobs. Memory is bounded:
// the queue by maxQueued, the per-peer state by maxTrackedPeers (an idle peer, the longest
// untouched, goes first).
//
// SPEC.md has no error code for "too many tasks": a rejected task is answered with a failed result
// whose error text starts with a stable token, `rate-limited` (with "retry after N s") or
// `overloaded`, which an AgxClient requester reads back (rejectionOf) into the AGX_TASK_FAILED
// error's `rejected` and `retryAfter` (errors.js taskFailed).
import { NostrError } from '../errors.js';
import { core } from '../core.js';

export const TASK_LIMIT_DEFAULTS = /* @__PURE__ */ Object.freeze({
  maxConcurrent: 16,
  perPeerConcurrent: 4,
  maxQueued: 256,
  perPeerQueued: 32,
  perPeerRate: /* @__PURE__ */ Object.freeze({ count: 300, window: 60 }),
  maxTrackedPeers: 10000,
});

function positiveInt(v, what, max = 0xffffffff) {
  if (!Number.isSafeInteger(v) || v < 1 || v > max) throw new NostrError('INVALID_ARGUMENT', `taskLimits.${what} must be an integer >= 1`);
  return v;
}

function nonNegativeInt(v, what) {
  if (!Number.isSafeInteger(v) || v < 0) throw new NostrError('INVALID_ARGUMENT', `taskLimits.${what} must be a non-negative integer`);
  return v;
}

/** The limits with defaults filled in; INVALID_ARGUMENT on a bad value. perPeerRate: null turns the rate off. */
export function taskLimits(options = {}) {
  if (options === null || typeof options !== 'object') throw new NostrError('INVALID_ARGUMENT', 'taskLimits must be an object');
  const d = TASK_LIMIT_DEFAULTS;
  const out = {
    maxConcurrent: positiveInt(options.maxConcurrent ?? d.maxConcurrent, 'maxConcurrent'),
    perPeerConcurrent: positiveInt(options.perPeerConcurrent ?? d.perPeerConcurrent, 'perPeerConcurrent'),
    maxQueued: nonNegativeInt(options.maxQueued ?? d.maxQueued, 'maxQueued'),
    perPeerQueued: nonNegativeInt(options.perPeerQueued ?? d.perPeerQueued, 'perPeerQueued'),
    maxTrackedPeers: positiveInt(options.maxTrackedPeers ?? d.maxTrackedPeers, 'maxTrackedPeers'),
    perPeerRate: null,
  };
  const rate = options.perPeerRate === undefined ? d.perPeerRate : options.perPeerRate;
  if (rate !== null) {
    if (typeof rate !== 'object') throw new NostrError('INVALID_ARGUMENT', 'taskLimits.perPeerRate must be {count, window} or null');
    out.perPeerRate = { count: positiveInt(rate.count, 'perPeerRate.count'), window: positiveInt(rate.window, 'perPeerRate.window') };
  }
  return out;
}

// Pure: a bundle that uses no class of this file (an AgxRequester's) drops it.
const registry = /* @__PURE__ */ new FinalizationRegistry((native) => native.delete());

/** The core's flood limiter (protocols/agx/task_gate): this wrapper maps its tickets to the host's jobs. */
export class TaskGate {
  #l;
  #native;
  #jobs = new Map(); // ticket -> { peer, job } of queued jobs

  constructor(options) {
    this.#l = taskLimits(options);
    const l = this.#l;
    const rate = l.perPeerRate ?? { count: 0, window: 1 };
    this.#native = new (core().AgxTaskGate)(l.maxConcurrent, l.perPeerConcurrent, l.maxQueued, l.perPeerQueued, rate.count, rate.window, l.maxTrackedPeers);
    registry.register(this, this.#native, this);
  }

  #n() {
    if (!this.#native) throw new NostrError('AGX_CLOSED', 'the task gate was disposed');
    return this.#native;
  }

  get limits() {
    return this.#l;
  }
  // Counters read 0 once disposed (a stopped client's taskStats).
  get running() {
    return this.#native ? this.#native.running() : 0;
  }
  get queued() {
    return this.#native ? this.#native.queued() : 0;
  }
  get trackedPeers() {
    return this.#native ? this.#native.trackedPeers() : 0;
  }
  runningFor(peer) {
    return this.#native ? this.#native.runningFor(String(peer)) : 0;
  }

  /**
   * One task from `peer`: 'run' (it holds a slot now: start `job`, then call release(peer)),
   * 'queued' (the gate keeps `job` and hands it out from release()), or a rejection
   * { rejected: 'rate-limited', retryAfter } | { rejected: 'overloaded' }. admitted: a task accepted
   * before (a re-run after a restart): neither counted against the rate nor refused for a full queue.
   */
  offer(peer, now, job, { admitted = false } = {}) {
    if (!Number.isSafeInteger(now)) throw new NostrError('INVALID_ARGUMENT', 'now must be integer seconds');
    const v = JSON.parse(this.#n().offer(String(peer), now, admitted === true));
    if (v.verdict === 'run') return 'run';
    if (v.verdict === 'queued') {
      this.#jobs.set(v.ticket, { peer: String(peer), job });
      return 'queued';
    }
    if (v.verdict === 'rate-limited') return { rejected: 'rate-limited', retryAfter: v.retryAfter };
    return { rejected: 'overloaded' };
  }

  /** A job of `peer` finished: its slot is freed. Returns the next queued job to start (it holds the slot), or null. */
  release(peer) {
    const ticket = this.#n().release(String(peer));
    if (!ticket) return null;
    const next = this.#jobs.get(ticket);
    this.#jobs.delete(ticket);
    return next ?? null;
  }

  /** Forgets every queued job and returns them, [{peer, job}] (the client stopped: their durable records bring them back at the next start). */
  clear() {
    const out = [];
    for (const t of JSON.parse(this.#n().clear())) {
      const e = this.#jobs.get(t);
      if (e) out.push(e);
    }
    this.#jobs.clear();
    return out;
  }

  dispose() {
    if (!this.#native) return;
    registry.unregister(this);
    this.#native.delete();
    this.#native = null;
    this.#jobs.clear();
  }
}

const REJECTION = /^(rate-limited|overloaded)\b(?:.*?retry after (\d+) s)?/;

/** The error text a rejection carries on the wire. */
export function rejectionText(verdict) {
  if (verdict.rejected === 'rate-limited') return `rate-limited: too many tasks from this peer; retry after ${verdict.retryAfter} s`;
  return 'overloaded: too many tasks waiting; retry later';
}

/** { reason, retryAfter? } when a failed result's error is a flood-limit rejection, else null. */
export function rejectionOf(error) {
  if (typeof error !== 'string') return null;
  const m = REJECTION.exec(error);
  if (!m) return null;
  const out = { reason: m[1] };
  if (m[2]) out.retryAfter = Number(m[2]);
  return out;
}
