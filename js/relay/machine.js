// The core's subscription machine (src/relay/subscriptions.hpp) behind an integer handle
// (bindings/relay.cpp). One per pool: it dedupes across relays, checks every event against its
// subscription's filters and verifies it before delivery, and computes the resubscribe `since`.
import { core, writeScratch, writeScratchRecords, scratchBytes, throwLastError } from '../core.js';
import { verifiedSymbol } from '../event.js';

// Outcome types of feed(): the low 4 bits of its result (bindings/relay.cpp, kFeed*).
export const DELIVER = 0;
export const EOSE = 1;
export const CLOSED = 2;
export const DROPPED = 3;
export const OK = 4;
export const NOTICE = 5;
export const AUTH = 6;
export const COUNT = 7;
export const FLAG = 1 << 8; // eose.all, closed.all, ok.accepted, count.approximate
export const ACTIONS = 1 << 9; // the managed API decided actions (actions() has them)

let names = null;
function tables() {
  if (names === null) {
    const c = core();
    names = {
      reasons: c.relayReasonNames(),
      transient: c.relayTransientReasons(),
      drops: c.relayDropReasonNames(),
    };
  }
  return names;
}

/** OK/CLOSED reason of a packed outcome: 'duplicate', 'rate-limited', 'auth-required', 'none'... */
export function reasonOf(packed) {
  return tables().reasons[(packed >> 4) & 15];
}

/** Whether the OK/CLOSED reason of a packed outcome is transient (trying again later may work). */
export function transientOf(packed) {
  return tables().transient[(packed >> 4) & 15];
}

/** Drop reason of a packed DROPPED outcome: 'duplicate', 'not-matching', 'bad-signature'... */
export function dropReasonOf(packed) {
  return tables().drops[(packed >> 4) & 15];
}

let constants = null;
/**
 * The core's relay constants (bindings/relay.cpp, relayConstants): defaults of seenCap,
 * resubscribeOverlap, subscriptionRetries, retry and reconnect backoff, the probe prefix.
 */
export function relayConstants() {
  if (constants === null) constants = core().relayConstants();
  return constants;
}

/** Reconnect attempt n's delay in ms (the core's backoff rule), random01 from the caller. */
export function backoffDelay(attempt, { initialDelay, maxDelay, factor, jitter }, random01) {
  return core().relayBackoffDelay(attempt, initialDelay, maxDelay, factor, jitter, random01);
}

/** The attempt number of the next reconnect after a connection open for openedFor ms (-1: never). */
export function nextReconnectAttempt(attempt, openedFor, stableAfter) {
  return core().relayNextReconnectAttempt(attempt, openedFor, stableAfter);
}

/** Whether a reason name ('rate-limited', 'error'...) is transient, as the core classifies it. */
export function isTransientReason(name) {
  const t = tables();
  const i = t.reasons.indexOf(name);
  return i >= 0 && t.transient[i];
}

const decoder = /* @__PURE__ */ new TextDecoder();

/** A string of `n` bytes at `at`: ASCII directly (n > 0), UTF-8 decoded when n < 0. */
function text(bytes, at, n) {
  if (n < 0) return decoder.decode(bytes.subarray(at, at - n));
  if (n <= 2048) return String.fromCharCode.apply(null, bytes.subarray(at, at + n));
  return decoder.decode(bytes.subarray(at, at + n));
}

/**
 * The events the core delivered, as it parsed them (bindings/relay.cpp, write_events), from
 * `offset` of the scratch buffer; no JSON parse: [{subId, event}], each event marked verified
 * (the core checked its signature).
 */
