// The AGX gift wrap, outbound: seal by the author, wrap under a one-time key with
// [["p",to],["expiration",created_at+30d],["nonce",n,"12"]], created_at backdated by the core, PoW
// mined in bounded slices so the event loop keeps turning between them.
import { core, checked, putSecret } from '../core.js';
import { NostrError } from '../errors.js';
import { WRAP_RANDOM, keyKind, localHandle, nowOf, peerHex, randomBytes, tick } from './util.js';

const DEFAULT_SLICE = 1024;

/**
 * Wraps an AGX rumor to `recipient` with a LocalSigner (the rumor's author) or a 32-byte secret
 * key. options: now, slice (nonces per slice, default 1024), signal (AbortSignal).
 * Resolves to the signed kind 1059 event.
 */
export async function wrapRumor(rumor, key, recipient, options = {}) {
  const kind = keyKind(key);
  const to = peerHex(recipient);
  const now = nowOf(options);
  const slice = options.slice ?? DEFAULT_SLICE;
  const signal = options.signal;
  const job = new (core().AgxWrapJob)();
  try {
    const json = JSON.stringify(rumor);
    const random = randomBytes(WRAP_RANDOM);
    if (kind === 'handle') checked(job.startWithHandle(localHandle(key), json, to, now, random));
    else {
      putSecret(key);
      checked(job.startWithSecret(json, to, now, random));
    }
    for (;;) {
      if (signal?.aborted) throw new NostrError('ABORTED', 'the wrap was aborted', { cause: signal.reason });
      if (checked(job.step(slice))) break;
      await tick();
    }
    return JSON.parse(checked(job.finish()));
  } finally {
    job.delete();
  }
}
