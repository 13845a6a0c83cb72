// Relay: one relay in nostr-tools' shape (`Relay.connect(url)`, relay.subscribe(filters, params),
// relay.publish(event) resolving with the relay's OK message). It is a view of one URL of a
// RelayPool: a Relay of its own owns a one-relay pool; SimplePool.ensureRelay() returns views of
// the SimplePool's pool. Reconnects, verification and dedupe are the pool's.
import { NostrError } from '../errors.js';
import { normalizeRelayUrl } from './codec.js';
import { countOn } from './count.js';
import { RelayPool } from './pool.js';

const OPEN_STATES = /* @__PURE__ */ new Set(['open', 'authenticating', 'auth-required']);
const VIEW = /* @__PURE__ */ Symbol('nostr-agents.Relay.view');

/** nostr-tools' default EOSE wait and publish wait of a relay (ms). */
export const BASE_EOSE_TIMEOUT = 4400;
export const PUBLISH_TIMEOUT = 4400;

let defaultWebSocket;

/** nostr-tools' useWebSocketImplementation: the WebSocket class new pools and relays use (e.g. `ws` in Node). */
export function useWebSocketImplementation(websocketImplementation) {
  defaultWebSocket = websocketImplementation;
}

export function webSocketDefault() {
  return defaultWebSocket;
}

/**
 * The RelayPool options of nostr-tools' constructor options: reconnect and ping stay on unless
 * `enableReconnect: false` / `enablePing: false` (nostr-tools has both off by default).
 */
export function poolOptions(opts, extra = {}) {
  if (opts === null || typeof opts !== 'object') throw new NostrError('INVALID_ARGUMENT', 'options must be an object');
  const o = { ...extra };
  const ws = opts.websocketImplementation ?? defaultWebSocket;
  if (ws !== undefined) o.WebSocket = ws;
  if (opts.enableReconnect === false) o.reconnect = false;
  if (opts.enablePing === false) o.ping = false;
  if (opts.verifyWorkers !== undefined) o.verifyWorkers = opts.verifyWorkers; // RelayPool's option
  return o;
}

/** A signer for the pool's NIP-42 answers that asks `lookup(relayUrl)` for the app's sign function. */
export function authSigner(lookup) {
  return {
    async getPublicKey() {
      throw new NostrError('SIGNER_UNAVAILABLE', 'this signer only answers NIP-42 challenges');
    },
    async signEvent(template) {
      const url = template.tags.find((t) => t[0] === 'relay')?.[1];
      const sign = lookup(url);
      if (typeof sign !== 'function')
        throw new NostrError('AUTH_REQUIRED', `${url} asks for NIP-42 authentication and no onauth (or automaticallyAuth) answers it`);
      return sign(template);
    },
  };
}

/** The reason string nostr-tools gives onclose for one relay: the relay's CLOSED message, else `fallback`. */
export function closeReasonFor(url, reasons, fallback) {
  const r = reasons.find((x) => x.relay === url);
  if (r) return r.message || r.reason;
  return fallback;
}

/** An error for an outcome of RelayPool.publish that was not 'accepted', with the relay's reason. */
export function publishError(outcome) {
  const err = outcome.error ?? new NostrError('RELAY_REJECTED', `${outcome.relay}: ${outcome.message || outcome.reason}`);
  if (outcome.reason !== undefined && err.reason === undefined) err.reason = outcome.reason;
  if (err.relay === undefined) err.relay = outcome.relay;
  return err;
}

/** One subscription on one relay, as nostr-tools' Subscription: id, filters, closed, eosed, close(reason). */
class RelaySubscription {
  constructor(relay, filters, params) {
    this.relay = relay;
    this.filters = filters;
    this.closed = false;
    this.eosed = false;
    this.onevent = params.onevent;
    this.oneose = params.oneose;
    this.onclose = params.onclose;
    this._reason = undefined;
    const label = params.id ?? params.label;
    this._sub = relay._pool.subscribe(filters, {
      relays: [relay.url],
      id: typeof label === 'string' ? label : undefined,
      maxWait: params.eoseTimeout ?? relay.baseEoseTimeout,
      signal: params.abort,
      onevent: (event) => {
        if (params.alreadyHaveEvent?.(event.id)) return;
        params.receivedEvent?.(relay, event.id);
        this.onevent?.(event);
      },
      oneose: () => {
        this.eosed = true;
        this.oneose?.();
      },
      onclose: (reasons) => {
        this.closed = true;
        relay.openSubs.delete(this.id);
        this.onclose?.(closeReasonFor(relay.url, reasons, this._reason ?? 'relay connection closed'));
      },
    });
    this.id = this._sub.id;
    relay.openSubs.set(this.id, this);
  }

  /** nostr-tools sends the REQ here; the pool sent it already. */
  fire() {}

  /** Sends CLOSE; onclose(reason) follows. */
  close(reason = 'closed by caller') {
    if (this.closed) return;
    this._reason = reason;
    this._sub.close(reason);
  }
}

