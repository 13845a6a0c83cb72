// Owns the one WASM instance. The entry point's init() (index.node.js, index.browser.js…) passes
// its platform's loader to initWith(); everything else calls core() after `await init()`.
import { NostrError } from './errors.js';

let loader = null;
let instance = null;
let pending = null;

/** Sets the loader init() uses (a test that loads another module; the entries use initWith). */
export function setLoader(fn) {
  loader = fn;
}

/** Loads and compiles the WASM module with the loader set by setLoader(), once. */
export function init() {
  return initWith(loader);
}

/** Loads and compiles the WASM module with `load` once; later calls return the same promise. */
export function initWith(load) {
  if (instance) return Promise.resolve();
  if (!pending) {
    pending = Promise.resolve().then(load).then(
      (m) => {
        m.prepare();
        instance = m;
      },
      (err) => {
        pending = null;
        throw new NostrError('INIT_FAILED', `could not load the WASM core: ${err?.message ?? err}`, { cause: err });
      },
    );
  }
  return pending;
}

export function isReady() {
  return instance !== null;
}

export function core() {
  if (instance === null) throw new NostrError('NOT_INITIALIZED', 'call `await init()` before using nostr-agents');
  return instance;
}

/** Throws the error the last failing core call recorded. */
export function throwLastError() {
  throwLastErrorOf(instance);
}

/** Throws the error the last failing call of module `c` recorded. */
export function throwLastErrorOf(c) {
  const { code, message } = c.lastError();
  throw new NostrError(code, message);
}

/** Throws unless `code` (a core return value) is 0. */
export function check(code) {
  if (code !== 0) throwLastError();
}

/** Returns `value`, or throws the recorded error when a core call returned undefined. */
export function checked(value) {
  if (value === undefined) throwLastError();
  return value;
}

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Copies a 32-byte secret key into the core's secret slot, from which the next key-taking call
 * removes (and wipes) it. Keys never cross as Embind strings, whose heap copies are freed unwiped.
 */
export function putSecret(secretKey, code = 'INVALID_SECRET_KEY') {
  putSecretIn(core(), secretKey, code);
}

/** putSecret into module `c`'s secret slot. */
export function putSecretIn(c, secretKey, code = 'INVALID_SECRET_KEY') {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== 32)
    throw new NostrError(code, 'secret key must be a Uint8Array of 32 bytes');
  c.HEAPU8.set(secretKey, c.secretSlot());
}

/** Heap view, refreshed after memory growth. */
export function heap() {
  return instance.HEAPU8;
}

/**
 * Writes a string as UTF-8 into the scratch buffer at `offset`; returns the byte length written.
 */
export function writeScratch(text, offset = 0) {
  return writeScratchIn(instance, text, offset);
}

/** writeScratch into module `c`'s scratch buffer. */
export function writeScratchIn(c, text, offset = 0) {
  const max = offset + text.length * 3;
  const ptr = c.scratch(max);
  const view = c.HEAPU8.subarray(ptr + offset, ptr + max);
  return encoder.encodeInto(text, view).written;
}

/**
 * Writes strings for a batch call into the scratch buffer: their UTF-8 byte lengths as n
 * little-endian u32, then the strings back to back. Returns the total byte count.
 */
export function writeScratchRecords(texts) {
  const n = texts.length;
  let max = 4 * n;
  for (let i = 0; i < n; i++) max += texts[i].length * 3;
  const ptr = instance.scratch(max);
  const heap = instance.HEAPU8;
  const lengths = new DataView(heap.buffer, ptr, 4 * n);
  let off = 4 * n;
  for (let i = 0; i < n; i++) {
    const t = texts[i];
    const w = encoder.encodeInto(t, heap.subarray(ptr + off, ptr + off + t.length * 3)).written;
    lengths.setUint32(4 * i, w, true);
    off += w;
  }
  return off;
}

/**
 * Writes `head` as UTF-8 at the start of the scratch buffer and `text` at `offset` (one buffer
 * lookup for both); returns the byte length of `text`. `head` must fit in `offset` bytes when
 * ASCII; longer UTF-8 is cut off by `text`.
 */
export function writeScratchPair(head, offset, text) {
  const max = offset + text.length * 3;
  const ptr = instance.scratch(max + head.length * 3);
  const heap = instance.HEAPU8;
  encoder.encodeInto(head, heap.subarray(ptr, ptr + head.length * 3));
  return encoder.encodeInto(text, heap.subarray(ptr + offset, ptr + max)).written;
}

export function scratchBytes(offset, length) {
  const ptr = instance.scratch(offset + length);
  return instance.HEAPU8.subarray(ptr + offset, ptr + offset + length);
}
