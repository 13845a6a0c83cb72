// NIP-19 bech32 entities, with nostr-tools' names and result shapes. The C++ core encodes and
// decodes; this module checks JS argument types first, because Embind would otherwise coerce
// them (a string where bytes belong, a lone surrogate turned into other bytes).
import { core, checked, putSecret } from './core.js';
import { NostrError } from './errors.js';

/** Longest string accepted, as in nostr-tools (BIP-173's 90 is too short for TLV entities). */
export const Bech32MaxSize = 5000;

export const NostrTypeGuard = {
  isNProfile: (value) => /^nprofile1[a-z\d]+$/.test(value || ''),
  isNEvent: (value) => /^nevent1[a-z\d]+$/.test(value || ''),
  isNAddr: (value) => /^naddr1[a-z\d]+$/.test(value || ''),
  isNSec: (value) => /^nsec1[a-z\d]{58}$/.test(value || ''),
  isNPub: (value) => /^npub1[a-z\d]{58}$/.test(value || ''),
  isNote: (value) => /^note1[a-z\d]+$/.test(value || ''),
  isNcryptsec: (value) => /^ncryptsec1[a-z\d]+$/.test(value || ''),
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (s) => (typeof s.isWellFormed === 'function' ? s.isWellFormed() : !LONE_SURROGATE.test(s));

function text(value, what) {
  if (typeof value !== 'string') throw new NostrError('INVALID_ARGUMENT', `${what} must be a string`);
  if (!wellFormed(value)) throw new NostrError('INVALID_UTF8', `${what} contains a lone surrogate`);
  return value;
}

function hex(value, what) {
  if (typeof value !== 'string') throw new NostrError('INVALID_HEX', `${what} must be a hex string`);
  return value; // length and digits are checked by the core (INVALID_LENGTH, INVALID_HEX)
}

function relayList(relays) {
  if (relays === undefined || relays === null) return [];
  if (!Array.isArray(relays)) throw new NostrError('INVALID_ARGUMENT', 'relays must be an array of strings');
  for (const r of relays) text(r, 'relay');
  return relays;
}

function kindNumber(kind) {
  if (!Number.isInteger(kind) || kind < 0 || kind > 0xffffffff)
    throw new NostrError('INVALID_ARGUMENT', 'kind must be an integer from 0 to 2^32-1');
  return kind;
}

function pointer(value, what) {
  if (value === null || typeof value !== 'object') throw new NostrError('INVALID_ARGUMENT', `${what} must be an object`);
  return value;
}

/** `npub1…` of a 32-byte hex public key. */
export function npubEncode(hexKey) {
  return checked(core().nip19EncodeNpub(hex(hexKey, 'public key')));
}

/** `nsec1…` of a 32-byte secret key. */
export function nsecEncode(key) {
  if (!(key instanceof Uint8Array)) throw new NostrError('INVALID_ARGUMENT', 'secret key must be a Uint8Array');
  putSecret(key, 'INVALID_LENGTH');
  return checked(core().nip19EncodeNsec());
}

/** `note1…` of a 32-byte hex event id. */
export function noteEncode(hexId) {
  return checked(core().nip19EncodeNote(hex(hexId, 'event id')));
}

/** `nprofile1…`: pubkey and optional relays, written in the spec's TLV order. */
export function nprofileEncode(profile) {
  pointer(profile, 'profile');
  return checked(core().nip19EncodeNprofile(hex(profile.pubkey, 'pubkey'), relayList(profile.relays)));
}

/** `nevent1…`: id, optional relays, author and kind. A falsy author is left out, as in nostr-tools. */
export function neventEncode(event) {
  pointer(event, 'event');
  const author = event.author ? hex(event.author, 'author') : undefined;
  const kind = event.kind === undefined || event.kind === null ? undefined : kindNumber(event.kind);
  return checked(core().nip19EncodeNevent(hex(event.id, 'id'), relayList(event.relays), author, kind));
}

/** `naddr1…`: identifier (the `d` tag, may be empty), pubkey, kind and optional relays. */
export function naddrEncode(addr) {
  pointer(addr, 'address');
  return checked(
    core().nip19EncodeNaddr(
      text(addr.identifier, 'identifier'),
      hex(addr.pubkey, 'pubkey'),
      kindNumber(addr.kind),
      relayList(addr.relays),
    ),
  );
}

/** Bech32 of arbitrary bytes under any lowercase prefix. */
export function encodeBytes(prefix, bytes) {
  if (typeof prefix !== 'string') throw new NostrError('INVALID_ARGUMENT', 'prefix must be a string');
  if (!(bytes instanceof Uint8Array)) throw new NostrError('INVALID_ARGUMENT', 'bytes must be a Uint8Array');
  return checked(core().nip19EncodeBytes(text(prefix, 'prefix'), bytes));
}

/**
 * Decodes any NIP-19 entity into `{type, data}`; throws NostrError with BECH32_* or TLV_INVALID.
 * Upper-case strings are accepted; mixed case is not (BIP-173).
 */
export function decode(code) {
  if (typeof code !== 'string') throw new NostrError('INVALID_ARGUMENT', 'expected a bech32 string');
  // Refuse oversize input before copying it into wasm memory.
  if (code.length > Bech32MaxSize) throw new NostrError('BECH32_LENGTH', `longer than ${Bech32MaxSize} characters`);
  return checked(core().nip19Decode(code));
}

/**
 * decode() after stripping a `nostr:` scheme (NIP-21). Like nostr-tools, it does not throw:
 * anything undecodable gives `{ type: 'invalid', data: null }`.
 */
export function decodeNostrURI(uri) {
  if (typeof uri !== 'string') return { type: 'invalid', data: null };
  const code = uri.slice(0, 6).toLowerCase() === 'nostr:' ? uri.slice(6) : uri;
  try {
    return decode(code);
  } catch (err) {
    if (err instanceof NostrError) return { type: 'invalid', data: null };
    throw err;
  }
}
