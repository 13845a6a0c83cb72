// NIP-49 private key encryption: a secret key sealed under a password as a bech32 "ncryptsec"
// (scrypt, then XChaCha20-Poly1305), with nostr-tools' nip49 names and shapes. The password is
// normalized to NFKC first, as 49.md asks. scrypt takes 2^logn KiB of memory, from wasm memory,
// which grows for it and does not shrink: logn 16 (64 MiB) is the default; 20 (1 GiB) the most
// accepted, as in nostr-tools. Errors are NostrError with the codes NIP49_INVALID_LOG_N,
// NIP49_INVALID_KEY_SECURITY, NIP49_UNKNOWN_VERSION, NIP49_INVALID_PAYLOAD, NIP49_DECRYPT_FAILED
// (wrong password, or an altered ncryptsec), the BECH32_* codes, INVALID_SECRET_KEY and
// INVALID_ARGUMENT.

/** A bech32 string with the "ncryptsec" prefix (162 characters). */
export type Ncryptsec = `ncryptsec1${string}`;

/**
 * The ncryptsec of a 32-byte secret key. `logn`: scrypt's cost, 1 to 20 (default 16). `ksb`, the
 * key security byte: 0x00 the key was handled insecurely before, 0x01 it was not, 0x02 (default)
 * not tracked. A fresh salt and nonce are drawn each time (the output differs every call).
 */
export function encrypt(sec: Uint8Array, password: string, logn?: number, ksb?: 0x00 | 0x01 | 0x02): Ncryptsec;

/** The 32-byte secret key of an ncryptsec. Wipe it (`fill(0)`) when done. */
export function decrypt(ncryptsec: string, password: string): Uint8Array;
