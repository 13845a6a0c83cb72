// Replay protection over the core's in-memory stores (src/protocols/agx/seen_store): wrap ids
// before decrypting, rumor ids after opening. Processed ids are never forgotten before their
// expiry: a full store refuses new work (AGX_OVERLOADED). Wraps that passed the public checks and
// then were discarded go to a bounded cache; wraps failing a public check are recorded nowhere.
import { core, checked } from '../core.js';

const registry = /* @__PURE__ */ new FinalizationRegistry((native) => native.delete());
const nowS = () => Math.floor(Date.now() / 1000);

export class ReplayGuard {
  #native;
  /**
   * cap: most processed ids kept (default 200 000; at the cap new work is refused until ids
   * expire); cacheCap: most discarded wrap ids cached (default 50 000; evicting).
   */
  constructor({ cap = 0, cacheCap = 0 } = {}) {
    this.#native = new (core().AgxReplayGuard)(cap, cacheCap);
    registry.register(this, this.#native, this);
  }
  #n() {
    if (!this.#native) throw new Error('ReplayGuard was disposed');
    return this.#native;
  }
  knownWrap(wrapId, now = nowS()) {
    return this.#n().knownWrap(String(wrapId), now);
  }
  knownRumor(rumorId, now = nowS()) {
    return this.#n().knownRumor(String(rumorId), now);
  }
  /** Whether one more event (its two ids) can be processed now. */
  hasRoom(now = nowS()) {
    return this.#n().hasRoom(now);
  }
  /**
   * Records a processed event: both ids until max(now + retention, until). Throws AGX_OVERLOADED
   * (nothing recorded) when the store is full: the event must then not be acted on.
   */
  processed(rumorId, wrapId, now = nowS(), until = 0) {
    checked(this.#n().processed(String(rumorId), String(wrapId), now, Number.isSafeInteger(until) ? until : 0));
  }
  /** A wrap that passed the public checks and then was not processed (cached, evicting). */
  discarded(wrapId, now = nowS()) {
    this.#n().discarded(String(wrapId), now);
  }
  /** Processed ids kept. */
  get size() {
    return this.#n().size();
  }
  /** The most processed ids kept. */
  get cap() {
    return this.#n().cap();
  }
  /** Discarded wrap ids cached. */
  get cached() {
    return this.#n().cached();
  }
  /** Merges durable entries ([[idHex, expiresAt], ...]); expired ones are skipped. Returns how many were taken. */
  load(entries, now = nowS()) {
    return checked(this.#n().loadSnapshot(JSON.stringify({ v: 1, seen: entries }), now));
  }
  /** The live entries as [[idHex, expiresAt], ...], soonest expiry first. */
  snapshot(now = nowS()) {
    return JSON.parse(this.#n().snapshot(now)).seen;
  }
  /** The marks made since the last call, [[idHex, expiresAt], ...] (for a durable mirror). */
  journal() {
    return JSON.parse(this.#n().takeJournal());
  }
  prune(now = nowS()) {
    return this.#n().prune(now);
  }
  dispose() {
    if (!this.#native) return;
    registry.unregister(this);
    this.#native.delete();
    this.#native = null;
  }
}
