// NIP-04 encrypted direct messages (deprecated: NIP-17 with NIP-44 replaces them; here to read and
// answer the DMs still on the network), with nostr-tools' names. The core computes the shared key
// (ECDH) and reads and writes the `<base64>?iv=<base64>` content; AES-256-CBC runs in WebCrypto,
// so unlike nostr-tools 2.x (synchronous, @noble/ciphers) encrypt and decrypt return Promises.
import { core, checked, putSecret } from './core.js';
import { NostrError } from './errors.js';
import { hexToBytes } from './hex.js';
import { asPubkeyHex } from './nip44.js';

const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

function subtle() {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new NostrError('NOT_SUPPORTED', 'NIP-04 needs WebCrypto (crypto.subtle; in browsers, a secure context)');
  return s;
}

// The AES key of the pair, imported into WebCrypto; our copy of its bytes is wiped.
async function aesKey(secretKey, pubkey, usage) {
  asPubkeyHex(pubkey);
  const s = subtle();
  let sk = secretKey;
  if (typeof secretKey === 'string') {
    if (!/^[0-9a-fA-F]{64}$/.test(secretKey)) throw new NostrError('INVALID_SECRET_KEY', 'secret key must be 32 bytes (or 64 hex characters)');
    sk = hexToBytes(secretKey);
  }
  let raw;
  try {
    putSecret(sk);
    raw = checked(core().nip04SharedKey(pubkey));
  } finally {
    if (sk !== secretKey) sk.fill(0);
  }
  try {
    return await s.importKey('raw', raw, { name: 'AES-CBC' }, false, [usage]);
  } finally {
    raw.fill(0);
  }
}

/**
 * Encrypts `text` for `pubkey` (hex) with `secretKey` (32 bytes, or 64 hex characters as nostr-tools
 * accepts): `<base64 ciphertext>?iv=<base64 iv>`, the content of a kind 4 event.
 */
export async function encrypt(secretKey, pubkey, text) {
  if (typeof text !== 'string') throw new NostrError('INVALID_ARGUMENT', 'text must be a string');
  const key = await aesKey(secretKey, pubkey, 'encrypt');
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(16));
  const ciphertext = new Uint8Array(await subtle().encrypt({ name: 'AES-CBC', iv }, key, encoder.encode(text)));
  return checked(core().nip04FormatPayload(ciphertext, iv));
}

/**
 * Decrypts a kind 4 content from `pubkey` (hex) with `secretKey`. NostrError NIP04_INVALID_PAYLOAD
 * when it is not `<base64>?iv=<base64>` of whole AES blocks and a 16-byte IV; NIP04_DECRYPT_FAILED
 * when it does not decrypt to UTF-8 text (a wrong key or a corrupt message: the padding or the
 * text is off; nostr-tools returns replacement characters instead).
 */
export async function decrypt(secretKey, pubkey, data) {
  if (typeof data !== 'string') throw new NostrError('NIP04_INVALID_PAYLOAD', 'data must be a string');
  const { ciphertext, iv } = checked(core().nip04ParsePayload(data));
  const key = await aesKey(secretKey, pubkey, 'decrypt');
  let plain;
  try {
    plain = new Uint8Array(await subtle().decrypt({ name: 'AES-CBC', iv }, key, ciphertext));
  } catch (err) {
    throw new NostrError('NIP04_DECRYPT_FAILED', 'the message does not decrypt with this key pair (bad padding)', { cause: err });
  }
  try {
    return decoder.decode(plain);
  } catch (err) {
    throw new NostrError('NIP04_DECRYPT_FAILED', 'the message does not decrypt to UTF-8 text (wrong key pair?)', { cause: err });
  } finally {
    plain.fill(0);
  }
}
