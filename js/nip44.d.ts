// NIP-44 v2 encrypted payloads (nostr-tools' nip44 names). Errors are NostrError with the codes
// NIP44_UNKNOWN_VERSION, NIP44_INVALID_PAYLOAD, NIP44_INVALID_MAC, NIP44_INVALID_PADDING,
// NIP44_INVALID_PLAINTEXT_LENGTH, INVALID_SECRET_KEY, INVALID_PUBLIC_KEY and INVALID_ARGUMENT.

/** The 32-byte conversation key between a secret key and a hex x-only public key. */
export function getConversationKey(secretKey: Uint8Array, pubkeyHex: string): Uint8Array;

/** Padded length of a plaintext of `len` UTF-8 bytes (1 .. 2^32 - 1). */
export function calcPaddedLen(len: number): number;

/**
 * Base64 payload of a non-empty plaintext. Leave `nonce` out outside tests: a fresh random one
 * is drawn for every message.
 */
export function encrypt(plaintext: string, conversationKey: Uint8Array, nonce?: Uint8Array): string;

/**
 * Plaintext of a payload; throws a NostrError whose code names the failed check. Bytes that are
 * not UTF-8 come back as U+FFFD, as with nostr-tools.
 */
export function decrypt(payload: string, conversationKey: Uint8Array): string;

/** The same functions under nostr-tools' `nip44.v2` names. */
export const v2: {
  utils: {
    getConversationKey: typeof getConversationKey;
    calcPaddedLen: typeof calcPaddedLen;
  };
  getConversationKey: typeof getConversationKey;
  calcPaddedLen: typeof calcPaddedLen;
  encrypt: typeof encrypt;
  decrypt: typeof decrypt;
};

