// NIP-49 private key encryption (ncryptsec), with nostr-tools' names and shapes:
// nip49.encrypt(sec, password, logn = 16, ksb = 0x02) and nip49.decrypt(ncryptsec, password).
// scrypt and XChaCha20-Poly1305 run in the core; scrypt's memory (2^logn KiB) comes from wasm
// memory, which grows for it and does not shrink.
import { core } from './core.js';
import { decryptIn, encryptIn } from './nip49-core.js';

/** The ncryptsec of a 32-byte secret key under `password` (NFKC-normalized first). */
export function encrypt(sec, password, logn = 16, ksb = 0x02) {
  return encryptIn(core(), sec, password, logn, ksb);
}

/** The 32-byte secret key of an ncryptsec; NIP49_DECRYPT_FAILED for a wrong password. */
export function decrypt(ncryptsec, password) {
  return decryptIn(core(), ncryptsec, password).secretKey;
}
