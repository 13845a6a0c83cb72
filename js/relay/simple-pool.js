// SimplePool: nostr-tools' pool (2.x: subscribe(relays, filter, params), querySync, get, publish
// returning one Promise per relay...) on a RelayPool, so a nostr-tools app ports by changing its
// imports. What the RelayPool does stays on: events are verified (in the core), deduplicated
// across relays, relays reconnect with backoff and resubscribe from where they were.
import { NostrError } from '../errors.js';
import { normalizeRelayUrl } from './codec.js';
import { countOn, mergeHllHex } from './count.js';
import { RelayPool } from './pool.js';
import { BASE_EOSE_TIMEOUT, PUBLISH_TIMEOUT, Relay, authSigner, closeReasonFor, poolOptions, publishError } from './relay.js';

export { useWebSocketImplementation } from './relay.js';

const noop = () => {};

/** NIP-45 countMany directives (nostr-tools' getCountManyFilter). */
const COUNT_DIRECTIVES = {
  reactions: (t) => ({ '#e': [t], kinds: [7] }),
  reposts: (t) => ({ '#e': [t], kinds: [6] }),
  quotes: (t) => ({ '#q': [t], kinds: [1, 1111] }),
  replies: (t) => ({ '#e': [t], kinds: [1] }),
  comments: (t) => ({ '#E': [t], kinds: [1111] }),
  followers: (t) => ({ '#p': [t], kinds: [3] }),
};

/**
 * The relays argument, or a typed error: INVALID_ARGUMENT naming the relays-first order when the
 * caller passed RelayPool's (filter, options) order, RELAY_URL_INVALID for a URL that is not ws(s).
 */
function relayUrls(relays, method) {
  if (!Array.isArray(relays) || !relays.every((r) => typeof r === 'string')) {
    const hint = relays !== null && typeof relays === 'object' && !Array.isArray(relays) ? ` (got ${method === 'publish' ? 'an event' : 'a filter'} first)` : '';
    throw new NostrError('INVALID_ARGUMENT', `SimplePool.${method} takes the relays first: ${method}(relays: string[], ...)${hint}`);
  }
  return relays.map((url) => normalizeRelayUrl(url));
}

function paramsOf(params, method) {
  if (params === undefined) return {};
  if (params === null || typeof params !== 'object') throw new NostrError('INVALID_ARGUMENT', `SimplePool.${method}: params must be an object`);
  return params;
}

function filtersOf(filter, method) {
  const list = Array.isArray(filter) ? filter : [filter];
  if (list.length === 0 || !list.every((f) => f !== null && typeof f === 'object' && !Array.isArray(f)))
    throw new NostrError('INVALID_FILTER', `SimplePool.${method}: a filter is an object such as { kinds: [1], limit: 10 }`);
  return list;
}

export class SimplePool {
  /**
   * nostr-tools' options: enableReconnect and enablePing (both on here unless false),
   * maxWaitForConnection (ms, default 3000), automaticallyAuth(url) => sign function or null,
   * onRelayConnectionFailure(url), onRelayConnectionSuccess(url), allowConnectingToRelay(url,
   * operation), websocketImplementation. `pool`: an existing RelayPool to build on (not closed by
   * destroy()).
   */
  constructor(opts = {}) {
    if (opts === null || typeof opts !== 'object') throw new NostrError('INVALID_ARGUMENT', 'SimplePool options must be an object');
    this.maxWaitForConnection = opts.maxWaitForConnection || 3000;
    this.automaticallyAuth = opts.automaticallyAuth;
    this.onRelayConnectionFailure = opts.onRelayConnectionFailure;
    this.onRelayConnectionSuccess = opts.onRelayConnectionSuccess;
    this.allowConnectingToRelay = opts.allowConnectingToRelay;
    this.trackRelays = false;
    this.seenOn = new Map();
    this._relays = new Map(); // url -> Relay view
    this._authFns = new Map(); // url -> the sign function of the latest call with onauth there
    this._active = new Map(); // url -> operations in progress
    this._idleSince = new Map(); // url -> ms when its last operation ended
    this._records = new Set(); // open subscribeMap calls
    if (opts.pool instanceof RelayPool) {
      this._pool = opts.pool;
      this._ownsPool = false;
    } else {
      this._pool = new RelayPool(
        poolOptions(opts, {
          connectTimeout: this.maxWaitForConnection,
          signer: authSigner((url) => this._authFns.get(url) ?? this.automaticallyAuth?.(url) ?? this._relays.get(url)?.onauth),
        }),
      );
      this._ownsPool = true;
    }
    this._pool.on('status', (s) => this._onStatus(s));
    this._pool.on('notice', (n) => this._relays.get(n.relay)?.onnotice?.(n.message));
  }