function readEvents(offset) {
  const head = scratchBytes(offset, 16);
  const view = new DataView(head.buffer, head.byteOffset, 16);
  const count = view.getUint32(0, true);
  const nInts = view.getUint32(4, true);
  const nText = view.getUint32(8, true);
  const all = scratchBytes(offset, 16 + 16 * count + 4 * nInts + nText);
  const nums = new Float64Array(all.buffer, all.byteOffset + 16, 2 * count);
  const ints = new Int32Array(all.buffer, all.byteOffset + 16 + 16 * count, nInts);
  const bytes = all.subarray(16 + 16 * count + 4 * nInts);
  const out = new Array(count);
  let ii = 0;
  let at = 0;
  const take = () => {
    const n = ints[ii++];
    const s = text(bytes, at, n);
    at += n < 0 ? -n : n;
    return s;
  };
  for (let k = 0; k < count; k++) {
    const nTags = ints[ii++];
    const subId = take();
    const id = take();
    const pubkey = take();
    const sig = take();
    const content = take();
    const tags = new Array(nTags);
    for (let t = 0; t < nTags; t++) {
      const items = new Array(ints[ii++]);
      for (let j = 0; j < items.length; j++) items[j] = take();
      tags[t] = items;
    }
    const event = { kind: nums[2 * k + 1], tags, content, created_at: nums[2 * k], pubkey, id, sig };
    event[verifiedSymbol] = true;
    out[k] = { subId, event };
  }
  return out;
}

const registry =
  typeof FinalizationRegistry === 'function'
    ? /* @__PURE__ */ new FinalizationRegistry((handle) => {
        try {
          core().relaySubsDelete(handle);
        } catch {
          // the module is gone too
        }
      })
    : null;

function check(v) {
  if (v === undefined) throwLastError();
  return v;
}

export class SubscriptionMachine {
  /**
   * @param {{seenCap?: number, overlap?: number, maxFrameBytes?: number}} [options]
   *   seenCap: ids remembered per subscription (dedupe window); overlap: seconds taken off the
   *   newest created_at seen when resubscribing; maxFrameBytes: larger frames are dropped unparsed.
   */
  constructor({ seenCap = -1, overlap = -1, maxFrameBytes = 0, retry = undefined, seed = -1 } = {}) {
    this._c = core();
    this._h = this._c.relaySubsNew(seenCap, overlap, maxFrameBytes, retry, seed);
    this._maxFrame = maxFrameBytes;
    this._local = undefined; // details of an outcome decided here (frame too large for the scratch copy)
    this._event = undefined;
    this._batchEvents = [];
    registry?.register(this, this._h, this);
  }

  /** Index of a relay (its normalized URL), registered on first use. */
  relay(url) {
    const i = this._c.relaySubsRelay(this._h, url);
    if (i < 0) throwLastError();
    return i;
  }

  open(subId, filters) {
    const code = this._c.relaySubsOpen(this._h, subId, JSON.stringify(filters));
    if (code !== 0) throwLastError();
  }

  /** The REQ frame for `relay` (with since adjusted after earlier deliveries); pending there. */
  reqFor(subId, relay, nowSeconds) {
    return check(this._c.relaySubsReqFor(this._h, subId, relay, nowSeconds));
  }

  disconnected(relay) {
    this._c.relaySubsDisconnected(this._h, relay);
  }

  resubscribe(relay, nowSeconds) {
    return check(this._c.relaySubsResubscribe(this._h, relay, nowSeconds));
  }

  /** Forgets the subscription: {frame: CLOSE frame, relays: [relay index where it was open]}. */
  close(subId) {
    return check(this._c.relaySubsClose(this._h, subId));
  }

  forget(relay) {
    this._c.relaySubsForget(this._h, relay);
  }

  /** One text frame from `relay`; returns the packed outcome (see the constants above). */
  feed(relay, text, nowMs = 0) {
    // A string's UTF-8 form is at least as long as the string: refuse before copying it.
    if (this._maxFrame > 0 && text.length > this._maxFrame) {
      this._local = {
        reason: 'malformed',
        subId: '',
        eventId: '',
        code: 'RELAY_FRAME_TOO_LARGE',
        message: `frame of at least ${text.length} bytes exceeds ${this._maxFrame}`,
      };
      return DROPPED | (tables().drops.indexOf('malformed') << 4);
    }
    this._local = undefined;
    const len = writeScratch(text);
    const packed = this._c.relaySubsFeedScratch(this._h, relay, len, nowMs);
    this._event = (packed & 15) === DELIVER ? readEvents(0)[0] : undefined;
    return packed;
  }

