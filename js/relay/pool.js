// RelayPool: one pool over many relays, shaped like nostr-tools' SimplePool. The protocol work
// (frame parsing, dedupe, filter re-check, signature verification, resubscribe `since`, OK and
// CLOSED reasons, the NIP-42 event) is the core's subscription machine; this file owns the I/O:
// sockets, timers, retries and the app-facing callbacks.
import { NostrError } from '../errors.js';
import { verifiedSymbol, verifyEventError } from '../event.js';
import { encodeEvent, encodeReq, normalizeRelayUrl } from './codec.js';
import { RelayConnection, LOST } from './connection.js';
import {
  SubscriptionMachine,
  DELIVER,
  EOSE,
  CLOSED as CLOSED_FRAME,
  DROPPED,
  OK,
  NOTICE,
  AUTH,
  FLAG,
  COUNT as COUNT_FRAME,
  dropReasonOf,
  isTransientReason,
} from './machine.js';
import { fetchRelayInfo } from './nip11.js';
import { countKey } from './count.js';
import { isReady } from '../core.js';
import { Subscription } from './subscription.js';
import { CLOSED, Clock, TIMEOUT, abortError, backoffDelay } from './wait.js';
import { resolveWebSocket } from './websocket.js';

const DEFAULTS = {
  relays: [],
  WebSocket: undefined,
  signer: undefined,
  eagerAuth: false,
  reconnect: { initialDelay: 500, maxDelay: 30_000, factor: 2, jitter: 0.5, stableAfter: 5_000 },
  retry: { initialDelay: 250, maxDelay: 5_000, factor: 2, jitter: 0.5 },
  connectTimeout: 10_000,
  ping: { interval: 30_000, timeout: 10_000 },
  publishTimeout: 10_000,
  publishRetries: 3,
  subscriptionRetries: 3,
  authTimeout: 10_000,
  relayInfo: true,
  infoTimeout: 3_000,
  fetch: undefined,
  maxFrameBytes: 1 << 20,
  seenCap: 4096,
  resubscribeOverlap: 60,
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
  opts.reconnect = o.reconnect === false ? false : { ...DEFAULTS.reconnect, ...given(o.reconnect) };
  opts.retry = { ...DEFAULTS.retry, ...given(o.retry) };
  opts.ping = o.ping === false ? false : { ...DEFAULTS.ping, ...given(o.ping) };
  if (opts.signer !== undefined && (opts.signer === null || typeof opts.signer.signEvent !== 'function'))
    throw new NostrError('INVALID_ARGUMENT', 'signer must have signEvent(template)');
  if (!Array.isArray(opts.relays) || !opts.relays.every((r) => typeof r === 'string'))
    throw new NostrError('INVALID_ARGUMENT', 'relays must be an array of relay URLs');
  // RELAY_URL_INVALID now rather than a silent failure later (before init(), at first use).
  if (isReady()) for (const url of opts.relays) normalizeRelayUrl(url);
  for (const k of MS_OPTIONS) checkMs(opts[k], k);
  if (opts.idleTimeout !== false) checkMs(opts.idleTimeout, 'idleTimeout');
  for (const k of COUNT_OPTIONS) checkMs(opts[k], k, { integer: true });
  for (const [group, value] of [['reconnect', opts.reconnect], ['retry', opts.retry], ['ping', opts.ping]])
    if (value !== false) for (const [k, v] of Object.entries(value)) checkMs(v, `${group}.${k}`);
  return opts;
}

/**
 * Whether a refusal asks for NIP-42 AUTH: `auth-required:`, or `restricted:` from a relay that has
 * challenged this connection we have not answered yet (some relays, @nostr-relay/core among them,
 * refuse unauthenticated readers of DMs that way).
 */