  /** The RelayPool underneath (status(), 'drop' events, stats...). */
  get relayPool() {
    return this._pool;
  }

  _onStatus(s) {
    if (s.state !== 'closed' || s.previous === 'closed') return;
    this._relays.get(s.relay)?.onclose?.();
    // Not reconnecting (enableReconnect: false, or a relay that failed): nostr-tools closes the
    // subscriptions there with the connection's error.
    if (s.error) for (const rec of [...this._records]) rec.relayGone(s.relay, s.error.message);
  }

  _begin(url) {
    this._active.set(url, (this._active.get(url) ?? 0) + 1);
  }

  _end(url) {
    const n = (this._active.get(url) ?? 1) - 1;
    if (n > 0) this._active.set(url, n);
    else {
      this._active.delete(url);
      this._idleSince.set(url, this._pool._clock.now());
    }
  }

  _relay(url) {
    let r = this._relays.get(url);
    if (!r) this._relays.set(url, (r = Relay._view(this, this._pool, url)));
    return r;
  }

  _track(id, url) {
    if (!this.trackRelays) return;
    let set = this.seenOn.get(id);
    if (!set) this.seenOn.set(id, (set = new Set()));
    set.add(this._relay(url));
  }

  /** Connects to `url` (RELAY_UNREACHABLE after connectionTimeout ms, ABORTED on abort); resolves its Relay. */
  async ensureRelay(url, params = {}) {
    if (typeof url !== 'string') throw new NostrError('INVALID_ARGUMENT', 'ensureRelay(url): a relay URL');
    const key = normalizeRelayUrl(url);
    const relay = this._relay(key);
    await this._pool.ensureRelay(key, { timeout: params.connectionTimeout ?? this.maxWaitForConnection, signal: params.abort });
    if (this._idleSince.get(key) === undefined) this._idleSince.set(key, this._pool._clock.now());
    return relay;
  }

  /** Subscribes to `filter` on every relay; returns { close(reason) }. See subscribeMap for params. */
  subscribe(relays, filter, params) {
    const urls = relayUrls(relays, 'subscribe');
    const list = filtersOf(filter, 'subscribe');
    const requests = [];
    for (const url of new Set(urls)) for (const f of list) requests.push({ url, filter: f });
    return this._subscribeMap(requests, paramsOf(params, 'subscribe'));
  }

  /** Same as subscribe (nostr-tools keeps both names). */
  subscribeMany(relays, filter, params) {
    const urls = relayUrls(relays, 'subscribeMany');
    return this.subscribe(urls, filter, params);
  }

  /**
   * One subscription over relays with a filter each ([{url, filter}]). Events come once across all
   * of them (verified, matching). params: onevent(event), oneose() once every relay sent EOSE,
   * closed or failed (or after maxWait ms), onclose([{url, reason}]) once every relay closed,
   * maxWait, abort (AbortSignal), id/label, onauth(template) for NIP-42, alreadyHaveEvent(id),
   * receivedEvent(relay, id).
   */
  subscribeMap(requests, params) {
    if (!Array.isArray(requests) || !requests.every((r) => r !== null && typeof r === 'object' && typeof r.url === 'string'))
      throw new NostrError('INVALID_ARGUMENT', 'SimplePool.subscribeMap takes [{ url, filter }, ...]');
    const list = requests.flatMap((r) => filtersOf(r.filter, 'subscribeMap').map((filter) => ({ url: normalizeRelayUrl(r.url), filter })));
    return this._subscribeMap(list, paramsOf(params, 'subscribeMap'));
  }

