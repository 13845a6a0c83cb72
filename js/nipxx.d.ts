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

export const ERROR_CODES: readonly AgentErrorCode[];

export type PayloadVerdict = { ok: true } | { ok: false; code: 'PARSE_ERROR' | 'INVALID_SCHEMA'; message: string };

/** Checks a decrypted payload against the seed's JSON Schema for `kind`. */
export function validatePayload(kind: number, payload: string | object): PayloadVerdict;
