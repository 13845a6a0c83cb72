// The Signer seam: what protocol code needs from a key, as four async methods.
import type { EventTemplate, NostrEvent } from './index.js';

/** Anything that can act for a key: LocalSigner, Nip07Signer, or your own (e.g. a NIP-46 bunker). */
export interface Signer {
  getPublicKey(): Promise<string>;
  signEvent(template: EventTemplate): Promise<NostrEvent>;
  nip44Encrypt(pubkey: string, plaintext: string): Promise<string>;
  nip44Decrypt(pubkey: string, payload: string): Promise<string>;
}

/** The NIP-07 browser extension interface (window.nostr). */
export interface WindowNostr {
  getPublicKey(): Promise<string>;
  signEvent(event: EventTemplate): Promise<NostrEvent>;
  nip44?: {
    encrypt(pubkey: string, plaintext: string): Promise<string>;
    decrypt(pubkey: string, ciphertext: string): Promise<string>;
  };
}

/**
 * A secret key held in wasm memory behind a handle. dispose() wipes it; any later call throws
 * NostrError SIGNER_DISPOSED. A FinalizationRegistry wipes it too if the signer is collected.
 */
export class LocalSigner implements Signer {
  /** Copies a 32-byte secret key into wasm memory, or generates one when none is given. */
  constructor(secretKey?: Uint8Array);
  /** A signer on a fresh random key. */
  static generate(): LocalSigner;
  /** Hex public key (throws SIGNER_DISPOSED after dispose()). */
  readonly publicKey: string;
  readonly disposed: boolean;
  getPublicKey(): Promise<string>;
  signEvent(template: EventTemplate): Promise<NostrEvent>;
  nip44Encrypt(pubkey: string, plaintext: string): Promise<string>;
  nip44Decrypt(pubkey: string, payload: string): Promise<string>;
  /** Wipes the key from wasm memory (and its cached NIP-44 conversation keys); idempotent. */
  dispose(): void;
}

/**
 * A NIP-07 extension as a Signer. Errors: SIGNER_UNAVAILABLE (no extension), SIGNER_UNSUPPORTED
 * (no window.nostr.nip44), SIGNER_REJECTED (the extension refused; `cause` is its error).
 * Signed events are verified and must match the template. Bad input is refused before the
 * extension sees it, with LocalSigner's codes: INVALID_EVENT (template), INVALID_PUBLIC_KEY,
 * INVALID_ARGUMENT (plaintext not a string), NIP44_INVALID_PAYLOAD (payload not a string).
 */
export class Nip07Signer implements Signer {
  /** Defaults to window.nostr, looked up at each call. */
  constructor(nostr?: WindowNostr);
  /** True when an extension is there (window.nostr, or the one given). */
  readonly available: boolean;
  /** True when the extension offers nip44.encrypt and nip44.decrypt. */
  readonly supportsNip44: boolean;
  getPublicKey(): Promise<string>;
  signEvent(template: EventTemplate): Promise<NostrEvent>;
  nip44Encrypt(pubkey: string, plaintext: string): Promise<string>;
  nip44Decrypt(pubkey: string, payload: string): Promise<string>;
}

/** True for any object with the four Signer methods. */
export function isSigner(x: unknown): x is Signer;