  _subscribeMap(requests, params) {
    if (requests.length === 0) throw new NostrError('INVALID_ARGUMENT', 'no relays given');
    const byUrl = new Map();
    for (const { url, filter } of requests) {
      if (!byUrl.has(url)) byUrl.set(url, []);
      byUrl.get(url).push(filter);
    }
    // Relays asked the same filters share one pool subscription (the core dedupes across them);
    // different filters make separate subscriptions, deduplicated here.
    const groups = new Map();
    for (const [url, filters] of byUrl) {
      const key = JSON.stringify(filters);
      if (!groups.has(key)) groups.set(key, { filters, urls: [] });
      groups.get(key).urls.push(url);
    }
    const known = groups.size > 1 ? new Set() : null;
    const eosed = new Set();
    const closed = new Map(); // url -> reason
    const subs = [];
    let eoseDone = false;
    let closeDone = false;
    let callerReason;
    const maxWait = params.maxWait ?? this.maxWaitForConnection + BASE_EOSE_TIMEOUT;
    const pool = this;

    const checkEose = () => {
      if (eoseDone || eosed.size + [...closed.keys()].filter((u) => !eosed.has(u)).length < byUrl.size) return;
      eoseDone = true;
      if (params.oneose) pool._pool._call(params.oneose);
    };
    const relayClosed = (url, reason) => {
      if (closed.has(url)) return;
      closed.set(url, reason);
      checkEose();
      if (closeDone || closed.size < byUrl.size) return;
      closeDone = true;
      pool._records.delete(record);
      for (const u of byUrl.keys()) pool._end(u);
      if (params.onauth) for (const u of byUrl.keys()) if (pool._authFns.get(u) === params.onauth) pool._authFns.delete(u);
      if (params.onclose) pool._pool._call(params.onclose, [...byUrl.keys()].map((u) => ({ url: u, reason: closed.get(u) })));
    };
    const record = {
      relayGone(url, message) {
        if (!byUrl.has(url) || closed.has(url)) return;
        for (const s of subs) if (s.urls.includes(url) && s.urls.every((u) => u === url || closed.has(u))) s.sub.close(message);
        relayClosed(url, message);
      },
    };

    for (const url of byUrl.keys()) {
      this._begin(url);
      if (params.onauth) this._authFns.set(url, params.onauth);
    }
    this._records.add(record);
    for (const { filters, urls: groupUrls } of groups.values()) {
      const urls = [];
      for (const url of groupUrls) {
        if (this.allowConnectingToRelay?.(url, ['read', filters]) === false) relayClosed(url, 'connection skipped by allowConnectingToRelay');
        else urls.push(url);
      }
      if (urls.length === 0) continue;
      const label = params.id ?? params.label;
      let sub;
      try {
        sub = this._pool.subscribe(filters, {
          relays: urls,
          id: typeof label === 'string' ? label : undefined,
          maxWait,
          signal: params.abort,
          onevent: (event, url) => {
            this._track(event.id, url);
            if (known) {
              if (known.has(event.id)) return;
              known.add(event.id);
            }
            if (params.alreadyHaveEvent?.(event.id)) return;
            params.receivedEvent?.(this._relay(url), event.id);
            params.onevent?.(event);
          },
          oneose: () => {
            for (const u of urls) eosed.add(u);
            checkEose();
          },
          onclose: (reasons) => {
            const fallback = callerReason ?? (this._pool.closed ? 'relay connection closed by us' : reasons.find((r) => r.relay === '')?.message ?? 'closed');
            for (const u of urls) relayClosed(u, closeReasonFor(u, reasons, fallback));
          },
        });
      } catch (err) {
        for (const s of subs) s.sub.close();
        this._records.delete(record);
        for (const u of byUrl.keys()) this._end(u);
        throw err;
      }
      subs.push({ sub, urls });
      if (this.onRelayConnectionSuccess || this.onRelayConnectionFailure)
        for (const u of urls)
          this._pool.ensureRelay(u, { timeout: this.maxWaitForConnection }).then(
            () => this.onRelayConnectionSuccess?.(u),
            () => this.onRelayConnectionFailure?.(u),
          );
    }
    if (subs.length === 0) checkEose();
    return {
      close(reason = 'closed by caller') {
        if (closeDone) return;
        callerReason = reason;
        for (const s of subs) s.sub.close(reason);
      },
    };
  }

