// The core's NIP-XX client machines as js/agents drives them (internal): the client run
// (reconciliation and its deadlines), the prompt and cancel events, the choice of ai.info, and the
// constants table (the agent side's inbox is in inbox.js: a client-only bundle leaves it out). JS executes what they
// decide; it keeps no copy of a rule or a constant.
import { core } from '../core.js';
import { NostrError } from '../errors.js';

let table = null;

/** The core's NIP-XX constants (kinds, windows, grace, defaults): see src/protocols/nip_xx/constants.hpp. */
export function constants() {
  if (table === null) table = Object.freeze(core().nipxxConstants());
  return table;
}

export const registry = /* @__PURE__ */ new FinalizationRegistry((native) => native.delete());

function outgoing(value) {
  if (value === undefined) {
    const { code, message } = core().lastError();
    throw new NostrError(code, message);
  }
  return value;
}

/** ai.prompt: {kind, tags, plaintext} (canonical payload; the session always tagged). */
export function promptEvent(agent, client, session, payloadJson) {
  return outgoing(core().nipxxPromptEvent(agent, client, session ?? '', payloadJson));
}

/** ai.cancel of run `promptId`: {kind, tags, plaintext}. */
export function cancelEvent(agent, client, promptId, session, reason) {
  return outgoing(core().nipxxCancelEvent(agent, client, promptId, session ?? '', reason));
}

/**
 * The run's profile, 'default' or 'nip59', from the client's wish ('default' | 'nip59' | 'auto')
 * and the agent's ai.info event (null: the seed's defaults). Throws UNSUPPORTED_FEATURE for a
 * 'nip59' wish the agent does not support (Protocol Flow 2).
 */
export function choosePrivacy(wish, infoEvent) {
  return outgoing(core().nipxxChoosePrivacy(wish, infoEvent?.content ?? ''));
}

/** The subscription filter of a run's events (profile 'default' | 'nip59'; createdAt: the prompt's, s). */
export function runFilter(privacy, agent, client, promptId, createdAt) {
  return core().nipxxRunFilter(privacy, agent, client, promptId, createdAt);
}

/** The seed's recovery filters: a session's prompts (by #s and #p agent). */
export function sessionPromptFilters(agent, client, session) {
  return core().nipxxSessionPromptFilters(agent, client, session);
}

/** The terminals of a session's runs: [by #s, ...by #e root in chunks]. */
export function sessionTerminalFilters(agent, client, session, promptIds) {
  return core().nipxxSessionTerminalFilters(agent, client, session, promptIds);
}

/** The index in `events` of the newest valid ai.info of `agent` by (created_at, id), or -1. */
export function selectInfo(agent, events) {
  return core().nipxxSelectInfo(agent, events); // read in place: no JSON round trip
}

/** The client's run machine with its deadlines (ms on the driver's clock). */
export class ClientMachine {
  #native;
  constructor({ promptId, agent, client, terminalGrace, idleTimeout }) {
    this.#native = new (core().NipxxClientRun)(promptId, agent, client, terminalGrace ?? -1, idleTimeout ?? -1);
    registry.register(this, this.#native, this);
  }
  /** An update; a delta carries `append` (or `text` when the whole text changed) and `degraded`. */
  onEvent(event, plaintext, nowMs) {
    // The event object as the pool delivered it: the core reads its fields, it is not parsed again.
    const u = this.#native.onEvent(event, plaintext, nowMs);
    if (u === undefined) throw new NostrError('INVALID_EVENT', core().lastError().message);
    return u;
  }
  /** Whether the event names this run (e root): only those are decrypted. */
  namesRun(event) {
    return this.#native.namesRun(event);
  }
  start(nowMs) {
    this.#native.start(nowMs);
  }
  get mayCancel() {
    return this.#native.mayCancel();
  }
  cancelSent(nowMs, timeoutMs) {
    this.#native.cancelSent(nowMs, timeoutMs);
  }
  /** ms, or null. */
  get nextDeadline() {
    return this.#native.nextDeadline();
  }
  /** 'none' | 'settled' | 'idle' | 'cancel_unconfirmed'. */
  handleTimeout(nowMs) {
    return this.#native.handleTimeout(nowMs);
  }
  get settleAt() {
    return this.#native.settleAt();
  }
  get terminal() {
    return this.#native.terminal();
  }
  dispose() {
    if (!this.#native) return;
    registry.unregister(this);
    this.#native.delete();
    this.#native = null;
  }
}
