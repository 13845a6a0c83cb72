// Authorization policy, handler keys and open requests, and the core's route() over them: a view
// of the core's endpoint machine (endpoint.js) for apps that route opened messages themselves.
import { checked } from '../core.js';
import { newEndpoint } from './endpoint.js';
import { peerHex } from './util.js';

const registry = /* @__PURE__ */ new FinalizationRegistry((native) => native.delete());

/**
 * mode: 'unconfigured' (default-deny), 'accept-all' (explicit opt-in), 'host' (an authorize
 * function decides: route() answers 'ask-host') or 'allow-list' (see allow()).
 */
export class AgxRouter {
  #native;
  constructor(mode = 'unconfigured') {
    this.#native = newEndpoint({ mode: String(mode) });
    registry.register(this, this.#native, this);
  }
  #n() {
    if (!this.#native) throw new Error('AgxRouter was disposed');
    return this.#native;
  }
  /** Allows `pubkey` to invoke capabilities matching `pattern`; switches to allow-list mode. */
  allow(pubkey, pattern) {
    checked(this.#n().allow(peerHex(pubkey), String(pattern)));
  }
  revoke(pubkey) {
    return this.#n().revoke(peerHex(pubkey));
  }
  /** 'allow', 'deny', 'deny-unconfigured' or 'ask-host'. */
  decide(from, capability) {
    return this.#n().decide(String(from), String(capability));
  }
  /** True exactly once while unconfigured: log the one-time warning then. */
  takeUnconfiguredWarning() {
    return this.#n().takeUnconfiguredWarning();
  }
  /** Deliver messages of unknown content types (plain path, unanswered) instead of dropping them. */
  keepUnknownContentTypes(keep = true) {
    this.#n().setKeepUnknownContentTypes(keep === true);
  }
  setHandlers(keys) {
    this.#n().setHandlers(JSON.stringify(keys));
  }
  /** deadline: an absolute time of the caller's clock (expire(now) compares), or -1 for none. */
  addPending(taskId, peer, deadline = -1) {
    checked(this.#n().openRequest(String(taskId), peerHex(peer), deadline > 0 ? deadline : 0, 0));
  }
  cancelPending(taskId) {
    return this.#n().cancelRequest(String(taskId));
  }
  /** 'settled', 'wrong-sender' or 'unknown'. */
  settle(taskId, from) {
    return this.#n().settle(String(taskId), String(from));
  }
  /** Closes and returns the task ids whose deadline is at or before `now`. */
  expire(now) {
    return JSON.parse(this.#n().handleTimeout(now))
      .filter((a) => a.kind === 'expire-request')
      .map((a) => a.taskId);
  }
  /** Our handler asked `peer` (the task's requester) for input on taskId: its answer routes as 'task-input'. */
  awaitInput(taskId, peer) {
    checked(this.#n().awaitInput(String(taskId), peerHex(peer), 0, 0));
  }
  endAwait(taskId) {
    return this.#n().endAwait(String(taskId));
  }
  get pendingSize() {
    return this.#n().openRequests();
  }
  /**
   * The core's decision for an opened message (unwrapAgx's result): { action, reason, sendReceipt,
   * mayAutoReply, mayReply (the plain path may answer it), handlerKey, capability, taskId }. hostVerdict (true/false) completes 'ask-host'.
   */
  route(opened, hostVerdict) {
    const v = hostVerdict === undefined ? -1 : hostVerdict ? 1 : 0;
    const { from, wrapId, rumor } = opened ?? {};
    if (typeof from !== 'string' || typeof wrapId !== 'string' || !rumor) return checked(this.#n().route('', '', '', -2));
    return JSON.parse(checked(this.#n().route(JSON.stringify(rumor), from, wrapId, v)));
  }
  dispose() {
    if (!this.#native) return;
    registry.unregister(this);
    this.#native.delete();
    this.#native = null;
  }
}
