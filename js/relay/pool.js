// RelayPool: one pool over many relays, shaped like nostr-tools' SimplePool. Every subscription
// decision is the core's subscription machine (src/relay/subscriptions*.cpp, managed API): frame
// parsing, dedupe, filter re-check, signature verification, NIP-11 queueing, EOSE (also when a
// relay drops), CLOSED handling (AUTH, transient retries), resubscribe with `since`, the retry
// and max_wait deadlines. This file executes its actions (send, connect, authenticate, deliver,
// eose, closed) and owns the I/O: sockets, the one machine timer, publishes and app callbacks.
import { NostrError } from '../errors.js';
import { verifyEventError } from '../event.js';
import { eventJson, normalizeRelayUrl } from './codec.js';
import { RelayConnection, describe } from './connection.js';
import {
  SubscriptionMachine,
  DELIVER,
  CLOSED as CLOSED_FRAME,
  DROPPED,
  ACTIONS,
  OK,
  NOTICE,
  AUTH,
  COUNT as COUNT_FRAME,
  dropReasonOf,
  relayConstants,
} from './machine.js';
import { fetchRelayInfo } from './nip11.js';
import { countDone } from './count.js';
import { isReady } from '../core.js';
import { Subscription } from './subscription.js';
import { CLOSED, Clock, abortError } from './wait.js';
import { resolveWebSocket } from './websocket.js';
import { verifyWorkersFor } from './verify-workers.js';

const DEFAULTS = {
  relays: [],
  WebSocket: undefined,
  signer: undefined,
  eagerAuth: false,
  // reconnect, retry, subscriptionRetries, seenCap, resubscribeOverlap, publishTimeout,
  // publishRetries, authTimeout: the core's defaults (relayConstants), filled in when the pool
  // first opens (the module may load after the pool).
  connectTimeout: 10_000,
  ping: { interval: 30_000, timeout: 10_000 },
  relayInfo: true,
  infoTimeout: 3_000,
  fetch: undefined,
  maxFrameBytes: 1 << 20,
  keepAlive: false,
  idleTimeout: 60_000,
};

/**
 * `value` as a number of ms (or a count, with `integer`) >= 0, or INVALID_ARGUMENT. Strings, NaN
 * and negatives are refused: `now + '300'` would make a deadline of a string and every wait end
 * at once. Infinity only where a deadline takes it (`orInfinity`).
 */
function checkMs(value, name, { integer = false, orInfinity = false } = {}) {
  if (typeof value === 'number' && ((orInfinity && value === Infinity) || (Number.isFinite(value) && value >= 0 && (!integer || Number.isInteger(value)))))
    return value;
  throw new NostrError('INVALID_ARGUMENT', `${name} must be ${integer ? 'an integer' : 'a number of ms'} >= 0${orInfinity ? ' (or Infinity)' : ''}`);
}

const MS_OPTIONS = ['connectTimeout', 'publishTimeout', 'authTimeout', 'infoTimeout'];
const COUNT_OPTIONS = ['publishRetries', 'subscriptionRetries', 'maxFrameBytes', 'seenCap', 'resubscribeOverlap'];

function options(o) {
  if (o === null || typeof o !== 'object') throw new NostrError('INVALID_ARGUMENT', 'RelayPool options must be an object');
  // An option given as undefined is not given (`{ relays: options.relays }`).
  const given = (x) => Object.fromEntries(Object.entries(x || {}).filter(([, v]) => v !== undefined));
  const opts = { ...DEFAULTS, ...given(o) };
  opts.reconnect = o.reconnect === false ? false : given(o.reconnect);
  opts.retry = given(o.retry);
  opts.ping = o.ping === false ? false : { ...DEFAULTS.ping, ...given(o.ping) };
  if (opts.signer !== undefined && (opts.signer === null || typeof opts.signer.signEvent !== 'function'))
    throw new NostrError('INVALID_ARGUMENT', 'signer must have signEvent(template)');
  if (!Array.isArray(opts.relays) || !opts.relays.every((r) => typeof r === 'string'))
    throw new NostrError('INVALID_ARGUMENT', 'relays must be an array of relay URLs');
  // RELAY_URL_INVALID now rather than a silent failure later (before init(), at first use).
  if (isReady()) for (const url of opts.relays) normalizeRelayUrl(url);
  for (const k of MS_OPTIONS) if (opts[k] !== undefined) checkMs(opts[k], k);
  if (opts.idleTimeout !== false) checkMs(opts.idleTimeout, 'idleTimeout');
  for (const k of COUNT_OPTIONS) if (opts[k] !== undefined) checkMs(opts[k], k, { integer: true });
  for (const [group, value] of [['reconnect', opts.reconnect], ['retry', opts.retry], ['ping', opts.ping]])
    if (value !== false) for (const [k, v] of Object.entries(value)) checkMs(v, `${group}.${k}`);
  return opts;
}