export class Relay {
  /**
   * `new Relay(url, { enableReconnect, enablePing, websocketImplementation })` (nostr-tools'
   * options; reconnect and ping are on unless set to false). connect() opens it.
   */
  constructor(url, opts = {}) {
    if (typeof url !== 'string') throw new NostrError('INVALID_ARGUMENT', 'Relay takes a relay URL (a ws:// or wss:// string)');
    this.url = normalizeRelayUrl(url); // RELAY_URL_INVALID
    this.onclose = null;
    this.onnotice = () => {};
    this.onauth = undefined;
    this.baseEoseTimeout = BASE_EOSE_TIMEOUT;
    this.publishTimeout = PUBLISH_TIMEOUT;
    this.openSubs = new Map();
    const view = opts[VIEW];
    if (view) {
      this._pool = view.pool;
      this._owner = view.owner;
    } else {
      this._owner = null;
      this._pool = new RelayPool(poolOptions(opts, { keepAlive: true, signer: authSigner(() => this.onauth) }));
      this._pool.on('status', (s) => this._onStatus(s));
      this._pool.on('notice', (n) => this.onnotice?.(n.message));
    }
  }

  /** A view of `url` on a SimplePool's pool (SimplePool.ensureRelay). */
  static _view(owner, pool, url) {
    return new Relay(url, { [VIEW]: { owner, pool } });
  }

  /** `await Relay.connect(url, options)`: a connected Relay. */
  static async connect(url, opts = {}) {
    const relay = new Relay(url, opts);
    await relay.connect(opts);
    return relay;
  }

  /** nostr-tools' ping settings (ms), read when a connection opens: the pool's ping interval and timeout. */
  get pingFrequency() {
    return this._pool._opts.ping ? this._pool._opts.ping.interval : 0;
  }

  set pingFrequency(ms) {
    if (this._pool._opts.ping) this._pool._opts.ping.interval = ms;
  }

  get pingTimeout() {
    return this._pool._opts.ping ? this._pool._opts.ping.timeout : 0;
  }

  set pingTimeout(ms) {
    if (this._pool._opts.ping) this._pool._opts.ping.timeout = ms;
  }

  get connected() {
    return !this._pool.closed && OPEN_STATES.has(this._pool.status(this.url).state);
  }

  _onStatus(s) {
    if (s.state === 'closed' && s.previous !== 'closed') this.onclose?.();
  }

  /** Connects (RELAY_UNREACHABLE after `timeout` ms, default the pool's connectTimeout; ABORTED on `abort`). */
  async connect({ timeout, abort } = {}) {
    await this._pool.ensureRelay(this.url, { timeout, signal: abort });
  }

  /** Opens a subscription here: params onevent, oneose, onclose(reason), eoseTimeout, abort, id, label. */
  subscribe(filters, params = {}) {
    if (params === null || typeof params !== 'object') throw new NostrError('INVALID_ARGUMENT', 'subscribe(filters, params): params must be an object');
    const list = Array.isArray(filters) ? filters : [filters];
    return new RelaySubscription(this, list, params);
  }

  /** Same as subscribe: the REQ goes out at once (or when connected). */
  prepareSubscription(filters, params = {}) {
    return this.subscribe(filters, params);
  }

  /**
   * Publishes a signed event here: resolves with the relay's OK message; rejects with a NostrError
   * (RELAY_REJECTED with `reason` and `relay`, RELAY_TIMEOUT, RELAY_UNREACHABLE, INVALID_EVENT...).
   */
  async publish(event) {
    const [outcome] = await this._pool.publish(event, { relays: [this.url], timeout: this.publishTimeout });
    if (outcome.status === 'accepted') return outcome.message ?? '';
    throw publishError(outcome);
  }

  /** Answers the relay's NIP-42 challenge with `signAuthEvent(template)`; resolves once accepted. */
  async auth(signAuthEvent) {
    if (typeof signAuthEvent !== 'function') throw new NostrError('INVALID_ARGUMENT', 'auth(signAuthEvent): a function that signs the AUTH template');
    const previous = this.onauth;
    this.onauth = signAuthEvent;
    this._owner?._authFns.set(this.url, signAuthEvent);
    try {
      const conn = this._pool._conn(this.url);
      const ok = await conn.authenticate();
      if (!ok) throw conn.lastError ?? new NostrError('AUTH_FAILED', `${this.url} did not accept AUTH`);
      return '';
    } finally {
      if (previous !== undefined) this.onauth = previous;
    }
  }

  /** NIP-45: the number of events matching `filters`. */
  async count(filters, params = {}) {
    return (await this.countWithHLL(filters, params)).count;
  }

  /** NIP-45: {count, hll?}. */
  async countWithHLL(filters, params = {}) {
    const r = await countOn(this._pool, this.url, filters, { id: params.id ?? undefined, timeout: this.publishTimeout });
    return r.hll === undefined ? { count: r.count } : { count: r.count, hll: r.hll };
  }

  /** Sends a raw frame; RELAY_NOT_CONNECTED when the relay is not open. */
  async send(message) {
    if (!this._pool._conn(this.url).send(message)) throw new NostrError('RELAY_NOT_CONNECTED', `${this.url} is not connected`);
  }

  /** Closes the connection for good (and its subscriptions). */
  close() {
    if (this._owner) return this._owner.close([this.url]);
    return this._pool.close();
  }
}
