// NIP-44 v2 encrypted payloads, with nostr-tools' names (nip44.getConversationKey, encrypt,
// decrypt, and the same under nip44.v2). Texts cross into wasm memory through the scratch buffer
// (TextEncoder.encodeInto in, TextDecoder out): see bindings/nip44.cpp for the layout.
import { core, check, throwLastError } from './core.js';
import { NostrError } from './errors.js';

const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder();

// Scratch offsets, as in bindings/nip44.cpp.
const ENC_PLAINTEXT = 167;
const NONCE = 32;
const ENC_PEER = 64;
const DEC_PAYLOAD = 32;
const KEY_DEC_PAYLOAD = 64;

function asKey32(key, what) {
  if (!(key instanceof Uint8Array) || key.length !== 32)
    throw new NostrError('INVALID_ARGUMENT', `${what} must be a Uint8Array of 32 bytes`);
  return key;
}

export function asPlaintext(plaintext) {
  if (typeof plaintext !== 'string') throw new NostrError('INVALID_ARGUMENT', 'plaintext must be a string');
  return plaintext;
}

export function asPayload(payload) {
  if (typeof payload !== 'string') throw new NostrError('NIP44_INVALID_PAYLOAD', 'payload must be a string');
  return payload;
}

// Either case, as nostr-tools' hexToBytes accepts; the core reads exactly 64 ASCII bytes.
const HEX64 = /^[0-9a-fA-F]{64}$/;

export function asPubkeyHex(pubkeyHex) {
  if (typeof pubkeyHex !== 'string' || !HEX64.test(pubkeyHex))
    throw new NostrError('INVALID_PUBLIC_KEY', 'public key must be 64 hex characters');
  return pubkeyHex;
}

/** UTF-8 of `text` into scratch at `offset`; returns the byte count. */
function putText(c, text, offset) {
  const max = text.length * 3;
  const ptr = c.scratch(offset + max);
  return encoder.encodeInto(text, c.HEAPU8.subarray(ptr + offset, ptr + offset + max)).written;
}

/** A payload (ASCII when valid) into scratch at `offset`; returns the byte count. */
function putPayload(c, payload, offset) {
  const n = payload.length;
  const ptr = c.scratch(offset + n);
  const r = encoder.encodeInto(payload, c.HEAPU8.subarray(ptr + offset, ptr + offset + n));
  // Non-ASCII characters make it invalid base64; write it whole anyway so the core reports the
  // same error it would for any other bad character.
  return r.read === n ? r.written : putText(c, payload, offset);
}

// Fresh nonces come from the platform CSPRNG, 32 at a time: one getRandomValues call costs about
// as much as the rest of a short encryption (and the core's getentropy() makes one JS call per
// byte under Emscripten 3.1.6). Each nonce is used once and wiped from the pool when taken.
const POOL_BYTES = 32 * 32;
const pool = /* @__PURE__ */ new Uint8Array(POOL_BYTES);
let poolAt = POOL_BYTES;

/** The nonce into scratch: the caller's, or the next one from the pool. */
function putNonce(c, ptr, nonce) {
  const heap = c.HEAPU8;
  if (nonce !== undefined) {
    heap.set(nonce, ptr + NONCE);
    return;
  }
  if (poolAt === pool.length) {
    globalThis.crypto.getRandomValues(pool);
    poolAt = 0;
  }
  const fresh = pool.subarray(poolAt, poolAt + 32);
  heap.set(fresh, ptr + NONCE);
  fresh.fill(0);
  poolAt += 32;
}

/**
 * The payload an encryption wrote at the start of scratch (base64: ASCII). On failure the plaintext
 * (`plainLen` bytes at ENC_PLAINTEXT, not encrypted in place) is wiped before the error is thrown.
 */
function takePayload(c, len, plainLen) {
  const ptr = c.scratch(0);
  if (len < 0) {
    c.HEAPU8.fill(0, ptr + ENC_PLAINTEXT, ptr + ENC_PLAINTEXT + plainLen);
    throwLastError();
  }
  return decoder.decode(c.HEAPU8.subarray(ptr, ptr + len));
}

