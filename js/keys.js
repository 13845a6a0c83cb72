// Secret and public keys, as nostr-tools names them.
import { core, checked, putSecret } from './core.js';

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
