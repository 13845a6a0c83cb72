// NIP-XX AI Agent Messages: kinds and payload validation (the client and the agent runtime are
// built on these).
import { core } from './core.js';
import { NostrError } from './errors.js';

/** The seed's kinds (its kinds table is garbled; these are the kinds its text uses). */
export const KINDS = Object.freeze({
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
export const ERROR_CODES = Object.freeze([
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
