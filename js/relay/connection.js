// One relay of a pool: its WebSocket, the connection states, liveness, and the callers waiting
// on a NIP-42 AUTH (the whole flow, challenge to OK, is the core's; the pool calls the signer). The reconnect delays and the probe REQ come from the core (machine.js); subscriptions
// are the core's too. A connection calls back into the pool on open, on each frame and on disconnect.
//
//   closed ──use()──> connecting ──socket open──> open ──AUTH needed──> authenticating ──> open
//      ^                 │  ▲                       │                          └──> auth-required
//      │    failed or    │  │ timer                 │ dropped (error, close, ping unanswered)
//      │    timed out    v  │                       v
//      └── not needed ─ backing-off <───────────────┘        close(): closed, for good
import { NostrError } from '../errors.js';
import { limitsOf } from './nip11.js';
import { backoffDelay, nextReconnectAttempt } from './machine.js';
import { CLOSED } from './wait.js';

const OPEN_STATES = new Set(['open', 'authenticating', 'auth-required']);

const noop = () => {};

function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export function describe(err) {
  if (!err) return 'unknown error';
  if (err instanceof Error) return err.message;
  if (err.message) return err.message;
  if (err.error && err.error.message) return err.error.message;
  return String(err.type || err);
}

export class RelayConnection {
  constructor(pool, url) {
    this.pool = pool;
    this.url = url;
    this.idx = pool._machine.relay(url);
    this.state = 'closed';
    this.sock = null;
    this.attempt = 0;
    this.nextAttemptAt = undefined;
    this.lastError = undefined;
    this.info = undefined; // the NIP-11 document; null when the relay serves none
    this.limits = {};
    this.holds = 0; // publishes and other operations waiting on this relay
    this._infoPromise = null;
    this._openWaits = new Set();
    this._authWaits = []; // resolvers of authenticate() until the core's auth-done
    this.authPubkey = undefined;
    this._timer = null; // connect timeout or backoff
    this._idleTimer = null; // the pool letting go of a relay it was not given (pool._release)
    this._pingTimer = null;
    this._pongTimer = null;
    this._lastRx = 0;
    this._openedAt = 0;
    this._final = false;
    this._dropping = false;
    this._useAfterDrop = false;
  }

  get isOpen() {
    return OPEN_STATES.has(this.state);
  }

  /** A snapshot an app can show. */
  status() {
    const s = { relay: this.url, state: this.state, attempt: this.attempt };
    if (this.state === 'backing-off') s.nextAttemptAt = this.nextAttemptAt;
    if (this.lastError) s.error = this.lastError;
    if (this.authPubkey) s.authenticatedAs = this.authPubkey;
    if (this.info) s.info = this.info;
    return s;
  }

  _setState(state, error) {
    const previous = this.state;
    if (error) this.lastError = error;
    if (previous === state && state !== 'backing-off' && !error) return;
    this.state = state;
    this.pool._emit('status', { ...this.status(), previous, ...(error ? { error } : {}) });
  }

  // --- Lifecycle.

  /** Starts connecting unless connected, connecting or waiting to reconnect. */
  use() {
    if (this._dropping) {
      this._useAfterDrop = true; // asked while the drop is being handled: once its state is set
      return;
    }
    if (this._final || this.state !== 'closed') return;
    this.attempt = 0;
    this._connect();
  }