  /** Like subscribe, closed as soon as every relay sent EOSE (onclose gets "closed automatically on eose"). */
  subscribeEose(relays, filter, params) {
    const p = paramsOf(params, 'subscribeEose');
    let closer;
    let eosed = false;
    closer = this.subscribe(relays, filter, {
      ...p,
      oneose() {
        eosed = true;
        if (closer) closer.close('closed automatically on eose');
      },
    });
    if (eosed) closer.close('closed automatically on eose');
    return closer;
  }

  subscribeManyEose(relays, filter, params) {
    return this.subscribeEose(relays, filter, params);
  }

  /** The stored events matching `filter` on the relays (deduplicated), once every relay sent EOSE or maxWait passed. */
  async querySync(relays, filter, params) {
    const p = paramsOf(params, 'querySync');
    return new Promise((resolve, reject) => {
      const events = [];
      try {
        this.subscribeEose(relays, filter, {
          id: p.id,
          label: p.label,
          maxWait: p.maxWait,
          abort: p.abort,
          onevent: (e) => events.push(e),
          onclose: () => resolve(events),
        });
      } catch (err) {
        reject(err);
      }
    });
  }

  /** The newest event matching `filter` (asked with limit 1; `filter` itself is not changed), or null. */
  async get(relays, filter, params) {
    const list = filtersOf(filter, 'get').map((f) => ({ ...f, limit: 1 }));
    const events = await this.querySync(relays, list, params);
    let best = null;
    for (const e of events) if (best === null || e.created_at > best.created_at) best = e;
    return best;
  }

  /**
   * NIP-45 COUNT of a directive ('reactions', 'reposts', 'quotes', 'replies', 'comments',
   * 'followers') about `target` on every relay: the largest count, and the merged HyperLogLog
   * registers when relays sent them. Relays that fail are left out.
   */
  async countMany(relays, target, directive, params = {}) {
    const urls = [...new Set(relayUrls(relays, 'countMany'))];
    const make = COUNT_DIRECTIVES[directive];
    if (!make) throw new NostrError('INVALID_ARGUMENT', `countMany: directive must be one of ${Object.keys(COUNT_DIRECTIVES).join(', ')}`);
    if (typeof target !== 'string') throw new NostrError('INVALID_ARGUMENT', 'countMany: target is an event id or a pubkey (hex)');
    const filter = make(target);
    const p = paramsOf(params, 'countMany');
    const answers = await Promise.all(
      urls.map(async (url) => {
        if (this.allowConnectingToRelay?.(url, ['read', [filter]]) === false) return null;
        this._begin(url);
        try {
          return await countOn(this._pool, url, [filter], {
            id: p.id ?? undefined,
            timeout: p.maxWait ?? this.maxWaitForConnection + PUBLISH_TIMEOUT,
            signal: p.abort,
          });
        } catch {
          return null;
        } finally {
          this._end(url);
        }
      }),
    );
    let count = 0;
    let hll;
    for (const a of answers) {
      if (!a) continue;
      if (a.count > count) count = a.count;
      if (a.hll !== undefined) hll = mergeHllHex(hll, a.hll);
    }
    return hll === undefined ? { count } : { count, hll };
  }

