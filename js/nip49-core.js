// NIP-49 on a given core module: the package's own (js/nip49.js), or a module of its own that
// holds nothing but NIP-49 (the demo page loads one lazily, web-demo/nip49-lazy.js). The password
// is normalized to NFKC here (49.md), as UTF-8 into scratch memory, and wiped there by the core.
import { NostrError } from './errors.js';

const encoder = /* @__PURE__ */ new TextEncoder();

function fail(c) {
  const { code, message } = c.lastError();
  throw new NostrError(code, message);
}

/** The password's NFKC UTF-8 at scratch offset 0; returns its byte length. */
function putPassword(c, password) {
  if (typeof password !== 'string') throw new NostrError('INVALID_ARGUMENT', 'password must be a string');
  const text = password.normalize('NFKC');
  const max = text.length * 3;
  const ptr = c.scratch(Math.max(max, 32));
  return encoder.encodeInto(text, c.HEAPU8.subarray(ptr, ptr + max)).written;
}

/** nip49.encrypt on module `c`. */
export function encryptIn(c, sec, password, logn, ksb) {
  if (!(sec instanceof Uint8Array) || sec.length !== 32)
    throw new NostrError('INVALID_SECRET_KEY', 'secret key must be a Uint8Array of 32 bytes');
  if (!Number.isInteger(logn) || logn < 0 || logn > 255) throw new NostrError('NIP49_INVALID_LOG_N', 'log_n must be an integer from 1 to 20');
  if (ksb !== 0 && ksb !== 1 && ksb !== 2) throw new NostrError('NIP49_INVALID_KEY_SECURITY', 'key security byte must be 0, 1 or 2');
  const n = putPassword(c, password);
  c.HEAPU8.set(sec, c.secretSlot()); // taken out and wiped by the call
  const out = c.nip49EncryptScratch(n, logn, ksb);
  if (out === undefined) fail(c);
  return out;
}

/** nip49.decrypt on module `c`: { secretKey, logN, keySecurity }. */
export function decryptIn(c, ncryptsec, password, maxLogN = 20) {
  if (typeof ncryptsec !== 'string') throw new NostrError('INVALID_ARGUMENT', 'ncryptsec must be a string');
  const n = putPassword(c, password);
  const r = c.nip49DecryptScratch(ncryptsec, n, maxLogN);
  if (r < 0) fail(c);
  const ptr = c.scratch(32);
  const slot = c.HEAPU8.subarray(ptr, ptr + 32);
  const secretKey = slot.slice();
  slot.fill(0);
  return { secretKey, logN: r & 0xff, keySecurity: r >> 8 };
}
