// NIP-59 gift wrap (nostr-tools' nip59 names). With a secret key the functions are synchronous;
// with a Signer they return Promises. Errors are NostrError: NIP59_NOT_GIFT_WRAP,
// NIP59_INVALID_SEAL, NIP59_SEAL_SIGNATURE, NIP59_INVALID_RUMOR, NIP59_AUTHOR_MISMATCH,
// NIP59_RUMOR_ID_MISMATCH, NIP59_NOT_FOR_RECIPIENT, NIP-44's and NIP-01's codes, and SIGNER_*.
//
// A secret key is used for the one call and wiped from wasm memory after it. For repeated use,
// LocalSigner keeps the key (and its NIP-44 conversation keys) in wasm until dispose(): faster.
import type { NostrEvent, UnsignedEvent } from './index.js';
import type { Signer } from './signer.js';

/** Kind of a seal (the signed, encrypted rumor). */
export const SEAL_KIND: 13;
/** Kind of a gift wrap (the seal, encrypted and signed by a one-time key). */
export const GIFT_WRAP_KIND: 1059;

/** An unsigned event with its id (NIP-59 "Rumor"). */
export type Rumor = UnsignedEvent & { id: string };

/** What createRumor and wrapEvent accept: kind is required; created_at, tags, content default. */
export type RumorTemplate = Partial<UnsignedEvent> & { kind: number };

/** The clock of the wrapping functions (seal and wrap created_at are drawn up to two days before it). */
export interface ClockOptions {
  /** Current time in seconds; defaults to Date.now() / 1000. */
  now?: number;
}

/** Options of createWrap, wrapEvent and wrapManyEvents. */
export interface WrapOptions extends ClockOptions {
  /** Tags added to the gift wrap after ["p", recipient] (e.g. ["expiration", ...]). */
  extraTags?: string[][];
}

/** Options of unwrapEvent and unwrapManyEvents. */
export interface UnwrapOptions {
  /** Also require the rumor to p-tag the recipient (NIP59_NOT_FOR_RECIPIENT). */
  requireRecipientTag?: boolean;
  /**
   * Also check the wrap's own id and signature. Off by default, as in nostr-tools and rust-nostr:
   * they only prove that the one-time key signed the wrap (authorship rests on the seal), and a
   * RelayPool verified every event on delivery already.
   */
  verifyWrap?: boolean;
}

/** The rumor of a template: its author's pubkey and its id, unsigned. */
export function createRumor(event: RumorTemplate, secretKey: Uint8Array, options?: ClockOptions): Rumor;
export function createRumor(event: RumorTemplate, signer: Signer, options?: ClockOptions): Promise<Rumor>;

/** The seal (kind 13) of a rumor for a recipient: the rumor NIP-44-encrypted and signed by its author. */
export function createSeal(rumor: Rumor, secretKey: Uint8Array, recipientPublicKey: string, options?: ClockOptions): NostrEvent;
export function createSeal(rumor: Rumor, signer: Signer, recipientPublicKey: string, options?: ClockOptions): Promise<NostrEvent>;

/** Always synchronous: the one-time key is generated and used inside wasm. */
export function createWrap(
  seal: NostrEvent,
  recipientPublicKey: string,
  extraTags?: string[][],
  options?: ClockOptions,
): NostrEvent;

/** Rumor, seal and gift wrap in one call: the kind 1059 event to publish for the recipient. */
export function wrapEvent(event: RumorTemplate, secretKey: Uint8Array, recipientPublicKey: string, options?: WrapOptions): NostrEvent;
export function wrapEvent(event: RumorTemplate, signer: Signer, recipientPublicKey: string, options?: WrapOptions): Promise<NostrEvent>;

/** One wrap for the sender first, then one per recipient. */
export function wrapManyEvents(
  event: RumorTemplate,
  secretKey: Uint8Array,
  recipientsPublicKeys: string[],
  options?: WrapOptions,
): NostrEvent[];
export function wrapManyEvents(
  event: RumorTemplate,
  signer: Signer,
  recipientsPublicKeys: string[],
  options?: WrapOptions,
): Promise<NostrEvent[]>;

/** Opens a gift wrap addressed to this key: checks every layer and returns the rumor (see the module's error codes). */
export function unwrapEvent(wrap: NostrEvent, secretKey: Uint8Array, options?: UnwrapOptions): Rumor;
export function unwrapEvent(wrap: NostrEvent, signer: Signer, options?: UnwrapOptions): Promise<Rumor>;

/** Rumors of the wraps that open, oldest first; the others are skipped. */
export function unwrapManyEvents(wrappedEvents: NostrEvent[], secretKey: Uint8Array, options?: UnwrapOptions): Rumor[];
export function unwrapManyEvents(wrappedEvents: NostrEvent[], signer: Signer, options?: UnwrapOptions): Promise<Rumor[]>;
