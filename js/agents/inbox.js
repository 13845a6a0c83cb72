// The core's NIP-XX agent inbox as serveAgent drives it (internal): which prompts to answer
// (dedupe, freshness) and which cancels to act on (authorization). See src/protocols/nip_xx/agent_inbox.hpp.
import { core } from '../core.js';
import { registry } from './machines.js';

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
  goLive() {
    this.#native.goLive();
  }
  /** 'handle' | 'duplicate' | 'not_addressed' | 'stale' | 'too_old' (json: the prompt as JSON text). */
  onPrompt(json, nowMs) {
    return this.#native.onPrompt(json, nowMs) ?? 'too_old';
  }
  runStarted(promptId, client) {
    this.#native.runStarted(promptId, client);
  }
  promptDone(promptId) {
    this.#native.promptDone(promptId);
  }
  /** 'ignore' | 'held' | 'decrypt'. */
  onCancel(json) {
    return this.#native.onCancel(json) ?? 'ignore';
  }
  /** The prompt id whose run the decrypted cancel cancels, or null. */
  authorizeCancel(json, plaintext) {
    return this.#native.authorizeCancel(json, plaintext);
  }
  /** The cancel held while `promptId` was being admitted (an event), or null. */
  takeHeld(promptId) {
    const json = this.#native.takeHeld(promptId);
    if (json === null) return null;
    const e = JSON.parse(json);
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