  async _connect() {
    const clock = this.pool._clock;
    this.nextAttemptAt = undefined;
    this._setState('connecting');
    let WS;
    try {
      WS = await this.pool._webSocket();
    } catch (err) {
      if (this.state === 'connecting' && !this._final) this._failed(err);
      return;
    }
    if (this.state !== 'connecting' || this._final || this.sock) return;
    if (this.pool._opts.relayInfo && this._infoPromise === null) this._fetchInfo();
    let sock;
    try {
      sock = new WS(this.url);
    } catch (err) {
      this._failed(new NostrError('RELAY_UNREACHABLE', `${this.url}: ${describe(err)}`, { cause: err }));
      return;
    }
    this.sock = sock;
    let error;
    sock.onopen = () => {
      if (this.sock === sock) this._onSocketOpen(sock);
    };
    sock.onmessage = (e) => {
      if (this.sock !== sock) return;
      this._lastRx = clock.now();
      if (this._pongTimer) {
        clock.clear(this._pongTimer);
        this._pongTimer = null;
      }
      this.pool._onFrame(this, e.data);
    };
    sock.onerror = (e) => {
      error = e;
    };
    sock.onclose = (e) => {
      if (this.sock !== sock) return;
      const why = error ? describe(error) : `closed (${e && e.code})`;
      this._drop(new NostrError(this.isOpen ? 'RELAY_CONNECTION_LOST' : 'RELAY_UNREACHABLE', `${this.url}: ${why}`));
    };
    if (typeof sock.on === 'function' && typeof sock.ping === 'function') {
      // `ws`: an error listener always (an error emitted with none would be thrown), pongs for liveness.
      sock.on('error', noop);
      sock.on('pong', () => {
        if (this.sock !== sock) return;
        this._lastRx = clock.now();
        if (this._pongTimer) {
          clock.clear(this._pongTimer);
          this._pongTimer = null;
        }
      });
    }
    this._timer = clock.set(() => {
      this._timer = null;
      if (this.sock === sock && this.state === 'connecting')
        this._drop(new NostrError('RELAY_TIMEOUT', `${this.url}: no connection within ${this.pool._opts.connectTimeout} ms`));
    }, this.pool._opts.connectTimeout);
  }

  _fetchInfo() {
    const p = this.pool
      ._relayInfo(this.url)
      .then((doc) => {
        this.info = doc;
        this.limits = limitsOf(doc);
      })
      .catch(() => {
        this.info = null;
      });
    this._infoPromise = p;
  }

  async _onSocketOpen(sock) {
    const clock = this.pool._clock;
    clock.clear(this._timer);
    this._timer = null;
    // Limits from NIP-11 apply before the first frame: the document was requested together with the
    // connection and has its own timeout (infoTimeout).
    if (this._infoPromise && this.info === undefined) {
      await this._infoPromise;
      if (this.sock !== sock || this.state !== 'connecting') return;
    }
    this._openedAt = clock.now();
    this._lastRx = this._openedAt;
    this.lastError = undefined;
    this._setState('open');
    this._schedulePing();
    for (const w of [...this._openWaits]) w.fire(true);
    this.pool._onOpen(this);
  }

  /** The connection failed before opening (no socket to close). */
  _failed(err) {
    this.sock = null;
    this._afterDrop(err, false);
  }

  /** Drops the socket (error, close, timeout, dead ping) and reconnects when still needed. */
  _drop(err) {
    const sock = this.sock;
    const wasOpen = this.isOpen;
    this.sock = null;
    if (sock) this._discard(sock);
    this._afterDrop(err, wasOpen);
  }

  _afterDrop(err, wasOpen) {
    this._dropping = true;
    try {
      this._handleDrop(err, wasOpen);
    } finally {
      this._dropping = false;
    }
    if (this._useAfterDrop) {
      this._useAfterDrop = false;
      this.use();
    }
  }

  _handleDrop(err, wasOpen) {
    const clock = this.pool._clock;
    clock.clear(this._timer);
    clock.clear(this._pingTimer);
    clock.clear(this._pongTimer);
    this._timer = this._pingTimer = this._pongTimer = null;
    this.authPubkey = undefined;
    this.pool._onDisconnect(this, wasOpen);
    if (this._final) return;
    const opts = this.pool._opts;
    if (!opts.reconnect || !this.pool._wants(this)) {
      for (const w of [...this._openWaits]) w.fire(false);
      this._setState('closed', err);
      return;
    }
    this.attempt = nextReconnectAttempt(this.attempt, this._openedAt ? clock.now() - this._openedAt : -1, opts.reconnect.stableAfter);
    this._openedAt = 0;
    const delay = backoffDelay(this.attempt, opts.reconnect, clock.random());
    this.attempt++;
    this.nextAttemptAt = clock.now() + delay;
    this._timer = clock.set(() => {
      this._timer = null;
      if (this.state === 'backing-off' && !this._final) this._connect();
    }, delay);
    this._setState('backing-off', err);
  }

  /** Stops waiting to reconnect: nothing needs this relay now (use() starts again). */
  _idle() {
    this.pool._clock.clear(this._timer);
    this._timer = null;
    this.nextAttemptAt = undefined;
    this.pool._onIdle(this);
    this._setState('closed');
  }

