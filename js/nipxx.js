// NIP-XX AI Agent Messages: kinds and payload validation (the client and the agent runtime are
// built on these).
import { core } from './core.js';
import { NostrError } from './errors.js';

/** The seed's kinds (its kinds table is garbled; these are the kinds its text uses). */
export const KINDS = /* @__PURE__ */ Object.freeze({
  status: 25800,
  delta: 25801,
  prompt: 25802,
  response: 25803,
  toolCall: 25804,
  error: 25805,
  cancel: 25806,
  info: 31340,
});

/** The protocol's error codes ("Error codes" table). */
export const ERROR_CODES = /* @__PURE__ */ Object.freeze([
  'UNSUPPORTED_ENCRYPTION',
  'UNSUPPORTED_MODEL',
  'UNSUPPORTED_SCHEMA_VERSION',
  'CANCELLED',
  'RATE_LIMIT',
  'UNAUTHORIZED',
  'BLOCKED_SENDER',
  'MODEL_UNAVAILABLE',
  'SESSION_LIMIT',
  'PARSE_ERROR',
  'EMPTY_RESPONSE',
  'TOOL_ERROR',
  'INVALID_SCHEMA',
  'UNSUPPORTED_FEATURE',
  'INVALID_SEQUENCE',
  'INTERNAL_ERROR',
]);

/**
 * Checks a decrypted payload (JSON text or a value) against the seed's JSON Schema for `kind`.
 * Returns `{ ok: true }` or `{ ok: false, code, message }` with code PARSE_ERROR or INVALID_SCHEMA.
 */
export function validatePayload(kind, payload) {
  if (!Object.values(KINDS).includes(kind)) throw new NostrError('INVALID_ARGUMENT', `${kind} is not a NIP-XX kind`);
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  if (typeof text !== 'string') return { ok: false, code: 'PARSE_ERROR', message: 'payload is not JSON' };
  const c = core();
  if (c.nipxxValidatePayload(kind, text) === 0) return { ok: true };
  const { code, message } = c.lastError();
  return { ok: false, code, message };
}

/**
 * The privacy-first profile: true when a rumor's content is the payload itself (what we send),
 * false when it is NIP-44 ciphertext to decrypt first (what some peers send). See the core's
 * rumor_content_is_payload.
 */
export function rumorContentIsPayload(content) {
  return typeof content === 'string' && core().nipxxRumorContentIsPayload(content);
}

const registry = /* @__PURE__ */ new FinalizationRegistry((native) => native.delete());

function own(wrapper, native) {
  registry.register(wrapper, native, wrapper);
  return native;
}

function release(wrapper, native) {
  registry.unregister(wrapper);
  native.delete();
}

/**
 * The client's reconciliation of one run (sans-IO): feed every received event of the run with
 * its decrypted content; each call returns a typed update. Ordering, dedupe, gaps ("degraded"),
 * INVALID_SEQUENCE, terminal selection by (created_at, id): the seed's "Streaming and
 * reconciliation" rules, applied by the core. `terminalGrace` (ms, default the core's 1500): how
 * long after the first terminal a newer one still replaces it (see `settleAt`).
 */
export class ClientRun {
  #native;
  constructor({ promptId, agentPubkey, clientPubkey, terminalGrace }) {
    this.#native = own(this, new (core().NipxxClientRun)(promptId, agentPubkey, clientPubkey, terminalGrace ?? -1));
  }
  /**
   * event: a verified NostrEvent (read in place by the core, not serialized again); plaintext:
   * its decrypted content; nowMs: when it arrived (ms).
   */
  onEvent(event, plaintext, nowMs = 0) {
    const u = this.#native.onEvent(event, plaintext, nowMs);
    if (u === undefined) throw Object.assign(new NostrError('INVALID_EVENT', core().lastError().message));
    return u;
  }
  /**
   * When the run's outcome is final (ms, on the clock of onEvent's nowMs): the arrival of its
   * first terminal plus terminalGrace; null before any terminal.
   */
  get settleAt() {
    return this.#native.settleAt();
  }
  /** The grace period (ms) this run uses. */
  get terminalGrace() {
    return this.#native.terminalGrace();
  }
  /** Best-effort text of the deltas so far, in order. */
  get text() {
    return this.#native.text();
  }
  get degraded() {
    return this.#native.degraded();
  }
  get terminal() {
    return this.#native.terminal();
  }
  dispose() {
    if (this.#native) release(this, this.#native);
    this.#native = null;
  }
}

function outgoing(value) {
  if (value === undefined) {
    const { code, message } = core().lastError();
    throw new NostrError(code, message);
  }
  return value;
}

/**
 * The agent's ledger of one run (sans-IO): each call returns the {kind, tags, plaintext} to
 * encrypt, sign and publish, and enforces seq from 0, one terminal, cancel once.
 */
export class AgentRun {
  #native;
  constructor({ promptId, clientPubkey, session = '', info, privacyFirst = false }) {
    const infoJson = info ? JSON.stringify({ ver: 1, ...info }) : '';
    this.#native = own(this, new (core().NipxxAgentRun)(promptId, clientPubkey, session, infoJson, privacyFirst));
  }
  status(state, { progress = -1, info = '' } = {}) {
    return outgoing(this.#native.status(state, progress, info));
  }
  /** `now` (seconds): the ts of the envelope a text travels in when it would read as one. */
  delta(text, { now = Math.floor(Date.now() / 1000) } = {}) {
    return outgoing(this.#native.delta(text, now));
  }
  toolCall(payload) {
    return outgoing(this.#native.toolCall(JSON.stringify({ ver: 1, ...payload })));
  }
  respond(text, usage, { now = Math.floor(Date.now() / 1000) } = {}) {
    return outgoing(this.#native.respond(text, usage?.input_tokens ?? -1, usage?.output_tokens ?? -1, now));
  }
  fail(code, message, { retryAfter = 0 } = {}) {
    return outgoing(this.#native.fail(code, message, retryAfter));
  }
  /** The CANCELLED error to publish, or null when the run already ended or was cancelled. */
  cancel() {
    return this.#native.cancel();
  }
  get finished() {
    return this.#native.finished();
  }
  dispose() {
    if (this.#native) release(this, this.#native);
    this.#native = null;
  }
}
