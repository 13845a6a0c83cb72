// NIP-46 remote signing, client side: a Signer whose key lives in a remote signer ("bunker"),
// reached over kind 24133 events, NIP-44 encrypted between a throwaway client key and the
// remote-signer key, through our RelayPool.
//
// Timeouts (why they are separate): connectTimeout bounds reaching the relays and the bunker's
// answer to `connect`; requestTimeout bounds each later request. Neither counts the user's
// approval: when the bunker answers `auth_url` (NIP-46, "Auth Challenges"), the request's clock is
// replaced by approvalTimeout until the real answer comes under the same id. A bunker that waits
// for approval silently cannot be told from a dead one, so there the request clock runs.
//
// Every request settles: with the result, SIGNER_REFUSED (the bunker answered with an error),
// SIGNER_UNAVAILABLE (no answer in time, no relay took the request), ABORTED (the caller's
// signal), SIGNER_DISPOSED (close()), or INVALID_EVENT / INVALID_PUBLIC_KEY /
// SIGNER_INVALID_RESPONSE (the answer came but does not hold up).
import { NostrError } from './errors.js';
import { checkTemplate, signedTemplateCopy, verifyEventError } from './event.js';
import { asPayload, asPlaintext, asPubkeyHex } from './nip44.js';
import { isHex32 } from './hex.js';
import { RelayPool } from './relay/index.js';
import { LocalSigner } from './signer.js';
import {
  NOSTR_CONNECT_KIND,
  clip,
  createNostrConnectURI,
  isRelayUrl,
  nowSeconds,
  parseBunkerURI,
  parseResponse,
  randomId,
} from './nip46-uri.js';

export {
  NOSTR_CONNECT_KIND,
  createNostrConnectURI,
  parseBunkerURI,
  parseNostrConnectURI,
  toBunkerURL,
} from './nip46-uri.js';
export { startBunker } from './nip46-bunker.js';

const DEFAULTS = {
  connectTimeout: 15_000,
  nostrConnectTimeout: 300_000,
  requestTimeout: 30_000,
  approvalTimeout: 300_000,
  switchRelaysTimeout: 5_000,
};
const MAX_TIMER = 2 ** 31 - 1; // setTimeout's limit; longer counts as "no limit"
const CONSTRUCT = Symbol('Nip46Signer.construct');

function timeoutOption(value, fallback, name) {
  if (value === undefined) return fallback;
  if (value === Infinity || (typeof value === 'number' && Number.isFinite(value) && value > 0)) return value;
  throw new NostrError('INVALID_ARGUMENT', `${name} must be a positive number of ms (or Infinity)`);
}

function unavailable(message, reason, method, cause) {
  const err = new NostrError('SIGNER_UNAVAILABLE', message, cause ? { cause } : undefined);
  err.reason = reason;
  if (method) err.method = method;
  return err;
}

function refused(method, text) {
  const err = new NostrError('SIGNER_REFUSED', `the remote signer refused ${method}: ${clip(text)}`);
  err.method = method;
  err.remoteError = clip(text, 1000);
  return err;
}

function invalid(method, message, code = 'SIGNER_INVALID_RESPONSE') {
  const err = new NostrError(code, `the remote signer's answer to ${method} ${message}`);
  err.method = method;
  return err;
}

function closedError(method) {
  const err = new NostrError('SIGNER_DISPOSED', 'this Nip46Signer was closed; its client key is wiped');
  err.reason = 'closed';
  if (method) err.method = method;
  return err;
}

function abortError(signal) {
  const reason = signal?.reason;
  return new NostrError('ABORTED', reason instanceof Error ? reason.message : 'aborted', reason !== undefined ? { cause: reason } : undefined);
}