  /**
   * Publishes a signed event to each relay: one Promise per relay, resolving with the relay's OK
   * message, rejecting with a NostrError (RELAY_REJECTED with `reason` and `relay`, RELAY_TIMEOUT,
   * RELAY_UNREACHABLE, RELAY_NOT_ALLOWED, INVALID_ARGUMENT for a repeated URL; INVALID_EVENT etc.
   * on every promise). None of them counts as an unhandled rejection when left unawaited.
   * params: onauth(template), maxWait (ms per relay), abort.
   */
  publish(relays, event, params) {
    const urls = relayUrls(relays, 'publish');
    const p = paramsOf(params, 'publish');
    if (Array.isArray(event) || event === null || typeof event !== 'object')
      throw new NostrError('INVALID_ARGUMENT', 'SimplePool.publish takes (relays, event): the event is a signed event object');
    const settle = new Map(); // url -> {resolve, reject}
    const promises = urls.map((url, i) => {
      const promise = new Promise((resolve, reject) => {
        if (urls.indexOf(url) !== i) reject(new NostrError('INVALID_ARGUMENT', `duplicate url ${url}`));
        else if (this.allowConnectingToRelay?.(url, ['write', event]) === false)
          reject(new NostrError('RELAY_NOT_ALLOWED', `${url}: connection skipped by allowConnectingToRelay`));
        else settle.set(url, { resolve, reject });
      });
      promise.catch(noop);
      return promise;
    });
    const targets = [...settle.keys()];
    if (targets.length === 0) return promises;
    for (const url of targets) {
      this._begin(url);
      if (p.onauth) this._authFns.set(url, p.onauth);
    }
    const finish = (url, fn, value) => {
      const s = settle.get(url);
      if (!s) return;
      settle.delete(url);
      this._end(url);
      if (p.onauth && this._authFns.get(url) === p.onauth) this._authFns.delete(url);
      s[fn](value);
    };
    this._pool
      .publish(event, {
        relays: targets,
        timeout: p.maxWait ?? this.maxWaitForConnection + PUBLISH_TIMEOUT,
        signal: p.abort,
        onresult: (r) => {
          if (r.status === 'accepted') {
            this._track(event.id, r.relay);
            finish(r.relay, 'resolve', r.message ?? '');
          } else {
            if (r.status === 'unreachable') this.onRelayConnectionFailure?.(r.relay);
            finish(r.relay, 'reject', publishError(r));
          }
        },
      })
      .catch((err) => {
        for (const url of [...settle.keys()]) finish(url, 'reject', err);
      });
    return promises;
  }

  /** Whether each relay the pool knows is connected now. */
  listConnectionStatus() {
    const map = new Map();
    for (const s of this._pool.status()) map.set(s.relay, s.state === 'open' || s.state === 'authenticating' || s.state === 'auth-required');
    return map;
  }

  /** Closes the connections to `relays` and their subscriptions there. */
  close(relays) {
    const urls = relayUrls(relays, 'close');
    for (const url of urls) {
      this._relays.delete(url);
      this._idleSince.delete(url);
    }
    return this._pool.close(urls);
  }

  /** Closes every connection; the pool can still be used (new connections open on demand). */
  destroy() {
    const urls = this._pool.status().map((s) => s.relay);
    this._relays.clear();
    this._idleSince.clear();
    return this._pool.close(urls);
  }

  /** Closes the relays with no operation for `idleThresholdMs` (default 10 s); returns their URLs. */
  pruneIdleRelays(idleThresholdMs = 10_000) {
    const pruned = [];
    const now = this._pool._clock.now();
    for (const s of this._pool.status()) {
      const since = this._idleSince.get(s.relay);
      if (this._active.has(s.relay) || since === undefined || now - since < idleThresholdMs) continue;
      pruned.push(s.relay);
    }
    if (pruned.length > 0) this.close(pruned);
    return pruned;
  }
}
