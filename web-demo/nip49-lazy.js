// The page's NIP-49 (ncryptsec), loaded only when the user remembers a key or unlocks one: a WASM
// module of its own (dist/core-nip49.wasm, scrypt and XChaCha20-Poly1305 from the package's C++
// core), so the page's core.wasm stays without them. Each call of loadNip49 makes a fresh
// instance: the 64 MiB scrypt takes are freed with it when the page lets it go.
import createNip49 from '../dist/core-nip49.mjs';
import { decryptIn, encryptIn } from '../js/nip49-core.js';

export async function loadNip49() {
  const m = await createNip49({});
  return {
    encrypt: (sec, password, logn, ksb) => encryptIn(m, sec, password, logn, ksb),
    /** { secretKey, logN, keySecurity } */
    decrypt: (ncryptsec, password) => decryptIn(m, ncryptsec, password),
  };
}
