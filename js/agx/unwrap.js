// The AGX gift wrap, inbound: every public check, then NIP-59's four, then the payload parsed.
import { core, writeScratch, putSecret } from '../core.js';
import { NostrError } from '../errors.js';
import { keyKind, localHandle, nowOf } from './util.js';

/**
 * Opens a received wrap with a LocalSigner or a 32-byte secret key. Returns
 * { from, wrapId, wrapCreatedAt, sentAt, rumor, kind: 'message'|'receipt',
 *   class: 'text'|'task-request'|'task-result'|'receipt'|'unknown', message?, task?, receipt?, taskMalformed? }.
 * Throws a NostrError (AGX_WRAP_*, NIP59_*, AGX_PAYLOAD_INVALID...) whose `retry` is true when the
 * wrap should be left unseen and tried later (future-dated, or a local fault), false to discard it.
 */
export function unwrapAgx(wrap, key, options = {}) {
  const kind = keyKind(key);
  if (wrap === null || typeof wrap !== 'object') throw Object.assign(new NostrError('INVALID_EVENT', 'wrap must be an object'), { retry: false });
  const c = core();
  const now = nowOf(options);
  const len = writeScratch(JSON.stringify(wrap));
  let out;
  if (kind === 'handle') out = c.agxUnwrapWithHandle(localHandle(key), len, now);
  else {
    putSecret(key);
    out = c.agxUnwrapWithSecret(len, now);
  }
  if (out === undefined) {
    const { code, message } = c.lastError();
    const err = new NostrError(code, message);
    err.retry = c.agxLastUnwrapRetry();
    throw err;
  }
  return JSON.parse(out);
}
