// Secret and public keys, as nostr-tools names them.
import { core, checked } from './core.js';

/** 32 random bytes that form a valid secp256k1 secret key (CSPRNG: crypto.getRandomValues). */
export function generateSecretKey() {
  return core().generateSecretKey();
}

/** Hex x-only public key of a 32-byte secret key. */
export function getPublicKey(secretKey) {
  return checked(core().getPublicKey(secretKey));
}

/** True when `hex` is 64 lowercase hex characters naming a point on the curve. */
export function isValidPublicKey(hex) {
  return typeof hex === 'string' && core().isValidPublicKey(hex);
}