/** The plaintext a decryption left at the start of scratch (its only copy there), then wiped. */
function takePlaintext(c, len) {
  if (len < 0) throwLastError();
  const ptr = c.scratch(0);
  const bytes = c.HEAPU8.subarray(ptr, ptr + len);
  const text = decoder.decode(bytes);
  bytes.fill(0);
  return text;
}

/** The conversation key between a secret key and a hex x-only public key (44.md step 1). */
export function getConversationKey(secretKey, pubkeyHex) {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== 32)
    throw new NostrError('INVALID_SECRET_KEY', 'secret key must be a Uint8Array of 32 bytes');
  asPubkeyHex(pubkeyHex);
  const c = core();
  const ptr = c.scratch(96);
  c.HEAPU8.set(secretKey, ptr);
  encoder.encodeInto(pubkeyHex, c.HEAPU8.subarray(ptr + 32, ptr + 96));
  check(c.nip44ConversationKeyScratch());
  const slot = c.HEAPU8.subarray(ptr, ptr + 32);
  const ck = slot.slice();
  slot.fill(0);
  return ck;
}

/** Padded length of a plaintext of `len` UTF-8 bytes (44.md calc_padded_len), 1 .. 2^32-1. */
export function calcPaddedLen(len) {
  if (!Number.isSafeInteger(len) || len < 1 || len > 0xffffffff)
    throw new NostrError('NIP44_INVALID_PLAINTEXT_LENGTH', 'length must be an integer from 1 to 4294967295');
  if (len <= 32) return 32;
  const nextPower = 2 ** (32 - Math.clz32(len - 1)); // smallest power of two >= len
  const chunk = nextPower <= 256 ? 32 : nextPower / 8;
  return chunk * Math.ceil(len / chunk);
}

/**
 * Base64 NIP-44 v2 payload of `plaintext`. `nonce` (32 bytes) is for tests only; by default a
 * fresh one comes from the platform CSPRNG.
 */
export function encrypt(plaintext, conversationKey, nonce) {
  asPlaintext(plaintext);
  asKey32(conversationKey, 'conversation key');
  if (nonce !== undefined) asKey32(nonce, 'nonce');
  const c = core();
  const n = putText(c, plaintext, ENC_PLAINTEXT);
  const ptr = c.scratch(0);
  c.HEAPU8.set(conversationKey, ptr);
  putNonce(c, ptr, nonce);
  return takePayload(c, c.nip44EncryptScratch(n), n);
}

/** Plaintext of a NIP-44 v2 payload; throws NostrError NIP44_* saying which check failed. */
export function decrypt(payload, conversationKey) {
  asPayload(payload);
  asKey32(conversationKey, 'conversation key');
  const c = core();
  const m = putPayload(c, payload, DEC_PAYLOAD);
  c.HEAPU8.set(conversationKey, c.scratch(0));
  return takePlaintext(c, c.nip44DecryptScratch(m));
}

/** nostr-tools' nip44.v2 shape. */
export const v2 = {
  utils: { getConversationKey, calcPaddedLen },
  getConversationKey,
  calcPaddedLen,
  encrypt,
  decrypt,
};

// --- Internal (for LocalSigner, not part of the public API): the secret key stays in wasm
// memory behind `handle` (bindings/keys.cpp), and the conversation key is cached there per peer.

export function encryptWithHandle(handle, pubkeyHex, plaintext) {
  asPubkeyHex(pubkeyHex);
  asPlaintext(plaintext);
  const c = core();
  const n = putText(c, plaintext, ENC_PLAINTEXT);
  const ptr = c.scratch(0);
  encoder.encodeInto(pubkeyHex, c.HEAPU8.subarray(ptr + ENC_PEER, ptr + ENC_PEER + 64));
  putNonce(c, ptr, undefined);
  return takePayload(c, c.nip44KeyEncryptScratch(handle, n), n);
}

export function decryptWithHandle(handle, pubkeyHex, payload) {
  asPubkeyHex(pubkeyHex);
  asPayload(payload);
  const c = core();
  const m = putPayload(c, payload, KEY_DEC_PAYLOAD);
  const ptr = c.scratch(0);
  encoder.encodeInto(pubkeyHex, c.HEAPU8.subarray(ptr, ptr + 64));
  return takePlaintext(c, c.nip44KeyDecryptScratch(handle, m));
}
