// The error a NIP-XX run ends with when the agent answers ai.error (or the run is cancelled).
import { NostrError } from '../errors.js';

/**
 * A protocol error from the agent: `code` is one of nipxx.ERROR_CODES, `retryAfter` (seconds)
 * is set for transient failures (RATE_LIMIT...), `details` is the agent's optional object.
 * Handlers may also throw it to end a run with a chosen code and a public message.
 */
export class AgentError extends NostrError {
  constructor(code, message = '', { retryAfter, details, eventId, cause } = {}) {
    super(code, message, cause === undefined ? undefined : { cause });
    this.name = 'AgentError';
    this.message = message; // the agent's own text (NostrError would prefix the code)
    if (retryAfter !== undefined) this.retryAfter = retryAfter;
    if (details !== undefined) this.details = details;
    if (eventId !== undefined) this.eventId = eventId;
  }

  /** The seed's wire name for retryAfter. */
  get retry_after() {
    return this.retryAfter;
  }
}