  /** Stops listening to a socket and closes it at once. */
  _discard(sock) {
    sock.onopen = null;
    sock.onmessage = null;
    sock.onclose = null;
    sock.onerror = noop;
    try {
      if (typeof sock.terminate === 'function') sock.terminate();
      else sock.close();
    } catch {
      // closing a socket that never opened can throw in some implementations
    }
  }

  /** Closes for good (the pool is closing or dropping this relay). Resolves once the socket is gone. */
  close() {
    this._final = true;
    const sock = this.sock;
    this.sock = null;
    const gone = sock ? this._closedPromise(sock) : Promise.resolve();
    if (sock) this._discard(sock);
    const wasOpen = this.isOpen;
    this._afterDrop(undefined, wasOpen);
    for (const w of [...this._openWaits]) w.close();
    this._authDone(false);
    this._setState('closed');
    return gone;
  }

  _closedPromise(sock) {
    // `ws` emits 'close' once terminate() has destroyed the TCP socket; browsers close on their own.
    if (typeof sock.once !== 'function' || sock.readyState === 3) return Promise.resolve();
    return new Promise((resolve) => sock.once('close', () => resolve()));
  }

  // --- Waiting for the connection.

  /** Resolves true once open, false when the relay is not wanted any more, TIMEOUT or CLOSED. */
  whenOpen(deadline, signal) {
    if (this.isOpen) return Promise.resolve(true);
    if (this._final) return Promise.resolve(CLOSED);
    const w = this.pool._clock.wait(deadline, signal);
    this._openWaits.add(w);
    w.promise.then(
      () => this._openWaits.delete(w),
      () => this._openWaits.delete(w),
    );
    this.use();
    return w.promise;
  }

  // --- Sending.

  /** Whether a frame is over the relay's NIP-11 max_message_length. */
  tooLarge(frame) {
    const max = this.limits.maxMessageLength;
    if (!max || frame.length * 3 <= max) return false;
    return utf8Length(frame) > max;
  }

  /** Sends a text frame when open; false otherwise. */
  send(frame) {
    if (!this.isOpen || !this.sock) return false;
    try {
      this.sock.send(frame);
      return true;
    } catch (err) {
      this._drop(new NostrError('RELAY_CONNECTION_LOST', `${this.url}: ${describe(err)}`, { cause: err }));
      return false;
    }
  }

  // --- NIP-42: the core's (src/relay/subscriptions_auth.cpp); the pool executes its actions.

  /**
   * Answers the relay's AUTH challenge through the pool's signer (the core waits for a challenge
   * until `deadline`, has the signer sign its template and sends it). Resolves true once the relay
   * accepted it; false without a signer, when the signer fails or the relay refuses (state
   * auth-required). Never rejects.
   */
  authenticate(deadline = this.pool._clock.now() + this.pool._opts.authTimeout) {
    const pool = this.pool;
    if (pool.closed || !pool._machine || this._final) return Promise.resolve(false);
    const p = new Promise((resolve) => this._authWaits.push(resolve));
    pool._machine.authenticate(this.idx, pool._clock.now(), deadline);
    pool._run();
    return p;
  }

  /** The core's auth-done action: every caller waiting on this AUTH learns how it ended. */
  _authDone(accepted) {
    const waits = this._authWaits;
    this._authWaits = [];
    for (const resolve of waits) resolve(accepted);
  }

  // --- Liveness.

  _schedulePing() {
    const ping = this.pool._opts.ping;
    if (!ping) return;
    const clock = this.pool._clock;
    this._pingTimer = clock.set(() => {
      this._pingTimer = null;
      if (!this.isOpen) return;
      const idle = clock.now() - this._lastRx;
      if (idle >= ping.interval && !this._pongTimer) this._sendPing();
      this._schedulePing();
    }, ping.interval);
  }

  _sendPing() {
    const clock = this.pool._clock;
    const sock = this.sock;
    this._pongTimer = clock.set(() => {
      this._pongTimer = null;
      if (this.sock === sock)
        this._drop(new NostrError('RELAY_TIMEOUT', `${this.url}: no answer to ping within ${this.pool._opts.ping.timeout} ms`));
    }, this.pool._opts.ping.timeout);
    if (typeof sock.ping === 'function') {
      try {
        sock.ping();
      } catch {
        // a failing socket closes itself
      }
    } else {
      // No ping frames in browsers: the core's probe, a REQ any relay answers at once (EOSE);
      // the core closes it when answered.
      this.send(this.pool._machine.probe(this.idx));
    }
  }
}
