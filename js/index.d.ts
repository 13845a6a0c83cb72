// Public API of nostr-agents. Event objects are plain and interchangeable with nostr-tools'.

/** What finalizeEvent and Signer.signEvent sign: an event without pubkey, id and sig. */
export interface EventTemplate {
  kind: number;
  tags: string[][];
  content: string;
  created_at: number;
}

/** A template with its author's hex public key: what serializeEvent and getEventHash read. */
export interface UnsignedEvent extends EventTemplate {
  pubkey: string;
}

/** A signed NIP-01 event: id (the hash of the serialization) and a BIP-340 signature, in lowercase hex. */
export interface NostrEvent extends UnsignedEvent {
  id: string;
  sig: string;
}

/** A NIP-01 subscription filter; `#x` keys match single-letter tags. */
export interface Filter {
  ids?: string[];
  authors?: string[];
  kinds?: number[];
  since?: number;
  until?: number;
  limit?: number;
  [tag: `#${string}`]: string[] | undefined;
}

/** Every failure of the package: `code` is stable (docs/errors.md). */
export class NostrError extends Error {
  readonly code: string;
  constructor(code: string, message?: string, options?: { cause?: unknown });
}

/** Loads the WASM core; await it once before any other call. */
export function init(): Promise<void>;
/** True once init() has loaded the WASM core. */
export function isReady(): boolean;

/** Lowercase hex of the bytes. */
export function bytesToHex(bytes: Uint8Array): string;
/** Bytes of a hex string (either case); throws NostrError INVALID_HEX. */
export function hexToBytes(hex: string): Uint8Array;

/** 32 random bytes that form a valid secp256k1 secret key (from crypto.getRandomValues). */
export function generateSecretKey(): Uint8Array;
/** Hex x-only public key of a 32-byte secret key; throws NostrError INVALID_SECRET_KEY. */
export function getPublicKey(secretKey: Uint8Array): string;
/** True when `hex` is 64 lowercase hex characters naming a point on the curve. */
export function isValidPublicKey(hex: string): boolean;

/** The NIP-01 serialization whose sha256 is the event id; throws NostrError INVALID_EVENT. */
export function serializeEvent(event: UnsignedEvent): string;
/** Hex id of an event, signed or not. */
export function getEventHash(event: UnsignedEvent): string;
/** True when every field has the right shape (no hashing, no signature check). */
export function validateEvent<T>(event: T): event is T & UnsignedEvent;
/** Signs a template with a secret key: a new event with pubkey, id and sig (the template is not changed). */
export function finalizeEvent(template: EventTemplate, secretKey: Uint8Array): NostrEvent;
/** True when the id is the event's hash and the signature is its author's; false for anything else, never throws. */
export function verifyEvent(event: NostrEvent): boolean;
/**
 * verifyEvent of each event, in order, computed together: BIP-340 batch verification of the
 * signatures (one multi-scalar multiplication per chunk), and single checks where a chunk fails,
 * so exactly the bad events are false. Faster than a loop of verifyEvent for a relay's backlog or
 * a query's results. Throws INVALID_ARGUMENT only when `events` is not an array.
 */
export function verifyEvents(events: NostrEvent[]): boolean[];
/** Like verifyEvent, but throws a NostrError saying why (INVALID_EVENT, ID_MISMATCH, INVALID_SIGNATURE). */
export function assertEvent(event: NostrEvent): NostrEvent;
/** True when the event matches the filter (NIP-01 rules). */
export function matchFilter(filter: Filter, event: NostrEvent): boolean;
/** True when the event matches at least one of the filters. */
export function matchFilters(filters: Filter[], event: NostrEvent): boolean;
/** Set to true on the events RelayPool delivers, which it verified (as in nostr-tools). */
export const verifiedSymbol: unique symbol;

export * as nip19 from './nip19.js';
export * as nip44 from './nip44.js';
export * as nip49 from './nip49.js';
export * as nip59 from './nip59.js';
export * as nip17 from './nip17.js';
export * as nip13 from './nip13.js';
export * as nip40 from './nip40.js';
export * as nip04 from './nip04.js';
export * from './signer.js';
export * as nipxx from './nipxx.js';
export * from './agents.js';
export * as agx from './agx.js';
export * from './relay.js';
export * from './simple-pool.js';
export * from './ndk.js';
export * from './nip46.js';
export * as kinds from './kinds.js';
export * as nip05 from './nip05.js';
export * as nip10 from './nip10.js';
export * as nip21 from './nip21.js';
export * as nip27 from './nip27.js';
export * as nip42 from './nip42.js';
export * as nip98 from './nip98.js';
