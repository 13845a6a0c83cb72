// The core's NIP-XX agent inbox as serveAgent drives it (internal): which prompts to answer
// (dedupe, freshness) and which cancels to act on (authorization). See src/protocols/nip_xx/agent_inbox.hpp.
import { core } from '../core.js';
import { NostrError } from '../errors.js';
import { registry } from './machines.js';

/** ai.info under `d`: {kind, tags, plaintext (the content)}; INVALID_ARGUMENT when the schema rejects it. */
export function infoEvent(d, infoJson) {
  const out = core().nipxxInfoEvent(d, infoJson);
  if (out === undefined) {
    const { code, message } = core().lastError();
    throw new NostrError('INVALID_ARGUMENT', `serveAgent: info: ${message}`, { cause: new NostrError(code, message) });
  }
  return out;
}

/** The agent's inbox: which prompts to answer and which cancels to act on. */
export class AgentInbox {
  #native;
  constructor(agent, since, maxClockSkew) {
    this.#native = new (core().NipxxAgentInbox)(agent, since, maxClockSkew);
    registry.register(this, this.#native, this);
  }
  subscribeSince(nowMs) {
    return this.#native.subscribeSince(nowMs);
  }
  /** The subscription's filters at nowMs (prompts, cancels, and gift wraps when nip59). */
  filters(nowMs, nip59) {
    return this.#native.filters(nowMs, nip59);
  }
  goLive() {
    this.#native.goLive();
  }
  /** Whether the stored events were all delivered (EOSE): what arrives now is live. */
  get live() {
    return this.#native.live();
  }
  /**
   * 'handle' | 'duplicate' | 'not_addressed' | 'stale' | 'too_old' (the prompt event object, read
   * in place; live: `this.live` when it, or its gift wrap, arrived).
   */
  onPrompt(event, nowMs, live) {
    return this.#native.onPrompt(event, nowMs, live) ?? 'too_old';
  }
  runStarted(promptId, client) {
    this.#native.runStarted(promptId, client);
  }
  promptDone(promptId) {
    this.#native.promptDone(promptId);
  }
  /** 'ignore' | 'held' | 'decrypt'. */
  onCancel(event) {
    return this.#native.onCancel(event) ?? 'ignore';
  }
  /** `{ promptId, reason }` of the run the decrypted cancel cancels, or null. */
  authorizeCancel(event, plaintext) {
    return this.#native.authorizeCancel(event, plaintext);
  }
  /** The cancel held while `promptId` was being admitted (an event), or null. */
  takeHeld(promptId) {
    const e = this.#native.takeHeld(promptId);
    if (e === null) return null;
    if (e.sig === '') e.wrapped = true; // a rumor (openRunWrap): it came gift-wrapped
    return e;
  }
  dispose() {
    if (!this.#native) return;
    registry.unregister(this);
    this.#native.delete();
    this.#native = null;
  }
}