function isHttpUrl(s) {
  if (typeof s !== 'string' || s.length > 4096) return false;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Two lists of strings (relay URLs) with the same items in the same order. */
function sameList(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A NIP-46 remote signer as a Signer. Make one with Nip46Signer.connect(bunkerUri, options)
 * (bunker:// flow) or Nip46Signer.nostrConnect(options) (nostrconnect:// flow).
 */
export class Nip46Signer {
  #client; // LocalSigner holding the throwaway client key: wiped on close()
  #clientPubkey;
  #pool;
  #ownPool;
  #remote; // remote-signer pubkey (null until a nostrconnect:// signer answers)
  #relays;
  #userPubkey = null;
  #subs = [];
  #pending = new Map();
  #closed = false;
  #opts;
  #timers;
  #onConnect = null; // nostrconnect:// waiting for the answer carrying our secret

  constructor(token, init) {
    if (token !== CONSTRUCT)
      throw new NostrError('INVALID_ARGUMENT', 'use Nip46Signer.connect(bunkerUri) or Nip46Signer.nostrConnect(options)');
    const o = init.options;
    this.#opts = {
      requestTimeout: timeoutOption(o.requestTimeout, DEFAULTS.requestTimeout, 'requestTimeout'),
      approvalTimeout: timeoutOption(o.approvalTimeout, DEFAULTS.approvalTimeout, 'approvalTimeout'),
      onauth: typeof o.onauth === 'function' ? o.onauth : null,
      perms: Array.isArray(o.perms) ? o.perms.filter((p) => typeof p === 'string' && p.length > 0) : [],
    };
    const t = o.timers ?? {};
    this.#timers = {
      set: t.setTimeout ?? ((fn, ms) => setTimeout(fn, ms)),
      clear: t.clearTimeout ?? ((id) => clearTimeout(id)),
    };
    if (o.pool !== undefined && !(o.pool instanceof RelayPool))
      throw new NostrError('INVALID_ARGUMENT', 'pool must be a RelayPool');
    this.#client = new LocalSigner(o.clientSecretKey); // copies the key; INVALID_SECRET_KEY
    this.#clientPubkey = this.#client.publicKey;
    this.#ownPool = !o.pool;
    this.#pool = o.pool ?? new RelayPool();
    this.#remote = init.remote;
    this.#relays = init.relays;
  }

  /**
   * bunker:// flow: subscribes on the bunker's relays, sends `connect` (with the URI's secret),
   * then `get_public_key`, then (unless switchRelays: false) `switch_relays`.
   */
  static async connect(bunker, options = {}) {
    const pointer = typeof bunker === 'string' ? parseBunkerURI(bunker) : checkPointer(bunker);
    const connectTimeout = timeoutOption(options.connectTimeout, DEFAULTS.connectTimeout, 'connectTimeout');
    const signer = new Nip46Signer(CONSTRUCT, { options, remote: pointer.pubkey, relays: pointer.relays });
    try {
      const deadline = signer.#deadline(connectTimeout);
      await signer.#listen(signer.#relays, deadline.left(), options.signal);
      const params = [pointer.pubkey, pointer.secret ?? ''];
      if (signer.#opts.perms.length > 0) params.push(signer.#opts.perms.join(','));
      const ack = await signer.#request('connect', params, { timeout: deadline.left(), signal: options.signal, phase: 'connect' });
      if (ack !== 'ack' && !(pointer.secret && ack === pointer.secret))
        throw invalid('connect', 'is neither "ack" nor the secret');
      await signer.#afterConnect(options);
      return signer;
    } catch (err) {
      await signer.close();
      throw err;
    }
  }

  /**
   * nostrconnect:// flow: returns at once with the URI to show the user (QR code, deep link);
   * `signer` resolves once a remote signer answers with the URI's secret (then get_public_key and
   * switch_relays as in connect()), or rejects: SIGNER_UNAVAILABLE after connectTimeout (default
   * 5 min: the user has to scan), ABORTED, SIGNER_DISPOSED after cancel().
   */
  static nostrConnect(options = {}) {
    const relays = Array.isArray(options.relays) ? [...new Set(options.relays)] : [];
    if (relays.length === 0 || !relays.every(isRelayUrl))
      throw new NostrError('INVALID_ARGUMENT', 'relays must be a non-empty list of ws:// or wss:// URLs');
    const connectTimeout = timeoutOption(options.connectTimeout, DEFAULTS.nostrConnectTimeout, 'connectTimeout');
    const secret = options.secret ?? randomId();
    const signer = new Nip46Signer(CONSTRUCT, { options, remote: null, relays });
    let uri;
    try {
      uri = createNostrConnectURI({
        clientPubkey: signer.#clientPubkey,
        relays,
        secret,
        perms: signer.#opts.perms,
        name: options.name,
        url: options.url,
        image: options.image,
      });
    } catch (err) {
      signer.close();
      throw err;
    }
    let connected = false;
    const ready = (async () => {
      try {
        const deadline = signer.#deadline(connectTimeout);
        // Subscribe first: kind 24133 is ephemeral, an answer sent before we listen is lost.
        const answered = signer.#awaitConnect(secret, deadline, options.signal);
        answered.catch(() => {}); // awaited below; if #listen fails first, close() settles it
        await signer.#listen(relays, deadline.left(), options.signal);
        await answered;
        await signer.#afterConnect(options);
        connected = true;
        return signer;
      } catch (err) {
        await signer.close();
        throw err;
      }
    })();
    return {
      uri,
      clientPubkey: signer.#clientPubkey,
      signer: ready,
      // Stops waiting; once connected the signer is the app's to close. Whoever cancels no longer
      // awaits `signer`, so its rejection is not left unhandled.
      cancel: () => {
        if (connected) return Promise.resolve();
        ready.catch(() => {});
        return signer.close();
      },
    };
  }

  async #afterConnect(options) {
    const pubkey = await this.#request('get_public_key', [], { signal: options.signal });
    if (!isHex32(pubkey)) throw invalid('get_public_key', 'is not a 64-hex public key', 'INVALID_PUBLIC_KEY');
    this.#userPubkey = pubkey;
    if (options.switchRelays !== false) {
      // The NIP asks clients to let the bunker move them; an older bunker may not know the method.
      const timeout = Math.min(this.#opts.requestTimeout, DEFAULTS.switchRelaysTimeout);
      try {
        await this.switchRelays({ timeout, signal: options.signal });
      } catch (err) {
        if (err?.code === 'ABORTED' || err?.code === 'SIGNER_DISPOSED') throw err;
      }
    }
  }

  #deadline(ms) {
    const end = ms === Infinity ? Infinity : Date.now() + ms;
    return { left: () => (end === Infinity ? Infinity : Math.max(1, end - Date.now())) };
  }

  /** Subscribes to answers on `relays`; resolves once they are live (EOSE), SIGNER_UNAVAILABLE after `timeout`. */
  #listen(relays, timeout, signal) {
    const filter = { kinds: [NOSTR_CONNECT_KIND], '#p': [this.#clientPubkey] };
    if (this.#remote) filter.authors = [this.#remote];
    return new Promise((resolve, reject) => {
      let done = false;
      let timer;
      const finish = (err) => {
        if (done) return;
        done = true;
        if (timer !== undefined) this.#timers.clear(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const onAbort = () => finish(abortError(signal));
      if (signal?.aborted) return finish(abortError(signal));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeout !== Infinity && timeout <= MAX_TIMER)
        timer = this.#timers.set(
          () => finish(unavailable(`the relays did not answer within ${timeout} ms`, 'timeout', 'connect')),
          timeout,
        );
      let sub;
      try {
        sub = this.#pool.subscribe([filter], {
          relays,
          id: 'nip46',
          onevent: (event) => {
            this.#onEvent(event).catch(() => {});
          },
          oneose: () => finish(),
          onclose: (reasons) => {
            if (this.#closed) return finish(closedError('connect'));
            finish(unavailable(`the relays closed the subscription (${reasons.map((r) => r.message).join('; ')})`, 'unreachable', 'connect'));
          },
        });
      } catch (err) {
        finish(unavailable('could not subscribe on the relays', 'unreachable', 'connect', err));
        return;
      }
      this.#subs.push(sub);
      if (sub.eosed) finish();
    });
  }

  #awaitConnect(secret, deadline, signal) {
    return new Promise((resolve, reject) => {
      const timeout = deadline.left();
      let timer;
      const entry = {
        secret,
        settle: (err) => {
          if (this.#onConnect !== entry) return;
          this.#onConnect = null;
          if (timer !== undefined) this.#timers.clear(timer);
          signal?.removeEventListener('abort', onAbort);
          if (err) reject(err);
          else resolve();
        },
      };
      const onAbort = () => entry.settle(abortError(signal));
      this.#onConnect = entry;
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeout !== Infinity && timeout <= MAX_TIMER)
        timer = this.#timers.set(
          () => entry.settle(unavailable(`no remote signer connected within ${timeout} ms`, 'timeout', 'connect')),
          timeout,
        );
    });
  }

  async #onEvent(event) {
    if (this.#closed) return;
    if (this.#remote !== null && event.pubkey !== this.#remote) return;
    let text;
    try {
      text = await this.#client.nip44Decrypt(event.pubkey, event.content);
    } catch {
      return; // not for us, or the key is already wiped
    }
    const res = parseResponse(text);
    if (!res) return;
    if (this.#remote === null) {
      // nostrconnect://: the first answer carrying our secret names the remote signer.
      const c = this.#onConnect;
      if (c && res.result === c.secret) {
        this.#remote = event.pubkey;
        c.settle(null);
      }
      return;
    }
    const entry = this.#pending.get(res.id);
    if (!entry) return;
    if (res.result === 'auth_url') return entry.approval(res.error);
    if (typeof res.error === 'string' && res.error.length > 0) return entry.reject(refused(entry.method, res.error));
    entry.resolve(res.result);
  }

  /**
   * Sends one request and waits for its answer (the raw `result`). options: timeout (ms, default
   * requestTimeout), signal.
   */
  sendRequest(method, params, options = {}) {
    if (typeof method !== 'string' || !Array.isArray(params) || !params.every((p) => typeof p === 'string'))
      return Promise.reject(new NostrError('INVALID_ARGUMENT', 'method must be a string and params an array of strings'));
    return this.#request(method, params, options);
  }

  #request(method, params, { timeout, signal, phase = 'request' } = {}) {
    return new Promise((resolve, reject) => {
      if (this.#closed) return reject(closedError(method));
      if (signal?.aborted) return reject(abortError(signal));
      const limit = timeoutOption(timeout, this.#opts.requestTimeout, 'timeout');
      const id = randomId();
      let timer;
      let settled = false;
      let authSeen = false;
      const arm = (ms, make) => {
        if (timer !== undefined) this.#timers.clear(timer);
        timer = ms === Infinity || ms > MAX_TIMER ? undefined : this.#timers.set(() => entry.reject(make()), ms);
      };
      const settle = (fn, value) => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) this.#timers.clear(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(id);
        fn(value);
      };
      const onAbort = () => entry.reject(abortError(signal));
      const entry = {
        method,
        resolve: (v) => settle(resolve, v),
        reject: (e) => settle(reject, e),
        approval: (url) => {
          if (!isHttpUrl(url)) return entry.reject(refused(method, 'auth_url without an http(s) URL'));
          const ms = this.#opts.approvalTimeout;
          arm(ms, () => unavailable(`the remote signer asked for approval of ${method} and did not answer within ${ms} ms`, 'approval-timeout', method));
          if (authSeen) return;
          authSeen = true;
          if (this.#opts.onauth) {
            try {
              const out = this.#opts.onauth(url);
              if (out !== null && typeof out === 'object' && typeof out.then === 'function') out.then(undefined, () => {});
            } catch {
              // the app's callback failing (or, async, rejecting) does not decide the request
            }
          }
        },
      };
      this.#pending.set(id, entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      arm(limit, () => unavailable(`no answer to ${method} within ${limit} ms (${phase} timeout)`, 'timeout', method));
      this.#send(id, method, params, limit, signal).catch((err) => entry.reject(err));
    });
  }

  async #send(id, method, params, limit, signal) {
    let event;
    try {
      const content = await this.#client.nip44Encrypt(this.#remote, JSON.stringify({ id, method, params }));
      event = await this.#client.signEvent({ kind: NOSTR_CONNECT_KIND, tags: [['p', this.#remote]], content, created_at: nowSeconds() });
    } catch (err) {
      throw this.#closed ? closedError(method) : err;
    }
    let outcomes;
    try {
      outcomes = await this.#pool.publish(event, { relays: this.#relays, timeout: Math.min(limit, MAX_TIMER), signal });
    } catch (err) {
      if (err?.code === 'ABORTED') throw err;
      throw this.#closed ? closedError(method) : unavailable(`could not send ${method} to the relays`, 'unreachable', method, err);
    }
    if (!outcomes.some((o) => o.status === 'accepted')) {
      const why = outcomes.map((o) => `${o.relay}: ${o.status}${o.message ? ` (${clip(o.message, 80)})` : ''}`).join('; ');
      throw unavailable(`no relay took the ${method} request (${why})`, 'unreachable', method);
    }
  }

  #live(method) {
    if (this.#closed) throw closedError(method);
  }

  /** The user's public key (the bunker's answer to get_public_key at connect). */
  async getPublicKey() {
    this.#live('get_public_key');
    return this.#userPubkey;
  }

  /** Asks the bunker to sign; the answer must verify, be the user's, and match the template. options: timeout, signal. */
  async signEvent(template, options) {
    this.#live('sign_event');
    checkTemplate(template); // LocalSigner's checks and errors, before the bunker is asked
    const t = { kind: template.kind, content: template.content, tags: template.tags, created_at: template.created_at };
    const answer = await this.#request('sign_event', [JSON.stringify(t)], options);
    let signed;
    try {
      signed = typeof answer === 'string' ? JSON.parse(answer) : answer;
    } catch {
      throw invalid('sign_event', 'is not JSON', 'INVALID_EVENT');
    }
    const err = verifyEventError(signed);
    if (err) throw invalid('sign_event', `is not a valid signed event (${err.code})`, 'INVALID_EVENT');
    if (signed.pubkey !== this.#userPubkey) throw invalid('sign_event', "is signed by another key than the user's", 'INVALID_EVENT');
    const copy = signedTemplateCopy(signed, t);
    if (!copy) throw invalid('sign_event', 'differs from the template', 'INVALID_EVENT');
    return copy;
  }

  async nip44Encrypt(pubkey, plaintext, options) {
    this.#live('nip44_encrypt');
    asPubkeyHex(pubkey);
    asPlaintext(plaintext);
    return this.#stringAnswer('nip44_encrypt', [pubkey.toLowerCase(), plaintext], options);
  }

  async nip44Decrypt(pubkey, payload, options) {
    this.#live('nip44_decrypt');
    asPubkeyHex(pubkey);
    asPayload(payload);
    return this.#stringAnswer('nip44_decrypt', [pubkey.toLowerCase(), payload], options);
  }

  async #stringAnswer(method, params, options) {
    const out = await this.#request(method, params, options);
    if (typeof out !== 'string') throw invalid(method, 'is not a string');
    return out;
  }

  /** Resolves when the bunker answers "pong". */
  async ping(options) {
    const out = await this.#request('ping', [], options);
    if (out !== 'pong') throw invalid('ping', 'is not "pong"');
  }

  /**
   * Asks the bunker which relays to use (NIP-46 switch_relays). When it names others, listens
   * there, then stops listening on the old ones. Resolves to the relays now in use.
   */
  async switchRelays(options) {
    const answer = await this.#request('switch_relays', [], options);
    let list = answer;
    if (typeof answer === 'string') {
      try {
        list = JSON.parse(answer);
      } catch {
        throw invalid('switch_relays', 'is not JSON');
      }
    }
    if (list === null || list === undefined) return [...this.#relays];
    if (!Array.isArray(list) || list.length === 0 || list.length > 16 || !list.every(isRelayUrl))
      throw invalid('switch_relays', 'is not a list of ws:// or wss:// URLs');
    const next = [...new Set(list)];
    if (sameList([...next].sort(), [...this.#relays].sort())) return [...this.#relays];
    const old = this.#subs;
    this.#subs = [];
    try {
      await this.#listen(next, options?.timeout ?? this.#opts.requestTimeout, options?.signal);
    } catch (err) {
      for (const s of this.#subs) s.close();
      this.#subs = old;
      throw err;
    }
    this.#relays = next;
    for (const s of old) s.close();
    return [...next];
  }

  /** The remote signer's pubkey (not necessarily the user's: see getPublicKey). */
  get remotePubkey() {
    return this.#remote;
  }

  /** The throwaway key this client talks with. */
  get clientPubkey() {
    return this.#clientPubkey;
  }

  get relays() {
    return [...this.#relays];
  }

  get closed() {
    return this.#closed;
  }

  /** Requests waiting for an answer. */
  get pendingCount() {
    return this.#pending.size;
  }

  /**
   * Rejects every pending request with SIGNER_DISPOSED, stops listening, wipes the client key
   * (and closes the pool if this signer created it). The bunker is not told (no logout).
   */
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    for (const entry of [...this.#pending.values()]) entry.reject(closedError(entry.method));
    this.#onConnect?.settle(closedError('connect'));
    for (const s of this.#subs) s.close();
    this.#subs = [];
    this.#client.dispose();
    if (this.#ownPool) await this.#pool.close();
  }

  /** `await using signer = ...`: closes the signer. In the class body, so bundlers can drop an unused Nip46Signer. */
  [Symbol.asyncDispose]() {
    return this.close();
  }
}

function checkPointer(p) {
  if (p === null || typeof p !== 'object' || !isHex32(p.pubkey) || !Array.isArray(p.relays))
    throw new NostrError('INVALID_ARGUMENT', 'expected a bunker:// URI or { pubkey, relays, secret? }');
  const relays = [...new Set(p.relays)];
  if (relays.length === 0 || !relays.every(isRelayUrl))
    throw new NostrError('INVALID_ARGUMENT', 'relays must be a non-empty list of ws:// or wss:// URLs');
  return { pubkey: p.pubkey, relays, secret: typeof p.secret === 'string' && p.secret.length > 0 ? p.secret : null };
}
