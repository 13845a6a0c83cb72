// Public API of nostr-agents. Event objects are plain and interchangeable with nostr-tools'.

export interface EventTemplate {
  kind: number;
  tags: string[][];
  content: string;
  created_at: number;
}

export interface UnsignedEvent extends EventTemplate {
  pubkey: string;
}

export interface NostrEvent extends UnsignedEvent {
  id: string;
  sig: string;
}

export interface Filter {
  ids?: string[];
  authors?: string[];
  kinds?: number[];
  since?: number;
  until?: number;
  limit?: number;
  [tag: `#${string}`]: string[] | undefined;
}

/** Every failure of the package: `code` is stable (README, "Error codes"). */
export class NostrError extends Error {
  readonly code: string;
  constructor(code: string, message?: string, options?: { cause?: unknown });
}

/** Loads the WASM core; await it once before any other call. */
export function init(): Promise<void>;
export function isReady(): boolean;

export function bytesToHex(bytes: Uint8Array): string;
export function hexToBytes(hex: string): Uint8Array;

export function generateSecretKey(): Uint8Array;
export function getPublicKey(secretKey: Uint8Array): string;
export function isValidPublicKey(hex: string): boolean;

export function serializeEvent(event: UnsignedEvent): string;
export function getEventHash(event: UnsignedEvent): string;
export function validateEvent<T>(event: T): event is T & UnsignedEvent;
export function finalizeEvent(template: EventTemplate, secretKey: Uint8Array): NostrEvent;
export function verifyEvent(event: NostrEvent): boolean;
/** Like verifyEvent, but throws a NostrError saying why (INVALID_EVENT, ID_MISMATCH, INVALID_SIGNATURE). */
export function assertEvent(event: NostrEvent): NostrEvent;
export function matchFilter(filter: Filter, event: NostrEvent): boolean;
export function matchFilters(filters: Filter[], event: NostrEvent): boolean;
export const verifiedSymbol: unique symbol;

export * as nip19 from './nip19.js';
export * as nip44 from './nip44.js';
export * as nip59 from './nip59.js';
export * as nip13 from './nip13.js';
export * as nip40 from './nip40.js';
export * from './signer.js';
export * as nipxx from './nipxx.js';
export * from './agents.js';
export * as agx from './agx.js';
export * from './relay.js';
export * from './nip46.js';
