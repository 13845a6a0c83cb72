// The AGX gift wrap, outbound: seal by the author, wrap under a one-time key with
// [["p",to],["expiration",created_at+30d],["nonce",n,"12"]], created_at backdated by the core, PoW
// mined in bounded slices so the event loop keeps turning between them. With a LocalSigner (or a
// secret key) the seal is made inside the core; with any other Signer (NIP-07, NIP-46) the signer
// encrypts the rumor and signs the seal, and only the one-time wrap key is generated and used here.
import { core, checked, putSecret } from '../core.js';
import { NostrError } from '../errors.js';
import { signerPublicKey } from '../keys.js';
import { isSigner } from '../signer.js';
import { constants } from './endpoint.js';
import { WRAP_RANDOM, localHandle, nowOf, peerHex, randomBytes, tick } from './util.js';

const DEFAULT_SLICE = 1024;

function keyOf(key) {
  if (key instanceof Uint8Array) return 'sk';
  if (localHandle(key)) return 'handle';
  if (isSigner(key)) return 'signer';
  throw new NostrError('INVALID_ARGUMENT', 'expected a Signer or a 32-byte secret key (Uint8Array)');
}

function rumorJson(rumor) {
  if (rumor === null || typeof rumor !== 'object') throw new NostrError('NIP59_INVALID_RUMOR', 'rumor must be an object');
  const { id, pubkey, created_at, kind, tags, content } = rumor;
  return JSON.stringify({ id, pubkey, created_at, kind, tags, content });
}

/** The seal of `rumor` by an external signer: checked before the signer sees anything, verified after. */
export async function sealWithSigner(rumor, signer, to, now) {
  const pubkey = await signerPublicKey(signer);
  if (rumor?.pubkey !== pubkey) throw new NostrError('INVALID_ARGUMENT', "the rumor's author is not this signer");
  const { kinds } = constants();
  if (rumor.kind !== kinds.message && rumor.kind !== kinds.receipt)
    throw new NostrError('INVALID_ARGUMENT', `AGX wraps only message (${kinds.message}) and receipt (${kinds.receipt}) rumors`);
  const ps = (rumor.tags ?? []).filter((t) => Array.isArray(t) && t[0] === 'p');
  if (ps.length !== 1 || ps[0][1] !== to)
    throw new NostrError('INVALID_ARGUMENT', 'the rumor must carry exactly one p tag, the recipient');
  const json = checked(core().nip59OpenRumor(rumorJson(rumor), pubkey, '', false)); // id is its hash
  const content = await signer.nip44Encrypt(to, json);
  if (typeof content !== 'string') throw new NostrError('NIP59_INVALID_SEAL', 'the signer returned no ciphertext');
  const created_at = core().agxBackdated(now, randomBytes(8));
  const template = { kind: 13, created_at, tags: [], content };
  const signed = await signer.signEvent(template);
  const seal = JSON.parse(checked(core().agxOpenSeal(JSON.stringify(signed ?? null))));
  if (seal.pubkey !== pubkey || seal.content !== content || seal.created_at !== created_at || seal.tags.length)
    throw new NostrError('NIP59_INVALID_SEAL', 'the signer returned a seal that differs from the template');
  return seal;
}

/**
 * Wraps an AGX rumor to `recipient` with its author's Signer (LocalSigner, Nip07Signer, any object
 * with getPublicKey/signEvent/nip44Encrypt/nip44Decrypt) or a 32-byte secret key. options: now,
 * slice (nonces per slice, default 1024), signal (AbortSignal). Resolves to the signed kind 1059
 * event.
 */
export async function wrapRumor(rumor, key, recipient, options = {}) {
  const kind = keyOf(key);
  const to = peerHex(recipient);
  const now = nowOf(options);
  const slice = options.slice ?? DEFAULT_SLICE;
  const signal = options.signal;
  const seal = kind === 'signer' ? await sealWithSigner(rumor, key, to, now) : null;
  const job = new (core().AgxWrapJob)();
  try {
    const random = randomBytes(WRAP_RANDOM);
    if (kind === 'handle') checked(job.startWithHandle(localHandle(key), rumorJson(rumor), to, now, random));
    else if (kind === 'sk') {
      putSecret(key);
      checked(job.startWithSecret(rumorJson(rumor), to, now, random));
    } else checked(job.startWithSeal(JSON.stringify(seal), to, now, random));
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
