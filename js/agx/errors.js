// Errors of the AGX layer. AgxPublicError: a handler error whose text crosses to the peer
// verbatim; any other thrown error reaches the peer only as "handler failed".
import { NostrError } from '../errors.js';
import { rejectionOf } from './task-gate.js';

export class AgxPublicError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AgxPublicError';
  }
}

/**
 * A task that came back failed: `code` AGX_TASK_FAILED, `result` the peer's envelope. A flood-limit
 * rejection (error text "rate-limited..." or "overloaded...", see task-gate.js) also has
 * `rejected` ('rate-limited' | 'overloaded') and, when the peer said, `retryAfter` (seconds).
 */
export function taskFailed(result) {
  const err = new NostrError('AGX_TASK_FAILED', result.error ?? 'the peer reported a failure');
  err.result = result;
  const r = rejectionOf(result.error);
  if (r) {
    err.rejected = r.reason;
    if (r.retryAfter !== undefined) err.retryAfter = r.retryAfter;
  }
  return err;
}
