// The core's subscription machine (src/relay/subscriptions.hpp) behind an integer handle
// (bindings/relay.cpp). One per pool: it dedupes across relays, checks every event against its
// subscription's filters and verifies it before delivery, and computes the resubscribe `since`.
import { core, writeScratch, writeScratchRecords, scratchBytes, throwLastError } from '../core.js';

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

/** Whether a reason name ('rate-limited', 'error'...) is transient, as the core classifies it. */
export function isTransientReason(name) {
  const t = tables();
  const i = t.reasons.indexOf(name);
  return i >= 0 && t.transient[i];
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
  constructor({ seenCap = 4096, overlap = 60, maxFrameBytes = 0 } = {}) {
    this._c = core();
    this._h = this._c.relaySubsNew(seenCap, overlap, maxFrameBytes);
    this._maxFrame = maxFrameBytes;
    this._local = undefined; // details of an outcome decided here (frame too large for the scratch copy)
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
  feed(relay, text) {
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
    return this._c.relaySubsFeedScratch(this._h, relay, len);
  }

  /**
   * Text frames from `relay`, in order (none over maxFrameBytes): the packed outcomes, as feed()
   * one by one would give them, with the signatures of the delivered events checked together
   * (BIP-340 batch verification in the core). lastAt(i) has the strings of outcome i.
   */
  feedBatch(relay, texts) {
    this._local = undefined;
    const total = writeScratchRecords(texts);
    if (this._c.relaySubsFeedBatchScratch(this._h, relay, texts.length, total) !== 0) throwLastError();
    const b = scratchBytes(0, 4 * texts.length);
    return new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
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
