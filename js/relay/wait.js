// Time and waiting for the pool, injectable for tests. Every timer and every wait the pool starts
// is tracked here, so close() can clear the timers and settle the waits: nothing is left behind.
import { NostrError } from '../errors.js';

/** What a wait resolves with when its deadline passes. */
export const TIMEOUT = Symbol('timeout');
/** What a wait resolves with when the pool closes. */
export const CLOSED = Symbol('closed');

export function abortError(signal) {
  const reason = signal && signal.reason;
  if (reason instanceof NostrError && reason.code === 'ABORTED') return reason;
  return new NostrError('ABORTED', 'the operation was aborted', { cause: reason });
}

export class Clock {
  constructor({ setTimeout: set = globalThis.setTimeout, clearTimeout: clear = globalThis.clearTimeout, now = Date.now, random = Math.random } = {}) {
    this._set = set;
    this._clear = clear;
    this.now = now;
    this.random = random;
    this._timers = new Set();
    this._waits = new Set();
  }

  nowSeconds() {
    return Math.floor(this.now() / 1000);
  }

  /** setTimeout, tracked until it fires or is cleared. */
  set(fn, ms) {
    const box = { id: undefined };
    const set = this._set; // called without a receiver: browsers refuse window.setTimeout on another `this`
    box.id = set(() => {
      this._timers.delete(box);
      fn();
    }, Math.max(0, ms));
    this._timers.add(box);
    return box;
  }

  clear(box) {
    if (!box) return;
    const clear = this._clear;
    if (this._timers.delete(box)) clear(box.id);
  }

  /**
   * A wait settled by whichever comes first: fire(value) by its owner, the deadline (TIMEOUT; an
   * absolute time in ms, Infinity for none), the signal (rejects with NostrError ABORTED), or
   * closeAll() (CLOSED). Returns {promise, fire(value), done}.
   */
  wait(deadline = Infinity, signal = undefined) {
    const w = { done: false, promise: null, fire: null };
    let resolveP, rejectP;
    w.promise = new Promise((resolve, reject) => {
      resolveP = resolve;
      rejectP = reject;
    });
    let timer = null;
    const onAbort = () => finish(rejectP, abortError(signal));
    const finish = (fn, v) => {
      if (w.done) return;
      w.done = true;
      this._waits.delete(w);
      this.clear(timer);
      signal?.removeEventListener('abort', onAbort);
      fn(v);
    };
    w.fire = (v) => finish(resolveP, v);
    w.close = () => finish(resolveP, CLOSED);
    if (signal?.aborted) {
      finish(rejectP, abortError(signal));
      return w;
    }
    this._waits.add(w);
    if (deadline !== Infinity) timer = this.set(() => finish(resolveP, TIMEOUT), deadline - this.now());
    signal?.addEventListener('abort', onAbort, { once: true });
    return w;
  }

  /** Resolves with undefined after ms, or TIMEOUT/CLOSED/ABORTED as wait() (deadline caps it). */
  sleep(ms, deadline = Infinity, signal = undefined) {
    const end = this.now() + ms;
    if (end > deadline) return this.wait(deadline, signal).promise;
    const w = this.wait(Infinity, signal);
    const t = this.set(() => w.fire(undefined), ms);
    w.promise.then(() => this.clear(t), () => this.clear(t));
    return w.promise;
  }

  /** Settles every wait with CLOSED and clears every timer. */
  closeAll() {
    for (const w of [...this._waits]) w.close();
    const clear = this._clear;
    for (const box of this._timers) clear(box.id);
    this._timers.clear();
  }
}
