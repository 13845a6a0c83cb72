// AgxClient: an AGX endpoint over a RelayPool with any Signer (LocalSigner, Nip07Signer, a NIP-46
// or KMS signer: anything with getPublicKey/signEvent/nip44Encrypt/nip44Decrypt) that both
// requests (AgxRequester, requester.js: sending, receipts, results, status, polling, replay) and
// serves (serve.js: handlers, authorization, flood limits, exactly-once task records, automated
// replies, the Agent Card). Everything the protocol decides (wrap checks, replay, routing,
// authorization, envelopes, PoW, auto-reply depth, cards) is the core's.
import { AgxRequester } from './requester.js';
import { servingPlugin } from './serve.js';

export { AutoReplyLimiter, replyDepth } from './serve.js';

/**
 * options: everything AgxRequester takes (signer, pool or relays, onMessage, onReceipt, onError,
 * seenStore, requestTimeout, publishTimeout, pollInterval, pendingPollInterval, pollTimeout,
 * pollOverlap, isSignerUnavailable, now, discoveryRelays, allowLocalRelays, relayListTimeout,
 * lookup, keepUnknownContentTypes), and for the serving side:
 *   authorize: ({from, capability}) => boolean | Promise<boolean>, or 'accept-all' (explicit
 *     opt-in); nothing configured = default-deny with a one-time warning. acceptAll: true and
 *     allow: [{pubkey, capability}] are kept from createAgxAgent.
 *   handlers ({capability: fn}), onWarning (default console.warn), maxAutoDepth (8),
 *   autoReplyLimits ({perConversation, perPeer, peerWindow}), inputTimeout (ms a handler waits in
 *   ctx.requestInput, 300000), identity ({org, nip05}) for the card start() publishes, taskLimits (flood limits of the tasks we serve: maxConcurrent 16, perPeerConcurrent
 *   4, maxQueued 256, perPeerQueued 32, perPeerRate {count: 300, window: 60 s} or null,
 *   maxTrackedPeers 10000; see task-gate.js), maxTaskRuns (3: a task cut short by that many
 *   crashes is answered "handler failed").
 *
 * Served tasks are answered exactly once across crashes when the seen store keeps task records
 * (putTask/deleteTask: the three stores here do): a task is recorded 'accepted' (with its wrap)
 * before its handler runs, and 'done' (with its result's wrap) before the result is published; at
 * start(), an accepted task runs again (ctx.redelivered) and a done one is published again. A
 * requester resolves one result per task id; a second one for a settled task is dropped.
 */
export class AgxClient extends AgxRequester {
  #serving;

  constructor(options = {}) {
    let serving;
    super(options, servingPlugin(options, (s) => (serving = s)));
    this.#serving = serving;
  }

  /**
   * Counters of the tasks we serve and request: running and queued handlers (flood limits),
   * accepted, reruns (tasks cut short by a crash and run again at start), republished (results
   * recorded done at a restart, published again), rejected by the flood limits (by reason),
   * outbox (results waiting for a relay to accept them), duplicateResults (a second result for
   * one of our settled requests, dropped), trackedPeers.
   */
  get taskStats() {
    const { rejected, ...served } = this.#serving.taskStats;
    return { ...served, duplicateResults: super.taskStats.duplicateResults, rejected };
  }

  /** Registers a capability handler (exact key, "ns.*" or "*"): fn(payload, ctx) => output. */
  handle(capability, fn) {
    this.#serving.handle(capability, fn);
    return this;
  }

  /** The capabilities we handle (what an Agent Card advertises). */
  capabilities() {
    return this.#serving.capabilities();
  }

  /**
   * An automated reply to an inbound message: autoDepth = inbound + 1, the same conversation;
   * refused (not sent, surfaced to onWarning, never to the peer) past the ceiling or the local
   * bounds. Resolves { sent: true, rumorId, autoDepth } or { sent: false, refused }.
   */
  autoReply(inbound, text, opts = {}) {
    return this.#serving.autoReply(inbound, text, opts);
  }

  /** A human reset: the conversation's automated-reply count (or, without contextId, the peer's). */
  resetAutoDepth(peer, contextId) {
    this.#serving.resetAutoDepth(peer, contextId);
  }

  /**
   * Loads the seen store, opens the live subscription (low latency), runs a first catch-up poll
   * and schedules the next ones, then advertises unless `advertise: false` (as the reference's
   * start() does): our Agent Card (public; retraction is only best-effort) and our NIP-65 relay
   * list, on our relays and the discovery relays, so that peers on other relays find and reach
   * us. A card the core refuses (identity) rejects; one no relay took goes to onError.
   * Resolves { cursor, poll, card?, relayList? }.
   */
  start({ advertise = true } = {}) {
    return super.start({ advertise });
  }

  // createAgxAgent's names
  serve(options) {
    return this.start(options).then(() => undefined);
  }
  close() {
    return this.stop();
  }
}

/** The first API slice's name: an AgxClient (serve() = start(), close() = stop()). */
export function createAgxAgent(options = {}) {
  return new AgxClient(options);
}