  /** {subId, event} of the last feed() that delivered (the core's parse: no second one in JS). */
  event() {
    return this._event;
  }

  /**
   * Text frames from `relay`, in order (none over maxFrameBytes): the packed outcomes, as feed()
   * one by one would give them, with the signatures of the delivered events checked together
   * (BIP-340 batch verification in the core). lastAt(i) has the strings of outcome i. Elements
   * [n, 2n) are the number of managed actions decided up to each outcome. The delivered events,
   * in order, are in batchEvents() until the next feedBatch. valid: what verification workers
   * found (js/relay/verify-workers.js), one character per frame, '1' for an EVENT frame whose
   * event verified there: its signature is not checked again.
   */
  feedBatch(relay, texts, nowMs = 0, valid = undefined) {
    this._local = undefined;
    const n = texts.length;
    const total = writeScratchRecords(texts);
    const code =
      valid === undefined
        ? this._c.relaySubsFeedBatchScratch(this._h, relay, n, total, nowMs)
        : this._c.relaySubsFeedBatchVerifiedScratch(this._h, relay, n, total, nowMs, valid);
    if (code !== 0) throwLastError();
    const b = scratchBytes(0, 8 * n);
    const packed = new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
    this._batchEvents = readEvents((8 * n + 7) & ~7);
    return packed;
  }

  /** {subId, event} per DELIVER outcome of the last feedBatch, in order. */
  batchEvents() {
    return this._batchEvents;
  }

  // --- Managed API (src/relay/subscriptions_managed.cpp): the core decides, the pool executes
  // the actions. Times in ms.

  /** Opens `subId` on relay indexes `relays`; actions() says what to send or connect. */
  subscribe(subId, filters, relays, nowMs, maxWaitMs = 0) {
    const code = this._c.relaySubsSubscribe(this._h, subId, JSON.stringify(filters), relays, nowMs, maxWaitMs);
    if (code !== 0) throwLastError();
  }

  unsubscribe(subId) {
    this._c.relaySubsUnsubscribe(this._h, subId);
  }

  /** NIP-11 limits of a relay: {maxSubscriptions, maxFilters, maxMessageLength}. */
  setLimits(relay, { maxSubscriptions = 0, maxFilters = 0, maxMessageLength = 0 } = {}) {
    this._c.relaySubsSetLimits(this._h, relay, maxSubscriptions, maxFilters, maxMessageLength);
  }

  connected(relay, nowMs) {
    this._c.relaySubsConnected(this._h, relay, nowMs);
  }

  /** The connection dropped; reconnecting: the pool will try again. */
  dropped(relay, reconnecting) {
    this._c.relaySubsDropped(this._h, relay, reconnecting);
  }

  removeRelay(relay, message) {
    this._c.relaySubsRemoveRelay(this._h, relay, message);
  }

  authResult(relay, accepted, nowMs) {
    this._c.relaySubsAuthResult(this._h, relay, accepted, nowMs);
  }

  /** Whether an OK/CLOSED reason name asks `relay` for NIP-42 AUTH. */
  needsAuth(relay, reason) {
    return this._c.relaySubsNeedsAuth(this._h, relay, reason);
  }

  /** {challenge?, authenticated, refused} for `relay`'s connection. */
  authState(relay) {
    return this._c.relaySubsAuthState(this._h, relay);
  }

  /** A liveness probe REQ for `relay` (its EOSE comes back as an eose outcome; CLOSE is an action). */
  probe(relay) {
    return check(this._c.relaySubsProbe(this._h, relay));
  }

  timeout(nowMs) {
    this._c.relaySubsTimeout(this._h, nowMs);
  }

  /** The next deadline (ms), or undefined. */
  nextDeadline() {
    const d = this._c.relaySubsNextDeadline(this._h);
    return d < 0 ? undefined : d;
  }

  // --- Publishing (src/relay/subscriptions_publish.cpp): send, connect, authenticate, settle and
  // auth-required actions name the publish.