function needsAuth(reason, conn) {
  return reason === 'auth-required' || (reason === 'restricted' && conn._challenge !== undefined && conn._auth !== 'authenticated');
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

const GIFT_WRAP = 1059;
const matchesWraps = (f) => Array.isArray(f.kinds) && f.kinds.includes(GIFT_WRAP);

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
    this._backlog = new Map(); // connection -> text frames received this task, not yet fed
    this._listeners = new Map();
    this._info = new Map(); // url -> Promise of the NIP-11 document
    this._abort = new AbortController();
    this._configured = new Set(this._opts.relays.map((url) => normalizeRelayUrl(url)));
    this._nextSub = 0;
    this._closed = false;
    this._closing = null;
    this._ws = null;
    this.stats = { frames: 0, batched: 0, delivered: 0, dropped: Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) };
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
    if (this._machine === null)
      this._machine = new SubscriptionMachine({
        seenCap: this._opts.seenCap,
        overlap: this._opts.resubscribeOverlap,
        maxFrameBytes: this._opts.maxFrameBytes,
      });
  }

  _webSocket() {
    if (!this._ws) this._ws = resolveWebSocket(this._opts.WebSocket);
    return this._ws;
  }

  _relayInfo(url) {
    let p = this._info.get(url);
    if (!p) {
      p = fetchRelayInfo(url, { timeout: this._opts.infoTimeout, fetch: this._opts.fetch, signal: this._abort.signal });
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
    for (const sub of conn.subs) if (sub._relays.get(conn)?.state !== 'closed') return true;
    return false;
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

  _onOpen(conn) {
    for (const sub of conn.subs) {
      const rs = sub._relays.get(conn);
      rs.authTried = false;
      rs.retries = 0;
      if (rs.state !== 'closed') {
        rs.state = 'waiting';
        this._sendReq(sub, conn);
      }
    }
  }

  _onDisconnect(conn) {
    this._flushFrames(conn); // what arrived before the drop is delivered as before
    if (this._machine) this._machine.disconnected(conn.idx);
    for (const sub of conn.subs) {
      const rs = sub._relays.get(conn);
      if (rs.state === 'sent' || rs.state === 'queued') rs.state = 'waiting';
      if (!rs.eose) {
        // A relay that is down cannot hold up "end of stored events" for the others.
        rs.eose = true;
        sub._checkEose();
      }
    }
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
      queueMicrotask(() => this._flushFrames(conn));
    }
    queue.push(data);
  }

  _flushFrames(conn) {
    const frames = this._backlog.get(conn);
    if (!frames) return;
    this._backlog.delete(conn);
    if (this._closed) return; // as a frame arriving after close(): the machine is gone
    if (frames.length === 1) {
      this._onFrameNow(conn, frames[0]);
      return;
    }
    const m = this._machine;
    this.stats.batched += frames.length;
    const packed = m.feedBatch(conn.idx, frames);
    for (let i = 0; i < frames.length; i++) {
      if (this._closed) return; // an app callback closed the pool mid-batch
      this._onOutcome(conn, frames[i], packed[i], () => m.lastAt(i));
    }
  }

  _onFrameNow(conn, data) {
    if (typeof data !== 'string') {
      this._dropped(conn, { reason: 'malformed', subId: '', eventId: '', code: 'RELAY_FRAME_INVALID', message: 'binary frame' });
      return;
    }
    const m = this._machine;
    this._onOutcome(conn, data, m.feed(conn.idx, data), () => m.last());
  }

  _onOutcome(conn, data, packed, last) {
    const type = packed & 15;
    if (type === DELIVER) {
      // The core verified these very bytes; parse them here rather than copying the event out.
      const frame = JSON.parse(data);
      const sub = this._subs.get(frame[1]);
      const e = frame[2];
      const event = { kind: e.kind, tags: e.tags, content: e.content, created_at: e.created_at, pubkey: e.pubkey, id: e.id, sig: e.sig };
      event[verifiedSymbol] = true;
      this.stats.delivered++;
      if (sub) sub._deliver(event, conn.url);
      return;
    }
    switch (type) {
      case EOSE: {
        const sub = this._subs.get(last().subId);
        if (sub) sub._relayEose(conn);
        break;
      }
      case CLOSED_FRAME:
        this._onClosed(conn, last());
        break;
      case DROPPED: {
        const reason = dropReasonOf(packed);
        if (reason === 'unknown-subscription' || this._has('drop')) {
          const d = last();
          if (RelayConnection.isProbe(d.subId)) {
            conn.send(JSON.stringify(['CLOSE', d.subId]));
            return;
          }
          this._dropped(conn, d);
        } else this.stats.dropped[reason]++;
        break;
      }
      case OK: {
        const d = last();
        d.accepted = (packed & FLAG) !== 0;
        conn._onOk(d);
        break;
      }
      case NOTICE:
        this._emit('notice', { relay: conn.url, message: last().message });
        break;
      case AUTH:
        conn._onChallenge(last().challenge);
        break;
      case COUNT_FRAME: {
        // The answer to a count (count.js); a COUNT nobody waits for is ignored.
        const d = last();
        this._countWaits?.get(countKey(conn, d.subId))?.fire({ count: d.count, approximate: (packed & FLAG) !== 0, frame: data });
        break;
      }
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
    this._machine.open(id, list); // INVALID_FILTER, INVALID_ARGUMENT
    const sub = new Subscription(this, id, list, opts);
    this._subs.set(id, sub);
    for (const conn of conns) {
      sub._relays.set(conn, { state: 'waiting', eose: conn.state === 'backing-off', authTried: false, retries: 0 });
      conn.subs.add(sub);
    }
    if (opts.signal) {
      sub._signal = opts.signal;
      sub._onAbort = () =>
        this._closeSubscription(sub, { relay: '', reason: 'aborted', message: 'aborted' }, abortError(opts.signal));
      opts.signal.addEventListener('abort', sub._onAbort, { once: true });
    }
    if (opts.maxWait !== undefined && opts.maxWait !== Infinity) sub._timer = this._clock.set(() => sub._checkEose(true), opts.maxWait);
    for (const conn of conns) {
      if (conn.isOpen) this._sendReq(sub, conn);
      else conn.use();
    }
    sub._checkEose();
    return sub;
  }

  _sendReq(sub, conn) {
    const rs = sub._relays.get(conn);
    if (!rs || sub.closed || rs.state === 'closed' || !conn.isOpen) return;
    const { maxFilters, maxSubscriptions } = conn.limits;
    if (maxFilters && sub.filters.length > maxFilters) {
      this._closeOnRelay(sub, conn, {
        reason: 'too-many-filters',
        code: 'TOO_MANY_FILTERS',
        message: `${conn.url} accepts at most ${maxFilters} filters per subscription (NIP-11)`,
      });
      return;
    }
    if (rs.state !== 'sent' && maxSubscriptions && conn.activeReqs >= maxSubscriptions) {
      if (rs.state !== 'queued') conn.queue.push(sub);
      rs.state = 'queued';
      return;
    }
    let frame = this._machine.reqFor(sub.id, conn.idx, this._clock.nowSeconds());
    // NIP-59 dates gift wraps at random up to two days back: the newest one seen says nothing
    // about which were missed, so filters for wraps resubscribe with their own since.
    if (frame && sub.filters.some(matchesWraps)) {
      const adjusted = JSON.parse(frame).slice(2);
      frame = encodeReq(sub.id, adjusted.map((f, i) => (matchesWraps(sub.filters[i]) ? sub.filters[i] : f)));
    }
    if (conn.tooLarge(frame)) {
      this._closeOnRelay(sub, conn, {
        reason: 'too-large',
        code: 'MESSAGE_TOO_LARGE',
        message: `REQ of ${frame.length}+ bytes is over ${conn.url}'s max_message_length (NIP-11)`,
      });
      return;
    }
    if (rs.state !== 'sent') conn.activeReqs++;
    rs.state = 'sent';
    conn.send(frame);
  }

  _flushQueue(conn) {
    const max = conn.limits.maxSubscriptions;
    while (conn.queue.length > 0 && (!max || conn.activeReqs < max)) {
      const sub = conn.queue.shift();
      const rs = sub._relays.get(conn);
      if (rs && rs.state === 'queued' && !sub.closed) {
        rs.state = 'waiting';
        this._sendReq(sub, conn);
      }
    }
  }

  _onClosed(conn, d) {
    if (RelayConnection.isProbe(d.subId)) return;
    const countWait = this._countWaits?.get(countKey(conn, d.subId));
    if (countWait) return countWait.fire({ closed: d });
    const sub = this._subs.get(d.subId);
    const rs = sub && sub._relays.get(conn);
    if (!rs || rs.state === 'closed') return;
    if (rs.state === 'sent') {
      conn.activeReqs--;
      this._flushQueue(conn);
    }
    rs.state = 'waiting';
    if (needsAuth(d.reason, conn) && !rs.authTried) {
      rs.authTried = true;
      const sock = conn.sock;
      conn
        .authenticate()
        .then((ok) => {
          if (conn.sock !== sock || sub.closed || rs.state !== 'waiting') return;
          if (ok) this._sendReq(sub, conn);
          else this._closeOnRelay(sub, conn, d);
        })
        .catch((err) => this._emit('error', err));
      return;
    }
    if (isTransientReason(d.reason) && rs.retries < this._opts.subscriptionRetries) {
      const delay = backoffDelay(rs.retries++, this._opts.retry, this._clock.random);
      const sock = conn.sock;
      this._clock
        .sleep(delay)
        .then((r) => {
          if (r === undefined && conn.sock === sock && !sub.closed && rs.state === 'waiting') this._sendReq(sub, conn);
        })
        .catch((err) => this._emit('error', err));
      return;
    }
    this._closeOnRelay(sub, conn, d);
  }

  /** The subscription is over on one relay (CLOSED, or a local limit). */
  _closeOnRelay(sub, conn, d) {
    const rs = sub._relays.get(conn);
    if (!rs || sub.closed) return;
    rs.state = 'closed';
    rs.eose = true;
    const reason = { relay: conn.url, reason: d.reason, message: d.message };
    if (d.code) reason.code = d.code;
    sub.closeReasons.push(reason);
    this._release(conn);
    for (const r of sub._relays.values()) if (r.state !== 'closed') return sub._checkEose();
    const summary = sub.closeReasons.map((c) => `${c.relay}: ${c.message}`).join('; ');
    this._closeSubscription(sub, null, new NostrError('RELAY_CLOSED', `every relay closed the subscription (${summary})`));
  }

  _closeSubscription(sub, reason, error) {
    if (sub.closed) return;
    this._subs.delete(sub.id);
    if (this._machine && !this._closed) {
      let action;
      try {
        action = this._machine.close(sub.id);
      } catch {
        action = undefined;
      }
      if (action)
        for (const idx of action.relays) {
          const conn = this._byIdx[idx];
          if (conn && conn.isOpen) conn.send(action.frame);
        }
    }
    for (const [conn, rs] of sub._relays) {
      if (rs.state === 'sent') conn.activeReqs--;
      conn.subs.delete(sub);
      if (rs.state === 'queued') conn.queue.splice(conn.queue.indexOf(sub), 1);
      if (!this._closed) {
        this._flushQueue(conn);
        this._release(conn);
      }
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
    const deadline = this._clock.now() + timeout;
    const frame = encodeEvent(event);
    const outcomes = await Promise.all(
      conns.map((conn) =>
        this._publishTo(conn, event, frame, deadline, retries, signal).then((r) => {
          if (opts.onresult) this._call(opts.onresult, r);
          return r;
        }),
      ),
    );
    if (signal?.aborted) throw abortError(signal);
    return outcomes;
  }

  async _publishTo(conn, event, frame, deadline, retries, signal) {
    let sends = 0;
    let failures = 0;
    let authTried = false;
    const clock = this._clock;
    const out = (status, extra) => ({ relay: conn.url, status, attempts: sends, ...extra });
    const closedOut = () => out('aborted', { error: new NostrError('POOL_CLOSED', 'the pool was closed') });
    const timeoutOut = () =>
      out('timeout', { error: new NostrError('RELAY_TIMEOUT', `${conn.url} did not answer within the timeout`) });
    conn.holds++;
    try {
      for (;;) {
        if (!conn.isOpen) {
          const r = await conn.whenOpen(deadline, signal);
          if (r === CLOSED) return closedOut();
          if (r !== true) {
            if (sends > 0) return timeoutOut();
            const why = conn.lastError ? conn.lastError.message : 'could not connect';
            return out('unreachable', { error: new NostrError('RELAY_UNREACHABLE', why) });
          }
        }
        if (conn.tooLarge(frame))
          return out('rejected', {
            reason: 'too-large',
            message: `event is over ${conn.url}'s max_message_length of ${conn.limits.maxMessageLength} bytes (NIP-11)`,
            error: new NostrError('MESSAGE_TOO_LARGE', `${conn.url} accepts messages of at most ${conn.limits.maxMessageLength} bytes`),
          });
        const w = conn.waitOk(event.id, deadline, signal);
        sends++;
        if (!conn.send(frame)) w.fire(LOST);
        const r = await w.promise;
        if (r === CLOSED) return closedOut();
        if (r === TIMEOUT) return timeoutOut();
        if (r === LOST) {
          // The connection dropped before the OK: wait for the reconnect and send again.
          if (++failures > retries)
            return out('unreachable', { error: new NostrError('RELAY_CONNECTION_LOST', `${conn.url}: connection lost before OK`) });
          continue;
        }
        const info = { reason: r.reason, message: r.message };
        if (r.accepted) return out('accepted', info);
        // A duplicate after a resend: the first send reached the relay after all.
        if (r.reason === 'duplicate' && sends > 1) return out('accepted', info);
        if (needsAuth(r.reason, conn) && !authTried && this._opts.signer) {
          authTried = true;
          const w = clock.wait(deadline, signal); // abortable, while the shared AUTH runs on
          conn.authenticate(deadline).then((ok) => w.fire(ok));
          const ok = await w.promise;
          if (ok === CLOSED) return closedOut();
          if (ok === true) continue;
        } else if (r.reason === 'auth-required' && !this._opts.signer) {
          conn.authenticate(); // no signer: shows the relay as auth-required
        } else if (isTransientReason(r.reason) && failures < retries) {
          const delay = backoffDelay(failures++, this._opts.retry, clock.random);
          const s = await clock.sleep(delay, deadline, signal);
          if (s === CLOSED) return closedOut();
          if (s === undefined) continue;
        }
        return out('rejected', { ...info, error: new NostrError('RELAY_REJECTED', `${conn.url}: ${r.message || r.reason}`) });
      }
    } catch (err) {
      if (err instanceof NostrError && err.code === 'ABORTED') return out('aborted', { error: err });
      throw err;
    } finally {
      conn.holds--;
      this._release(conn);
    }
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
        for (const sub of [...conn.subs]) {
          const rs = sub._relays.get(conn);
          if (rs && rs.state !== 'closed') this._closeOnRelay(sub, conn, { reason: 'closed', message: 'relay removed from the pool' });
          sub._relays.delete(conn);
          conn.subs.delete(sub);
        }
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
    for (const sub of [...this._subs.values()]) this._closeSubscription(sub, { relay: '', reason: 'closed', message: 'pool closed' });
    this._abort.abort();
    const gone = [...this._conns.values()].map((c) => c.close());
    this._clock.closeAll();
    this._machine?.delete();
    this._closing = Promise.all(gone).then(() => {});
    return this._closing;
  }
}
