/** NIP-XX AI Agent Messages kinds. */
export const KINDS: Readonly<{
  status: 25800;
  delta: 25801;
  prompt: 25802;
  response: 25803;
  toolCall: 25804;
  error: 25805;
  cancel: 25806;
  info: 31340;
}>;

/** The seed's error codes (ai.error `code`), as AgentError carries them. */
export type AgentErrorCode =
  | 'UNSUPPORTED_ENCRYPTION'
  | 'UNSUPPORTED_MODEL'
  | 'UNSUPPORTED_SCHEMA_VERSION'
  | 'CANCELLED'
  | 'RATE_LIMIT'
  | 'UNAUTHORIZED'
  | 'BLOCKED_SENDER'
  | 'MODEL_UNAVAILABLE'
  | 'SESSION_LIMIT'
  | 'PARSE_ERROR'
  | 'EMPTY_RESPONSE'
  | 'TOOL_ERROR'
  | 'INVALID_SCHEMA'
  | 'UNSUPPORTED_FEATURE'
  | 'INVALID_SEQUENCE'
  | 'INTERNAL_ERROR';

/** Every AgentErrorCode. */
export const ERROR_CODES: readonly AgentErrorCode[];

/** What validatePayload answers. */
export type PayloadVerdict = { ok: true } | { ok: false; code: 'PARSE_ERROR' | 'INVALID_SCHEMA'; message: string };

/** Checks a decrypted payload against the seed's JSON Schema for `kind`. */
export function validatePayload(kind: number, payload: string | object): PayloadVerdict;

/**
 * Privacy-first profile: true when a gift-wrapped rumor's content is the payload itself (what this
 * package sends), false when it is NIP-44 ciphertext to decrypt first (what some peers send).
 */
export function rumorContentIsPayload(content: string): boolean;

/** What ClientRun.onEvent did with one event of the run. */
export type RunUpdate =
  | { type: 'status'; status: { ver: 1; state: 'thinking' | 'tool_use' | 'done'; progress?: number; info?: string } }
  | { type: 'delta'; thinking?: string }
  | { type: 'tool_call'; toolCall: Record<string, unknown> & { ver: 1 } }
  | { type: 'terminal'; replaced: boolean; replacedId?: string }
  | { type: 'ignored'; reason: string }
  | { type: 'rejected'; reason: string; code: AgentErrorCode };

/** The run's winning terminal: an ai.response (25803) or an ai.error (25805). */
export interface RunTerminal {
  kind: 25803 | 25805;
  eventId: string;
  createdAt: number;
  response?: { ver: 1; text: string; timestamp?: number; usage?: { input_tokens: number; output_tokens: number } };
  error?: { ver: 1; code: AgentErrorCode; message: string; retry_after?: number; details?: Record<string, unknown> };
}

/**
 * Client-side reconciliation of one run (sans-IO). `terminalGrace` (ms, default 1500): how long
 * after the first terminal a newer one (by created_at, then id) still replaces it.
 */
export class ClientRun {
  constructor(options: { promptId: string; agentPubkey: string; clientPubkey: string; terminalGrace?: number });
  /** `nowMs`: when the event arrived (ms; only settleAt uses it). */
  onEvent(event: import('./index.js').NostrEvent, plaintext: string, nowMs?: number): RunUpdate;
  /** When the outcome is final: the first terminal's arrival (nowMs) plus terminalGrace; null before any terminal. */
  readonly settleAt: number | null;
  readonly terminalGrace: number;
  readonly text: string;
  readonly degraded: boolean;
  readonly terminal: RunTerminal | null;
  dispose(): void;
}

/** An event for the agent to encrypt, sign and publish. */
export interface Outgoing {
  kind: number;
  tags: string[][];
  plaintext: string;
}

/** Agent-side ledger of one run (sans-IO). */
export class AgentRun {
  constructor(options: { promptId: string; clientPubkey: string; session?: string; info?: Record<string, unknown>; privacyFirst?: boolean });
  status(state: 'thinking' | 'tool_use' | 'done', options?: { progress?: number; info?: string }): Outgoing;
  /** `now` (seconds): the ts of the envelope a text travels in when it would otherwise read as one. */
  delta(text: string, options?: { now?: number }): Outgoing;
  toolCall(payload: { name: string; phase: 'start' | 'result'; arguments?: object; output?: object; success?: boolean; duration_ms?: number }): Outgoing;
  respond(text: string, usage?: { input_tokens: number; output_tokens: number }, options?: { now?: number }): Outgoing;
  fail(code: AgentErrorCode, message: string, options?: { retryAfter?: number }): Outgoing;
  cancel(): Outgoing | null;
  readonly finished: boolean;
  dispose(): void;
}
