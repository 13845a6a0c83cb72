// The bunker's connection secrets and what it keeps across restarts: secrets are held as SHA-256
// digests and checked in constant time; a store (when given) remembers spent secrets and the
// clients that connected, with their grants.
import { core, scratchBytes, writeScratch } from './core.js';
import { NostrError } from './errors.js';
import { bytesToHex } from './hex.js';

const PREFIX = 'nip46-bunker:';

/** SHA-256 of a secret's UTF-8 (through the core; the copy in scratch memory is wiped). */
export function secretDigest(secret) {
  const len = writeScratch(secret);
  core().hashScratch(len);
  const digest = scratchBytes(0, 32).slice();
  scratchBytes(0, Math.max(32, len)).fill(0);
  return digest;
}

function equal32(a, b) {
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Takes the entry of `secrets` ([{ digest, ... }]) whose secret is `given` out of the list and
 * returns it (undefined when none matches). Every entry is compared in full, whatever matched, so
 * the time depends on neither the secrets' contents nor the guess's.
 */
export function consumeSecret(secrets, given) {
  const digest = secretDigest(given);
  let found = -1;
  for (let i = 0; i < secrets.length; i++) {
    const hit = equal32(secrets[i].digest, digest);
    found = hit && found < 0 ? i : found;
  }
  return found < 0 ? undefined : secrets.splice(found, 1)[0];
}

/**
 * The store option of startBunker as { get, set } of strings: an object with async or sync
 * get(key)/set(key, value) (a Map works) or getItem/setItem (localStorage works). Null without one.
 */
export function openBunkerStore(store) {
  if (store === undefined || store === null) return null;
  const web = typeof store.getItem === 'function' && typeof store.setItem === 'function';
  if (!web && !(typeof store.get === 'function' && typeof store.set === 'function'))
    throw new NostrError('INVALID_ARGUMENT', 'store must have get(key) and set(key, value), or getItem and setItem');
  return {
    async get(key) {
      const v = await (web ? store.getItem(PREFIX + key) : store.get(PREFIX + key));
      return typeof v === 'string' && v !== '' ? v : null;
    },
    async set(key, value) {
      await (web ? store.setItem(PREFIX + key, value) : store.set(PREFIX + key, value));
    },
  };
}

/** The store key of a spent secret (its digest: the store never holds a secret). */
export const spentKey = (digest) => `spent:${bytesToHex(digest)}`;

/** The store key of a client of the bunker at `remotePubkey`. */
export const clientKey = (remotePubkey, clientPubkey) => `client:${remotePubkey}:${clientPubkey}`;
