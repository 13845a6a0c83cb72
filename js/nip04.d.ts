// NIP-04 encrypted direct messages (deprecated by NIP-17/NIP-44; for reading and answering old DMs).
// AES-256-CBC runs in WebCrypto, so both functions return Promises (nostr-tools 2.x's are
// synchronous; `await` works on either).

/**
 * `<base64 ciphertext>?iv=<base64 iv>` of `text` for `pubkey` (hex), with `secretKey` (32 bytes, or
 * 64 hex characters). NostrError INVALID_SECRET_KEY, INVALID_PUBLIC_KEY, NOT_SUPPORTED (no WebCrypto).
 */
export function encrypt(secretKey: Uint8Array | string, pubkey: string, text: string): Promise<string>;

/**
 * The text of a kind 4 content from `pubkey`. NostrError NIP04_INVALID_PAYLOAD (not
 * `<base64>?iv=<base64>` of whole AES blocks and a 16-byte IV), NIP04_DECRYPT_FAILED (bad padding or
 * not UTF-8: the wrong key pair or a corrupt message), INVALID_SECRET_KEY, INVALID_PUBLIC_KEY.
 */
export function decrypt(secretKey: Uint8Array | string, pubkey: string, data: string): Promise<string>;
