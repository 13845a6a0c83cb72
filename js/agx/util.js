// Shared helpers of the AGX layer: keys, peers, clocks, randomness.
import { core } from '../core.js';
import { NostrError } from '../errors.js';
import { publicKeyHex } from '../keys.js';

export const HANDLE = Symbol.for('nostr-agents.LocalSigner.handle');
export const WRAP_RANDOM = 176; // bindings/agx.cpp kWrapRandom

export function randomBytes(n) {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

export function randomId() {
  return Array.from(randomBytes(16), (b) => b.toString(16).padStart(2, '0')).join('');
}

export { nowOf } from '../now.js';

/** A LocalSigner's key handle in the module AGX runs on, or 0 (another signer, or a key held by another module). */
export function localHandle(key) {
  return key && typeof key[HANDLE] === 'function' ? key[HANDLE](core()) : 0;
}

/** 'handle' (LocalSigner), 'sk' (32-byte Uint8Array) or a thrown INVALID_ARGUMENT. */
export function keyKind(key) {
  if (key instanceof Uint8Array) return 'sk';
  if (localHandle(key)) return 'handle';
  throw new NostrError('INVALID_ARGUMENT', 'expected a LocalSigner or a 32-byte secret key (Uint8Array)');
}

/**
 * A peer given as npub or hex (either case), as 64 lowercase hex: keys.js publicKeyHex, so
 * INVALID_PUBLIC_KEY (also off the curve) or the NIP-19 code of an npub that does not decode.
 */
export const peerHex = (peer) => publicKeyHex(peer, 'peer');

export { yieldToLoop as tick } from '../yield-to-loop.js';
