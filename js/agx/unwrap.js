// The AGX gift wrap, inbound: every public check, then NIP-59's four, then the payload parsed.
import { core, writeScratch, putSecret } from '../core.js';
import { NostrError } from '../errors.js';
import { isSigner } from '../signer.js';
import { keyKind, localHandle, nowOf } from './util.js';

/**
 * Opens a received wrap with a LocalSigner or a 32-byte secret key. Returns
 * { from, wrapId, wrapCreatedAt, sentAt, rumor, kind: 'message'|'receipt',
 *   class: 'text'|'task-request'|'task-result'|'task-status'|'task-input'|'receipt'|'unknown', message?, task?, receipt?, taskMalformed? }.
 * Throws a NostrError (AGX_WRAP_*, NIP59_*, AGX_PAYLOAD_INVALID...) whose `disposition` is the
 * core's verdict: 'retry' (leave it unseen, try later: future-dated, or a local fault), 'ignore' (a
 * public check failed: record it nowhere) or 'discard' (it passed the public checks and did not
 * check out: its id may be cached). `retry` is disposition === 'retry'.
 */
export function unwrapAgx(wrap, key, options = {}) {
  const kind = keyKind(key);
  if (wrap === null || typeof wrap !== 'object') throw invalid(new NostrError('INVALID_EVENT', 'wrap must be an object'), 'ignore');
  const c = core();
  const now = nowOf(options);
  const len = writeScratch(JSON.stringify(wrap));
  let out;
  if (kind === 'handle') out = c.agxUnwrapWithHandle(localHandle(key), len, now);
  else {
    putSecret(key);
    out = c.agxUnwrapWithSecret(len, now);
  }
  if (out === undefined) throw lastError();
  return JSON.parse(out);
}

function invalid(err, disposition) {
  err.disposition = disposition;
  err.retry = disposition === 'retry';
  return err;
}

/**
 * A signer error that means "unavailable" (unreachable bunker, KMS timeout, no extension, a
 * disposed key), as opposed to "this input does not check out". SPEC.md "Signing": a poll that hits
 * the former reports itself incomplete and discards nothing. A custom signer says so by throwing
 * AgxSignerUnavailableError (or any error with code SIGNER_UNAVAILABLE or `unavailable: true`).
 * A NIP-07 extension reports a refusal and an undecryptable payload alike (SIGNER_REJECTED): that
 * counts as bad input, unless the host passes its own `isSignerUnavailable`.
 */
export class AgxSignerUnavailableError extends NostrError {
  constructor(message = 'the signer is unavailable', options) {
    super('SIGNER_UNAVAILABLE', message, options);
    this.name = 'AgxSignerUnavailableError';
    this.unavailable = true;
  }
}

// SIGNER_INVALID_RESPONSE: a remote signer (NIP-46) answered with something that does not hold up:
// the signer is malfunctioning, which says nothing against the wrap.
const UNAVAILABLE = new Set(['SIGNER_UNAVAILABLE', 'SIGNER_DISPOSED', 'SIGNER_UNSUPPORTED', 'SIGNER_TIMEOUT', 'SIGNER_INVALID_RESPONSE']);

export function isSignerUnavailable(err) {
  return !!err && typeof err === 'object' && (err.unavailable === true || UNAVAILABLE.has(err.code));
}

function lastError(disposition) {
  const c = core();
  const { code, message } = c.lastError();
  return invalid(new NostrError(code, message), disposition ?? c.agxLastUnwrapDisposition());
}

function unavailableError(err) {
  const e = new AgxSignerUnavailableError(`the signer is unavailable: ${err?.message ?? err}`, { cause: err });
  e.retry = true;
  e.disposition = 'retry';
  e.signerUnavailable = true;
  return e;
}

/** A typed error from the core's verdict on a wrap (the endpoint's): code, message, and its disposition. */
export function unwrapError(code, message, verdict) {
  const disposition = verdict === 'discarded' ? 'discard' : verdict === 'invalid' ? 'ignore' : 'retry';
  return invalid(new NostrError(code ?? 'INTERNAL', message ?? String(verdict)), disposition);
}

/** One layer opened by an external signer: 'discard' errors for bad input, unavailable ones to retry. */
export async function signerDecrypt(signer, pubkey, payload, classify) {
  let text;
  try {
    text = await signer.nip44Decrypt(pubkey, payload);
  } catch (err) {
    if (classify(err)) throw unavailableError(err);
    // bad input, after the public checks passed: the wrap is discarded (cached, never retried)
    throw invalid(new NostrError('AGX_SIGNER_REFUSED', `the signer could not open it: ${err?.message ?? err}`, { cause: err }), 'discard');
  }
  if (typeof text !== 'string') throw invalid(new NostrError('AGX_SIGNER_REFUSED', 'the signer returned no plaintext'), 'discard');
  return text;
}

/**
 * unwrapAgx with any key, as a Promise: a LocalSigner or secret key opens it in one core call; any
 * other Signer decrypts the two layers (nip44Decrypt) while the core makes every check. options:
 * now, me (our hex pubkey; asked of the signer otherwise), isSignerUnavailable (classifier). An
 * error from an unavailable signer has `retry` and `signerUnavailable` set.
 */
export async function unwrapAgxAsync(wrap, key, options = {}) {
  if (key instanceof Uint8Array || localHandle(key)) return unwrapAgx(wrap, key, options);
  if (!isSigner(key)) throw new NostrError('INVALID_ARGUMENT', 'expected a Signer or a 32-byte secret key');
  if (wrap === null || typeof wrap !== 'object') throw invalid(new NostrError('INVALID_EVENT', 'wrap must be an object'), 'ignore');
  const classify = options.isSignerUnavailable ?? isSignerUnavailable;
  const c = core();
  const now = nowOf(options);
  let me = options.me;
  if (me === undefined) {
    try {
      me = await key.getPublicKey();
    } catch (err) {
      throw unavailableError(err);
    }
  }
  const wrapJson = JSON.stringify(wrap);
  if (c.agxCheckWrap(wrapJson, String(me), now) === undefined) throw lastError();
  const sealJson = await signerDecrypt(key, wrap.pubkey, wrap.content, classify);
  const seal = c.agxOpenSeal(sealJson);
  if (seal === undefined) throw lastError('discard');
  const sealObj = JSON.parse(seal);
  const rumorJson = await signerDecrypt(key, sealObj.pubkey, sealObj.content, classify);
  const out = c.agxOpenRumor(wrapJson, seal, rumorJson, String(me));
  if (out === undefined) throw lastError('discard');
  return JSON.parse(out);
}
