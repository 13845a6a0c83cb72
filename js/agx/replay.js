// Replay protection over the core's in-memory seen store: wrap ids before decrypting, rumor ids
// after opening, both recorded once processed (the wrap alone when it was discarded).
import { core, checked } from '../core.js';

const registry = /* @__PURE__ */ new FinalizationRegistry((native) => native.delete());

export class ReplayGuard {
  #native;
  /** cap: most ids kept (default 200 000). */
  constructor({ cap = 200000 } = {}) {
    this.#native = new (core().AgxReplayGuard)(cap);
    registry.register(this, this.#native, this);
  }
  #n() {
    if (!this.#native) throw new Error('ReplayGuard was disposed');
    return this.#native;
  }
  knownWrap(wrapId, now = Math.floor(Date.now() / 1000)) {
    return this.#n().knownWrap(String(wrapId), now);
  }
  knownRumor(rumorId, now = Math.floor(Date.now() / 1000)) {
    return this.#n().knownRumor(String(rumorId), now);
  }
  processed(rumorId, wrapId, now = Math.floor(Date.now() / 1000)) {
    this.#n().processed(String(rumorId), String(wrapId), now);
  }
  discarded(wrapId, now = Math.floor(Date.now() / 1000)) {
    this.#n().discarded(String(wrapId), now);
  }
  get size() {
    return this.#n().size();
  }
  /** Merges durable entries ([[idHex, expiresAt], ...]); expired ones are skipped. Returns how many were taken. */
  load(entries, now = Math.floor(Date.now() / 1000)) {
    return checked(this.#n().loadSnapshot(JSON.stringify({ v: 1, seen: entries }), now));
  }
  /** The live entries as [[idHex, expiresAt], ...], soonest expiry first. */
  snapshot(now = Math.floor(Date.now() / 1000)) {
    return JSON.parse(this.#n().snapshot(now)).seen;
  }
  /** The marks made since the last call, [[idHex, expiresAt], ...] (for a durable mirror). */
  journal() {
    return JSON.parse(this.#n().takeJournal());
  }
  prune(now = Math.floor(Date.now() / 1000)) {
    return this.#n().prune(now);
  }
  dispose() {
    if (!this.#native) return;
    registry.unregister(this);
    this.#native.delete();
    this.#native = null;
  }
}
