// A subscription of a pool: callbacks (onevent, oneose, onclose) and an async iterator of events.
// Events arrive verified, matching the filters and deduplicated across relays and reconnects.

/** A FIFO with O(1) shift, for events waiting for an iterator. */
class Queue {
  constructor() {
    this.items = [];
    this.head = 0;
  }
  get length() {
    return this.items.length - this.head;
  }
  push(v) {
    this.items.push(v);
  }
  shift() {
    const v = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return v;
  }
  clear() {
    this.items = [];
    this.head = 0;
  }
}

export class Subscription {
  constructor(pool, id, filters, options) {
    this.id = id;
    this.filters = filters;
    this._pool = pool;
    this._onevent = options.onevent;
    this._oneose = options.oneose;
    this._onclose = options.onclose;
    /** Its relays (RelayConnection); where it stands on each is the core's (machine.js). */
    this._conns = new Set();
    this.closed = false;
    this.eosed = false;
    /** Why relays closed it: [{relay, reason, message, code?}]. */
    this.closeReasons = [];
    this._error = undefined;
    this._iterators = new Set();
    this._signal = undefined;
    this._onAbort = null;
  }

  /** The relays of the subscription (normalized URLs). */
  get relays() {
    return [...this._conns].map((c) => c.url);
  }

  /** Sends CLOSE where it is open; ends the iterators (done). Idempotent. */
  close(message = 'closed by caller') {
    this._pool._closeSubscription(this, { relay: '', reason: 'closed', message });
  }

  _deliver(event, relay) {
    if (this.closed) return;
    if (this._onevent) this._pool._call(this._onevent, event, relay);
    for (const it of this._iterators) {
      if (it.waiting) {
        const w = it.waiting;
        it.waiting = null;
        w.resolve({ value: event, done: false });
      } else it.queue.push(event);
    }
  }

  /** The core's eose action: every relay answered EOSE, dropped or closed it, or maxWait passed. */
  _eose() {
    if (this.eosed || this.closed) return;
    this.eosed = true;
    if (this._oneose) this._pool._call(this._oneose);
  }

  /** Ends the subscription: onclose(reasons), iterators done (or rejected with `error`). */
  _end(error) {
    if (this.closed) return;
    this.closed = true;
    this._error = error;
    if (this._signal && this._onAbort) this._signal.removeEventListener('abort', this._onAbort);
    this._signal = this._onAbort = null;
    if (this._onclose) this._pool._call(this._onclose, this.closeReasons);
    for (const it of this._iterators) {
      if (!it.waiting) continue;
      const w = it.waiting;
      it.waiting = null;
      if (error && !it.errored) {
        it.errored = true;
        w.reject(error);
      } else w.resolve({ value: undefined, done: true });
    }
  }

  /**
   * Events as they arrive: `for await (const event of sub)`. Breaking out of the loop closes the
   * subscription. Ends when it is closed; throws NostrError ABORTED when its signal aborted it and
   * RELAY_CLOSED when every relay closed it.
   */
  [Symbol.asyncIterator]() {
    const it = { queue: new Queue(), waiting: null, errored: false };
    this._iterators.add(it);
    const sub = this;
    return {
      next() {
        if (it.queue.length > 0) return Promise.resolve({ value: it.queue.shift(), done: false });
        if (sub.closed || !sub._iterators.has(it)) {
          if (sub._error && !it.errored && sub._iterators.has(it)) {
            it.errored = true;
            return Promise.reject(sub._error);
          }
          return Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve, reject) => {
          it.waiting = { resolve, reject };
        });
      },
      return() {
        sub._iterators.delete(it);
        it.queue.clear();
        if (it.waiting) {
          it.waiting.resolve({ value: undefined, done: true });
          it.waiting = null;
        }
        sub.close();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
}
