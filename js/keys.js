// Secret and public keys, as nostr-tools names them.
import { core, checked, putSecret } from './core.js';
import { NostrError } from './errors.js';
import { decode as nip19Decode } from './nip19.js';

/** 32 random bytes that form a valid secp256k1 secret key (CSPRNG: crypto.getRandomValues). */
export function generateSecretKey() {
  return core().generateSecretKey();
}

/** Hex x-only public key of a 32-byte secret key. */
export function getPublicKey(secretKey) {
  putSecret(secretKey);
  return checked(core().getPublicKey());
}

/** True when `hex` is 64 lowercase hex characters naming a point on the curve. */
export function isValidPublicKey(hex) {
  return typeof hex === 'string' && core().isValidPublicKey(hex);
}

// A bech32 string (NIP-19): a prefix, the separator 1, then only the bech32 alphabet.
const BECH32 = /^([a-z]+)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/i;

/**
 * Internal (AGX peers, NIP-XX agents, the CLI): a public key given as 64 hex characters (either
 * case) or an npub, as 64 lowercase hex. Throws NostrError: the NIP-19 code (BECH32_CHECKSUM,
 * BECH32_LENGTH, ...) for an npub that does not decode; BECH32_PREFIX for another entity (an
 * nprofile too: its relay hints would be dropped here unseen; an nsec is never decoded);
 * INVALID_PUBLIC_KEY for anything else, including a key that is not a point on the curve.
 * Messages never repeat the input (it may be a secret key given by mistake).
 */
export function publicKeyHex(key, what = 'public key') {
  if (typeof key !== 'string') throw new NostrError('INVALID_PUBLIC_KEY', `${what} must be a string: an npub or 64 hex characters`);
  let hex;
  if (/^[0-9a-fA-F]{64}$/.test(key)) hex = key.toLowerCase();
  else {
    const prefix = /^npub1/i.test(key) ? 'npub' : BECH32.exec(key)?.[1].toLowerCase();
    const d = prefix === 'npub' ? nip19Decode(key) : null; // BECH32_CHECKSUM, BECH32_LENGTH, ...
    if (d?.type === 'npub') hex = d.data;
    else if (prefix === undefined) throw new NostrError('INVALID_PUBLIC_KEY', `${what} must be an npub or 64 hex characters`);
    else throw new NostrError('BECH32_PREFIX', `${what} must be an npub, not ${d ? d.type : prefix.slice(0, 16)}`);
  }
  if (!isValidPublicKey(hex)) throw new NostrError('INVALID_PUBLIC_KEY', `${what} is not a point on the curve`);
  return hex;
}

/**
 * Internal (nip59, AGX): a Signer's getPublicKey(), which must be 64 lowercase hex (a NIP-07
 * extension or a bunker may answer anything); INVALID_PUBLIC_KEY otherwise.
 */
export async function signerPublicKey(signer) {
  const pubkey = await signer.getPublicKey();
  if (typeof pubkey !== 'string' || !/^[0-9a-f]{64}$/.test(pubkey))
    throw new NostrError('INVALID_PUBLIC_KEY', 'the signer returned a public key that is not 64 lowercase hex');
  return pubkey;
}

/**
 * Internal (LocalSigner): copies a secret key into wasm memory behind an integer handle.
 * Dispose with core().keyDispose(handle), which wipes it.
 */
export function createKeyHandle(secretKey) {
  putSecret(secretKey);
  const h = core().keyCreate();
  if (h < 0) checked(undefined);
  return h;
}