  /** Publishes the event (eventJson: its fields, verified) to relay indexes; deadlineMs -1: none. */
  publish(id, relays, eventJson, nowMs, deadlineMs, retries) {
    const code = this._c.relaySubsPublish(this._h, id, relays, eventJson, nowMs, deadlineMs, retries);
    if (code !== 0) throwLastError();
  }

  /** The caller's signal aborted publish `id`: what is not settled settles 'aborted'. */
  abortPublish(id) {
    this._c.relaySubsAbortPublish(this._h, id);
  }

  /** The pool is closing: every publish settles 'aborted' and every COUNT ends (POOL_CLOSED). */
  closePublishes() {
    this._c.relaySubsClosePublishes(this._h);
  }

  // --- NIP-45 COUNT (src/relay/subscriptions_count.cpp): send, connect, authenticate and
  // count-done actions name the COUNT (countId).

  /** Asks relay index `relay` to count `filters` under `subId`; deadlineMs -1: none. */
  count(id, relay, subId, filters, nowMs, deadlineMs) {
    const code = this._c.relaySubsCount(this._h, id, relay, subId, JSON.stringify(filters), nowMs, deadlineMs);
    if (code !== 0) throwLastError();
  }

  /** The caller's signal aborted COUNT `id` (a count-done action with ABORTED). */
  abortCount(id) {
    this._c.relaySubsAbortCount(this._h, id);
  }

  /** Whether the pool has a signer (without one, auth-required refuses a publish). */
  setCanAuthenticate(yes) {
    this._c.relaySubsSetCanAuthenticate(this._h, yes);
  }

  /** Starts (or joins) NIP-42 AUTH on `relay`; deadlineMs: for the challenge, then the OK (Infinity: none). */
  authenticate(relay, nowMs, deadlineMs) {
    this._c.relaySubsAuthenticate(this._h, relay, nowMs, deadlineMs === Infinity ? -1 : deadlineMs);
  }

  /** The signer's answer to sign-auth `round` (eventJson: the signed event). */
  authSigned(relay, round, eventJson, nowMs) {
    this._c.relaySubsAuthSigned(this._h, relay, round, eventJson, nowMs);
  }

  authSignFailed(relay, round, why, nowMs) {
    this._c.relaySubsAuthSignFailed(this._h, relay, round, String(why), nowMs);
  }

  /** eager: answer every challenge as it arrives, within timeoutMs. */
  setAuthPolicy(eager, timeoutMs) {
    this._c.relaySubsSetAuthPolicy(this._h, eager, timeoutMs);
  }

  wantsRelay(relay) {
    return this._c.relaySubsWantsRelay(this._h, relay);
  }

  /** The actions decided since the last call: [{type, relay, subId, frame?, reason?, message?, code?}]. */
  actions() {
    return this._c.relaySubsActions(this._h);
  }

  /** Strings of outcome i of the last feedBatch unless it was a delivery. */
  lastAt(i) {
    return this._c.relaySubsLastAt(this._h, i);
  }

  /** Strings of the last outcome fed unless it was a delivery: {subId, reason, message, ...}. */
  last() {
    return this._local ?? this._c.relaySubsLast(this._h);
  }

  /** 'pending' | 'live' | 'closed' | 'idle', or undefined when the relay has no REQ for it. */
  state(subId, relay) {
    return this._c.relaySubsState(this._h, subId, relay);
  }

  /** The since a resubscribe to `relay` would use, or undefined. */
  resumeSince(subId, relay, nowSeconds) {
    const s = this._c.relaySubsResumeSince(this._h, subId, relay, nowSeconds);
    return s < 0 ? undefined : s;
  }

  seenCount(subId) {
    return this._c.relaySubsSeenCount(this._h, subId);
  }

  get size() {
    return this._c.relaySubsSize(this._h);
  }

  /** Frees the core's memory now (the FinalizationRegistry would, later). Idempotent. */
  delete() {
    if (this._h === 0) return;
    registry?.unregister(this);
    this._c.relaySubsDelete(this._h);
    this._h = 0;
  }
}