/** The core's defaults under the options given (once, when the core is loaded). */
function withCoreDefaults(opts) {
  const k = relayConstants();
  if (opts.reconnect !== false) opts.reconnect = { ...k.reconnect, ...opts.reconnect };
  opts.retry = { ...k.retry, ...opts.retry };
  for (const key of ['subscriptionRetries', 'seenCap', 'resubscribeOverlap', 'publishTimeout', 'publishRetries', 'authTimeout'])
    opts[key] ??= k[key];
}

/**
 * The error for nostr-tools' relays-first order (`pool.subscribe(relays, filter)`): RelayPool
 * takes the relays as an option (SimplePool takes them first).
 */
function relaysFirstError(method) {
  return new NostrError(
    'INVALID_ARGUMENT',
    `RelayPool.${method} takes the relays as an option: ${method}(${method === 'publish' ? 'event' : 'filters'}, { relays }); SimplePool.${method}(relays, ...) has nostr-tools' relays-first order`,
  );
}

function relaysFirst(first, method) {
  if (Array.isArray(first) && first.length > 0 && first.every((x) => typeof x === 'string')) throw relaysFirstError(method);
}

const DROP_REASONS = ['duplicate', 'not-matching', 'bad-signature', 'malformed', 'unknown-subscription'];

export class RelayPool {
  /** See relay.d.ts, RelayPoolOptions. */
  constructor(opts = {}) {
    this._opts = options(opts);
    this._clock = new Clock({ ...(opts.timers || {}), now: opts.now, random: opts.random });
    this._machine = null;
    this._conns = new Map(); // normalized url -> RelayConnection
    this._byIdx = []; // machine relay index -> RelayConnection
    this._subs = new Map(); // sub id -> Subscription
    this._timer = null; // the machine's next deadline (retries, maxWait)
    this._timerAt = undefined;
    this._backlog = new Map(); // connection -> text frames received this task, not yet fed
    this._listeners = new Map();
    this._info = new Map(); // url -> Promise of the NIP-11 document
    this._abort = new AbortController();
    this._configured = new Set(this._opts.relays.map((url) => normalizeRelayUrl(url)));
    this._nextSub = 0;
    this._publishes = new Map(); // publish id -> {conns, outcomes, left, resolve, onresult, signal}
    this._nextPublish = 0;
    this._closed = false;
    this._closing = null;
    this._ws = null;
    this.stats = { frames: 0, batched: 0, delivered: 0, dropped: Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) };
    this._verifier = verifyWorkersFor(this, this._opts.verifyWorkers); // null unless asked for
  }

  get closed() {
    return this._closed;
  }

  /** The relays the pool was given (its defaults), normalized. */
  get relays() {
    return [...this._configured];
  }

  // --- Events.

  /** Listens to 'status' (relay state changes), 'notice', 'drop' (events not delivered, with why), 'error'. */
  on(type, fn) {
    let set = this._listeners.get(type);
    if (!set) this._listeners.set(type, (set = new Set()));
    set.add(fn);
    return () => this.off(type, fn);
  }

  off(type, fn) {
    this._listeners.get(type)?.delete(fn);
  }

  _emit(type, payload) {
    const set = this._listeners.get(type);
    if (!set || set.size === 0) return;
    for (const fn of [...set]) this._call(fn, payload);
  }

  _has(type) {
    const set = this._listeners.get(type);
    return set !== undefined && set.size > 0;
  }

  /**
   * Calls an app callback; what it throws, or the promise an async callback returns rejects with,
   * goes to 'error' listeners (or the console), never into the pool and never unhandled.
   */
  _call(fn, ...args) {
    const fail = (err) => {
      const set = this._listeners.get('error');
      if (set && set.size > 0 && fn !== undefined && !set.has(fn)) this._emit('error', err);
      else console.error('nostr-agents RelayPool: a callback threw', err);
    };
    try {
      const out = fn(...args);
      if (out !== null && typeof out === 'object' && typeof out.then === 'function') Promise.resolve(out).catch(fail);
    } catch (err) {
      fail(err);
    }
  }

  // --- Relays.

  _ensureOpen() {
    if (this._closed) throw new NostrError('POOL_CLOSED', 'the pool was closed');
    if (this._machine === null) {
      withCoreDefaults(this._opts);
      const o = this._opts;
      this._machine = new SubscriptionMachine({
        seenCap: o.seenCap,
        overlap: o.resubscribeOverlap,
        maxFrameBytes: o.maxFrameBytes,
        retry: { retries: o.subscriptionRetries, ...o.retry },
        seed: Math.floor(this._clock.random() * 2 ** 52) + 1,
      });
      this._machine.setCanAuthenticate(Boolean(o.signer));
      this._machine.setAuthPolicy(Boolean(o.eagerAuth), o.authTimeout);
    }
  }

  _webSocket() {
    if (!this._ws) this._ws = resolveWebSocket(this._opts.WebSocket);
    return this._ws;
  }

  _relayInfo(url) {
    let p = this._info.get(url);
    if (!p) {
      p = fetchRelayInfo(url, { timeout: this._opts.infoTimeout, fetch: this._opts.fetch, signal: this._abort.signal, clock: this._clock });
      p.catch(() => this._info.delete(url)); // try again on a later connection
      this._info.set(url, p);
    }
    return p;
  }

  _conn(url) {
    const key = normalizeRelayUrl(url);
    let conn = this._conns.get(key);
    if (!conn) {
      conn = new RelayConnection(this, key);
      this._conns.set(key, conn);
      this._byIdx[conn.idx] = conn;
    }
    return conn;
  }

  _connsFor(relays) {
    const list = relays ?? this._opts.relays;
    if (!Array.isArray(list) || list.length === 0) throw new NostrError('INVALID_ARGUMENT', 'no relays given');
    const out = [];
    for (const url of list) {
      const c = this._conn(url);
      if (!out.includes(c)) out.push(c);
    }
    return out;
  }

  /** Whether a relay's connection should be kept up (reconnecting when it drops). */
  _wants(conn) {
    if (this._closed) return false;
    if (conn.holds > 0 || conn._openWaits.size > 0 || this._opts.keepAlive) return true;
    return this._machine.wantsRelay(conn.idx);
  }

  /**
   * A relay nothing needs any more stops waiting to reconnect. One the pool was not given (a
   * peer's inbox, a one-off query: connected on demand) is let go once nothing used it for
   * idleTimeout ms, so a pool that reaches many relays keeps only those in use.
   */
  _release(conn) {
    if (conn.state === 'backing-off' && !this._wants(conn)) conn._idle();
    const idle = this._opts.idleTimeout;
    if (idle === false || conn._idleTimer || this._closed || this._configured.has(conn.url) || this._wants(conn)) return;
    conn._idleTimer = this._clock.set(() => {
      conn._idleTimer = null;
      if (this._conns.get(conn.url) === conn && !this._wants(conn)) this.close([conn.url]);
    }, idle);
  }

  /**
   * Connects to a relay now; resolves its status once open. RELAY_UNREACHABLE after `timeout`,
   * ABORTED when `signal` aborts (or already has, even if the relay is open: as publish does).
   */
  async ensureRelay(url, { timeout = this._opts.connectTimeout, signal } = {}) {
    this._ensureOpen();
    checkMs(timeout, 'timeout', { orInfinity: true });
    if (signal?.aborted) throw abortError(signal);
    const conn = this._conn(url);
    conn.holds++;
    try {
      const r = await conn.whenOpen(this._clock.now() + timeout, signal);
      if (r === true) return conn.status();
      if (r === CLOSED) throw new NostrError('POOL_CLOSED', 'the pool was closed');
      throw new NostrError('RELAY_UNREACHABLE', `${conn.url}: ${conn.lastError ? conn.lastError.message : 'could not connect'}`);
    } finally {
      conn.holds--;
      this._release(conn);
    }
  }

  /** Status of one relay, or of every relay the pool knows. */
  status(url) {
    if (url !== undefined) {
      const conn = this._conns.get(normalizeRelayUrl(url));
      return conn ? conn.status() : { relay: normalizeRelayUrl(url), state: 'closed', attempt: 0 };
    }
    return [...this._conns.values()].map((c) => c.status());
  }

  /** The relay's NIP-11 document (fetched once per pool). */
  relayInfo(url) {
    this._ensureOpen();
    return this._relayInfo(normalizeRelayUrl(url));
  }

  // --- Frames.

  // --- The machine's actions.

  /** Executes the actions the machine decided, then arms its next deadline. */
  _run(actions = this._machine.actions()) {
    for (const a of actions) this._act(a);
    this._arm();
  }

  _act(a) {
    const conn = a.relay >= 0 ? this._byIdx[a.relay] : undefined;
    switch (a.type) {
      case 'send':
        conn?.send(a.frame);
        break;
      case 'connect':
        conn?.use();
        break;
      case 'authenticate':
        // The core runs the AUTH (sign-auth, auth-status, auth-done) and resumes what waited on it.
        this._machine.authenticate(a.relay, this._clock.now(), a.deadline ?? this._clock.now() + this._opts.authTimeout);
        this._run();
        break;
      case 'sign-auth':
        if (conn) this._signAuth(conn, a);
        break;
      case 'auth-status':
        if (!conn) break;
        if (a.pubkey) conn.authPubkey = a.pubkey;
        conn._setState(a.state, a.code ? new NostrError(a.code, a.detail) : undefined);
        break;
      case 'auth-done':
        conn?._authDone(a.accepted === true);
        break;
      case 'settle':
        this._settle(a);
        break;
      case 'count-done':
        countDone(this, a);
        break;
      case 'eose':
        this._subs.get(a.subId)?._eose();
        break;
      case 'relay-closed': {
        const sub = this._subs.get(a.subId);
        if (sub) {
          const reason = { relay: conn ? conn.url : '', reason: a.reason, message: a.message };
          if (a.code) reason.code = a.code;
          sub.closeReasons.push(reason);
        }
        if (conn) this._release(conn);
        break;
      }
      case 'ended': {
        const sub = this._subs.get(a.subId);
        if (!sub) break;
        const summary = sub.closeReasons.map((c) => `${c.relay}: ${c.message}`).join('; ');
        this._closeSubscription(sub, null, new NostrError('RELAY_CLOSED', `every relay closed the subscription (${summary})`));
        break;
      }
      default:
        break;
    }
  }

  /** The signer signs the core's AUTH template; the core sends it (or fails the AUTH). */
  _signAuth(conn, a) {
    const signer = this._opts.signer;
    Promise.resolve()
      .then(() => signer.signEvent(a.template))
      .then(
        (signed) => {
          if (this._closed) return;
          this._machine.authSigned(conn.idx, a.round, eventJson(signed ?? {}), this._clock.now());
          this._run();
        },
        (err) => {
          if (this._closed) return;
          this._machine.authSignFailed(conn.idx, a.round, describe(err), this._clock.now());
          this._run();
        },
      );
  }

  /** One timer for the machine's next deadline (a retry after a transient CLOSED, a maxWait). */
  _arm() {
    if (this._closed || this._machine === null) return;
    const at = this._machine.nextDeadline();
    if (at === this._timerAt) return;
    this._clock.clear(this._timer);
    this._timer = null;
    this._timerAt = at;
    if (at === undefined) return;
    this._timer = this._clock.set(() => {
      this._timer = null;
      this._timerAt = undefined;
      if (this._closed) return;
      this._machine.timeout(this._clock.now());
      this._run();
    }, at - this._clock.now());
  }

  // --- Frames.

  _onOpen(conn) {
    this._machine.setLimits(conn.idx, conn.limits);
    this._machine.connected(conn.idx, this._clock.now());
    this._run();
  }

  _onDisconnect(conn) {
    this._flushFrames(conn); // what arrived before the drop is delivered as before
    if (this._closed || !this._machine) return;
    const reconnecting = !conn._final && this._opts.reconnect !== false && this._wants(conn);
    this._machine.dropped(conn.idx, reconnecting);
    this._run();
  }

  /** The relay waits for nothing now (closed, not reconnecting). */
  _onIdle(conn) {
    if (!this._closed && this._machine) this._machine.dropped(conn.idx, false);
  }

  // Frames that arrive together (a relay's stored events before EOSE, a query's results: Node's
  // `ws` hands over every frame of one socket read in one go) are fed to the core together at the
  // end of the current task, which checks their signatures in one BIP-340 batch. A live trickle
  // arrives one frame per task and goes through the single check as before (the core batches only
  // from a few signatures up). Order is kept: every frame of a connection goes through the queue.
  _onFrame(conn, data) {
    this.stats.frames++;
    let queue = this._backlog.get(conn);
    const max = this._opts.maxFrameBytes;
    if (typeof data !== 'string' || (max > 0 && data.length > max)) {
      if (queue) this._flushFrames(conn);
      this._onFrameNow(conn, data); // refused unparsed: nothing to batch
      return;
    }
    if (!queue) {
      queue = [];
      this._backlog.set(conn, queue);
      queueMicrotask(() => this._flushFrames(conn, true));
    }
    queue.push(data);
  }

  // endOfTask: the flush _onFrame scheduled; else a disconnect or an unbatchable frame, which
  // must find every earlier frame fed.
  _flushFrames(conn, endOfTask = false) {
    const frames = this._backlog.get(conn);
    this._backlog.delete(conn);
    if (this._closed) return; // as a frame arriving after close(): the machine is gone
    if (this._verifier?.take(conn, frames, endOfTask)) return; // verify-workers.js: checked in workers, fed in order
    if (!frames) return;
    if (frames.length === 1) {
      this._onFrameNow(conn, frames[0]);
      return;
    }
    this._feedBatch(conn, frames);
  }

  // Frames of one connection fed to the core together, in order; valid: a verification worker's
  // answer for them (verify-workers.js feeds its batches through here too), else undefined.
  _feedBatch(conn, frames, valid = undefined) {
    const m = this._machine;
    const n = frames.length;
    this.stats.batched += n;
    const packed = m.feedBatch(conn.idx, frames, this._clock.now(), valid);
    const events = m.batchEvents();
    let delivered = 0;
    // The actions of the whole batch, run after the outcome that decided each (marks at [n, 2n)).
    const actions = packed[2 * n - 1] > 0 ? m.actions() : [];
    let done = 0;
    for (let i = 0; i < n; i++) {
      if (this._closed) return; // an app callback closed the pool mid-batch
      this._onOutcome(conn, frames[i], packed[i], () => m.lastAt(i), (packed[i] & 15) === DELIVER ? events[delivered++] : undefined);
      const mark = packed[n + i];
      while (done < mark && !this._closed) this._act(actions[done++]);
    }
    this._arm();
  }

  _onFrameNow(conn, data) {
    if (typeof data !== 'string') {
      this._dropped(conn, { reason: 'malformed', subId: '', eventId: '', code: 'RELAY_FRAME_INVALID', message: 'binary frame' });
      return;
    }
    const m = this._machine;
    const packed = m.feed(conn.idx, data, this._clock.now());
    this._onOutcome(conn, data, packed, () => m.last(), m.event());
    if ((packed & ACTIONS) !== 0) this._run();
    // A refusal without actions may still set a retry deadline: a transient CLOSED (subscription)
    // or OK (publish: the resend waits for its backoff).
    else if ((packed & 15) === CLOSED_FRAME || (packed & 15) === OK) this._arm();
  }

  // d: {subId, event} of a delivery, as the core parsed and verified it (machine.js readEvents).
  _onOutcome(conn, data, packed, last, d) {
    const type = packed & 15;
    if (type === DELIVER) {
      this.stats.delivered++;
      this._subs.get(d.subId)?._deliver(d.event, conn.url);
      return;
    }
    switch (type) {
      case CLOSED_FRAME:
        // The machine decided what the CLOSED means for a subscription or a COUNT (actions).
        break;
      case DROPPED: {
        const reason = dropReasonOf(packed);
        if (reason === 'unknown-subscription' || this._has('drop')) {
          this._dropped(conn, last());
        } else this.stats.dropped[reason]++;
        break;
      }
      case OK:
        // The core settled what waited for it (a publish, our AUTH): actions.
        break;
      case NOTICE:
        this._emit('notice', { relay: conn.url, message: last().message });
        break;
      case AUTH:
        // The core keeps the challenge and answers it when asked to (or at once: eagerAuth).
        break;
      case COUNT_FRAME:
        // The answer to a COUNT: a count-done action (count.js); one nobody waits for is ignored.
        break;
      default:
        break;
    }
  }

  _dropped(conn, d) {
    this.stats.dropped[d.reason] = (this.stats.dropped[d.reason] || 0) + 1;
    this._emit('drop', { relay: conn.url, reason: d.reason, code: d.code, message: d.message, subId: d.subId, eventId: d.eventId });
  }

  // --- Subscriptions.

  /**
   * Subscribes to `filters` (one filter or an array) on `relays` (default: the pool's). Returns a
   * Subscription: callbacks onevent(event, relay), oneose(), onclose(reasons); also an async
   * iterator. Options: id (a label for the sub id), maxWait (ms before oneose fires anyway), signal.
   */
  subscribe(filters, opts = {}) {
    this._ensureOpen();
    relaysFirst(filters, 'subscribe');
    const list = Array.isArray(filters) ? filters : [filters];
    if (opts.maxWait !== undefined) checkMs(opts.maxWait, 'maxWait', { orInfinity: true });
    const conns = this._connsFor(opts.relays);
    const label = typeof opts.id === 'string' && opts.id.length > 0 ? opts.id.slice(0, 40) : 'sub';
    const id = `${label}:${(++this._nextSub).toString(36)}`;
    if (opts.signal?.aborted) throw abortError(opts.signal);
    const maxWait = opts.maxWait === undefined || opts.maxWait === Infinity ? -1 : opts.maxWait;
    // INVALID_FILTER, INVALID_ARGUMENT; the REQs, connects and an early EOSE come as actions.
    this._machine.subscribe(id, list, conns.map((c) => c.idx), this._clock.now(), maxWait);
    const sub = new Subscription(this, id, list, opts);
    this._subs.set(id, sub);
    for (const conn of conns) sub._conns.add(conn);
    if (opts.signal) {
      sub._signal = opts.signal;
      sub._onAbort = () =>
        this._closeSubscription(sub, { relay: '', reason: 'aborted', message: 'aborted' }, abortError(opts.signal));
      opts.signal.addEventListener('abort', sub._onAbort, { once: true });
    }
    this._run();
    return sub;
  }

  _closeSubscription(sub, reason, error) {
    if (sub.closed) return;
    this._subs.delete(sub.id);
    if (this._machine && !this._closed) {
      this._machine.unsubscribe(sub.id); // CLOSE where open; queued REQs move up (actions)
      this._run();
      for (const conn of sub._conns) this._release(conn);
    }
    if (reason) sub.closeReasons.push(reason);
    sub._end(error);
  }

  /**
   * Stored events matching `filters` until every relay sent EOSE (or `maxWait` ms), then closes.
   * Rejects with RELAY_CLOSED when every relay refused the subscription, ABORTED on `signal`.
   */
  query(filters, opts = {}) {
    return new Promise((resolve, reject) => {
      relaysFirst(filters, 'query');
      const events = [];
      let sub = null;
      let ended = false;
      const finish = () => {
        if (ended) return;
        ended = true;
        if (sub && !sub.closed) sub.close();
        resolve(events);
      };
      sub = this.subscribe(filters, {
        ...opts,
        onevent: (e) => events.push(e),
        oneose: finish,
        onclose: () => {
          if (ended) return;
          const err = sub._error;
          if (err) {
            ended = true;
            reject(err);
          } else finish();
        },
      });
      if (sub.eosed) finish();
    });
  }

  /** The newest event matching `filters`, or null. */
  async get(filters, opts = {}) {
    relaysFirst(filters, 'get');
    const list = (Array.isArray(filters) ? filters : [filters]).map((f) => ({ limit: 1, ...f }));
    const events = await this.query(list, opts);
    let best = null;
    for (const e of events) if (best === null || e.created_at > best.created_at) best = e;
    return best;
  }

  // --- Publishing.

  /**
   * Publishes a signed event to `relays` (default: the pool's). Resolves one outcome per relay:
   * {relay, status: 'accepted' | 'rejected' | 'timeout' | 'unreachable' | 'aborted', reason?,
   * message?, error?, attempts}. Rejects only for an invalid event (INVALID_EVENT, ID_MISMATCH,
   * INVALID_SIGNATURE) or when `signal` aborts (ABORTED). Options: timeout (ms, per relay, retries
   * included), retries (for transient refusals and lost connections), signal, onresult(outcome).
   */
  publish(event, opts = {}) {
    const p = Array.isArray(event) ? Promise.reject(relaysFirstError('publish')) : this._publishEvent(event, opts);
    p.catch(() => {}); // rejections reach whoever awaits; a publish nobody awaits never crashes Node
    return p;
  }

  async _publishEvent(event, opts) {
    this._ensureOpen();
    const invalid = verifyEventError(event);
    if (invalid) throw invalid;
    const { signal } = opts;
    if (signal?.aborted) throw abortError(signal);
    const conns = this._connsFor(opts.relays);
    const timeout = checkMs(opts.timeout ?? this._opts.publishTimeout, 'timeout', { orInfinity: true });
    const retries = checkMs(opts.retries ?? this._opts.publishRetries, 'retries', { integer: true });
    const now = this._clock.now();
    // The core decides every step (src/relay/subscriptions_publish.cpp); settle actions fill outcomes.
    const id = ++this._nextPublish;
    const p = { conns, outcomes: new Array(conns.length), left: conns.length, resolve: null, onresult: opts.onresult, signal, onAbort: null };
    const done = new Promise((resolve) => {
      p.resolve = resolve;
    });
    this._publishes.set(id, p);
    try {
      this._machine.publish(id, conns.map((c) => c.idx), eventJson(event), now, timeout === Infinity ? -1 : now + timeout, retries);
    } catch (err) {
      this._publishes.delete(id);
      throw err;
    }
    if (signal) {
      p.onAbort = () => {
        if (this._closed || !this._publishes.has(id)) return;
        this._machine.abortPublish(id);
        this._run();
      };
      signal.addEventListener('abort', p.onAbort, { once: true });
    }
    this._run();
    const outcomes = await done;
    if (signal?.aborted) throw abortError(signal);
    return outcomes;
  }

  /** A publish settled on one relay (settle action): its outcome, and the whole once all are in. */
  _settle(a) {
    const p = this._publishes.get(a.publish);
    if (!p) return;
    const i = p.conns.findIndex((c) => c.idx === a.relay);
    if (i < 0 || p.outcomes[i] !== undefined) return;
    const conn = p.conns[i];
    const out = { relay: conn.url, status: a.status, attempts: a.attempts };
    if (a.reason !== undefined) {
      out.reason = a.reason;
      out.message = a.message;
    }
    if (a.code === 'ABORTED') out.error = abortError(p.signal);
    else if (a.code === 'RELAY_UNREACHABLE' && !a.detail)
      out.error = new NostrError(a.code, conn.lastError ? conn.lastError.message : 'could not connect');
    else if (a.code) out.error = new NostrError(a.code, a.detail);
    p.outcomes[i] = out;
    if (p.onresult) this._call(p.onresult, out);
    if (--p.left === 0) {
      this._publishes.delete(a.publish);
      p.signal?.removeEventListener('abort', p.onAbort);
      p.resolve(p.outcomes);
    }
    if (!this._closed) this._release(conn);
  }

  // --- Closing.

  /**
   * Without arguments: closes every subscription (their iterators end), settles every pending
   * publish, clears every timer and closes every socket; resolves once the sockets are gone.
   * With relays: stops using those relays only.
   */
  close(relays) {
    if (relays !== undefined) {
      const gone = [];
      for (const url of relays) {
        const key = normalizeRelayUrl(url);
        const conn = this._conns.get(key);
        if (!conn) continue;
        this._conns.delete(key);
        // Each subscription is closed there (relay-closed actions; ended where it was the last).
        this._machine.removeRelay(conn.idx, 'relay removed from the pool');
        this._run();
        for (const sub of this._subs.values()) sub._conns.delete(conn);
        if (conn._idleTimer) this._clock.clear(conn._idleTimer);
        gone.push(conn.close());
        this._backlog.delete(conn); // unfed frames of a relay being removed go with it
        this._machine?.forget(conn.idx);
        this._byIdx[conn.idx] = undefined;
        this._info.delete(key);
      }
      return Promise.all(gone).then(() => {});
    }
    if (this._closing) return this._closing;
    this._closed = true;
    if (this._machine) {
      // Every publish settles 'aborted' (POOL_CLOSED).
      this._machine.closePublishes();
      for (const a of this._machine.actions()) {
        if (a.type === 'settle') this._settle(a);
        else if (a.type === 'count-done') countDone(this, a);
      }
    }
    for (const sub of [...this._subs.values()]) this._closeSubscription(sub, { relay: '', reason: 'closed', message: 'pool closed' });
    this._abort.abort();
    const gone = [...this._conns.values()].map((c) => c.close());
    this._clock.closeAll();
    this._timer = null;
    this._machine?.delete();
    this._closing = Promise.all(gone).then(() => {});
    return this._closing;
  }
}
