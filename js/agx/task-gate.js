// Flood limits for the tasks an AgxClient serves: how many handlers run at once (in all and per
// peer), how many accepted tasks may wait for a slot (in all and per peer), and a per-peer rate (a
// token bucket: `count` tasks, refilled evenly over `window` seconds, as NIP-XX's prompt limit).
// Sans-IO: `now` (seconds) is passed in; the jobs are opaque to it. Memory is bounded: the queue by
// maxQueued, the per-peer state by maxTrackedPeers (an idle peer, the longest untouched, goes first).
//
// SPEC.md has no error code for "too many tasks": a rejected task is answered with a failed result
// whose error text starts with a stable token, `rate-limited` (with "retry after N s") or
// `overloaded`, which an AgxClient requester turns back into AGX_TASK_REJECTED (see rejectionOf).
import { NostrError } from '../errors.js';

export const TASK_LIMIT_DEFAULTS = Object.freeze({
  maxConcurrent: 16,
  perPeerConcurrent: 4,
  maxQueued: 256,
  perPeerQueued: 32,
  perPeerRate: Object.freeze({ count: 300, window: 60 }),
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

export class TaskGate {
  #l;
  #peers = new Map(); // peer -> { tokens, updated, running, queued }
  #queue = []; // { peer, job }, arrival order
  #running = 0;

  constructor(options) {
    this.#l = taskLimits(options);
  }

  get limits() {
    return this.#l;
  }
  get running() {
    return this.#running;
  }
  get queued() {
    return this.#queue.length;
  }
  get trackedPeers() {
    return this.#peers.size;
  }
  runningFor(peer) {
    return this.#peers.get(peer)?.running ?? 0;
  }

  #state(peer, now) {
    let st = this.#peers.get(peer);
    if (st) return st;
    if (this.#peers.size >= this.#l.maxTrackedPeers) {
      let oldest = null;
      for (const [k, v] of this.#peers) if (v.running === 0 && v.queued === 0 && (!oldest || v.updated < oldest[1].updated)) oldest = [k, v];
      // Every tracked peer is busy: a busy peer holds a slot or a queue place, so this bounds itself
      // at maxConcurrent + maxQueued; the newcomer is tracked anyway.
      if (oldest) this.#peers.delete(oldest[0]);
    }
    st = { tokens: this.#l.perPeerRate ? this.#l.perPeerRate.count : 0, updated: now, running: 0, queued: 0 };
    this.#peers.set(peer, st);
    return st;
  }

  /**
   * One task from `peer`: 'run' (it holds a slot now: start `job`, then call release(peer)),
   * 'queued' (the gate keeps `job` and hands it out from release()), or a rejection
   * { rejected: 'rate-limited', retryAfter } | { rejected: 'overloaded' }. admitted: a task accepted
   * before (a re-run after a restart): neither counted against the rate nor refused for a full queue.
   */
  offer(peer, now, job, { admitted = false } = {}) {
    const st = this.#state(peer, now);
    const rate = this.#l.perPeerRate;
    if (rate && !admitted) {
      const perSecond = rate.count / rate.window;
      if (now > st.updated) st.tokens = Math.min(rate.count, st.tokens + (now - st.updated) * perSecond);
      st.updated = Math.max(st.updated, now);
      if (st.tokens < 1) return { rejected: 'rate-limited', retryAfter: Math.max(1, Math.ceil((1 - st.tokens) / perSecond)) };
    } else st.updated = Math.max(st.updated, now);
    const slot = this.#running < this.#l.maxConcurrent && st.running < this.#l.perPeerConcurrent;
    if (!slot && !admitted && (this.#queue.length >= this.#l.maxQueued || st.queued >= this.#l.perPeerQueued)) return { rejected: 'overloaded' };
    if (rate && !admitted) st.tokens -= 1;
    if (slot) {
      this.#running++;
      st.running++;
      return 'run';
    }
    this.#queue.push({ peer, job });
    st.queued++;
    return 'queued';
  }

  /** A job of `peer` finished: its slot is freed. Returns the next queued job to start (it holds the slot), or null. */
  release(peer) {
    const st = this.#peers.get(peer);
    if (st && st.running > 0) st.running--;
    if (this.#running > 0) this.#running--;
    return this.#next();
  }

  #next() {
    if (this.#running >= this.#l.maxConcurrent) return null;
    for (let i = 0; i < this.#queue.length; i++) {
      const { peer, job } = this.#queue[i];
      const st = this.#peers.get(peer);
      if (st.running >= this.#l.perPeerConcurrent) continue;
      this.#queue.splice(i, 1);
      st.queued--;
      st.running++;
      this.#running++;
      return { peer, job };
    }
    return null;
  }

  /** Forgets every queued job and returns them, [{peer, job}] (the client stopped: their durable records bring them back at the next start). */
  clear() {
    const out = this.#queue;
    for (const { peer } of out) {
      const st = this.#peers.get(peer);
      if (st) st.queued--;
    }
    this.#queue = [];
    return out;
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
