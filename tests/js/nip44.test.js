import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createCipheriv, createHash, createHmac } from 'node:crypto';
import * as toolsNip44 from 'nostr-tools/nip44';
import { nostr, prng, randomText, vectorsDir, throwsCode } from './helpers.js';
// Internals of the same package instance (the self-reference resolves to ../../js/).
import { core } from '../../js/core.js';
import { encryptWithHandle, decryptWithHandle } from '../../js/nip44.js';
import { createKeyHandle } from '../../js/keys.js';

const { nip44 } = nostr;
const tools = toolsNip44.v2;
const vectors = JSON.parse(readFileSync(new URL('nip44.vectors.json', vectorsDir), 'utf8')).v2;
const extended = JSON.parse(readFileSync(new URL('nip44-extended-length.json', vectorsDir), 'utf8'));

const hex = (b) => Buffer.from(b).toString('hex');
const bytes = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const sha256 = (s) => createHash('sha256').update(s, 'utf8').digest('hex');

function randomKey(rand) {
  const k = new Uint8Array(32);
  for (let i = 0; i < 32; i++) k[i] = Math.floor(rand() * 256);
  return k;
}

// --- The vector file, every case, through the WASM module.

test('valid.get_conversation_key (35 cases)', () => {
  assert.equal(vectors.valid.get_conversation_key.length, 35);
  for (const v of vectors.valid.get_conversation_key)
    assert.equal(hex(nip44.getConversationKey(bytes(v.sec1), v.pub2)), v.conversation_key, v.sec1);
});

test('valid.calc_padded_len (24 cases)', () => {
  assert.equal(vectors.valid.calc_padded_len.length, 24);
  for (const [len, padded] of vectors.valid.calc_padded_len) assert.equal(nip44.calcPaddedLen(len), padded, `${len}`);
  assert.equal(nip44.calcPaddedLen(65537), 81920);
  assert.equal(nip44.calcPaddedLen(2 ** 32 - 1), 2 ** 32);
  for (const bad of [0, -1, 1.5, 2 ** 32, NaN, '5'])
    throwsCode(() => nip44.calcPaddedLen(bad), 'NIP44_INVALID_PLAINTEXT_LENGTH', `calcPaddedLen(${bad})`);
});

test('calcPaddedLen agrees with nostr-tools over many lengths', () => {
  const rand = prng(44);
  for (let i = 0; i < 2000; i++) {
    const len = 1 + Math.floor(rand() ** 3 * 300000);
    assert.equal(nip44.calcPaddedLen(len), tools.utils.calcPaddedLen(len), `${len}`);
  }
  for (let k = 1; k < 32; k++)
    for (const len of [2 ** k - 1, 2 ** k, 2 ** k + 1])
      assert.equal(nip44.calcPaddedLen(len), tools.utils.calcPaddedLen(len), `${len}`);
});

test('valid.encrypt_decrypt (10 cases), both key directions', () => {
  assert.equal(vectors.valid.encrypt_decrypt.length, 10);
  for (const v of vectors.valid.encrypt_decrypt) {
    const sec1 = bytes(v.sec1);
    const sec2 = bytes(v.sec2);
    assert.equal(hex(nip44.getConversationKey(sec1, nostr.getPublicKey(sec2))), v.conversation_key);
    assert.equal(hex(nip44.getConversationKey(sec2, nostr.getPublicKey(sec1))), v.conversation_key);
    const ck = bytes(v.conversation_key);
    assert.equal(nip44.encrypt(v.plaintext, ck, bytes(v.nonce)), v.payload);
    assert.equal(nip44.decrypt(v.payload, ck), v.plaintext);
  }
});

test('valid.encrypt_decrypt_long_msg (3 cases, by sha256)', () => {
  assert.equal(vectors.valid.encrypt_decrypt_long_msg.length, 3);
  for (const v of vectors.valid.encrypt_decrypt_long_msg) {
    const plaintext = v.pattern.repeat(v.repeat);
    assert.equal(sha256(plaintext), v.plaintext_sha256);
    const ck = bytes(v.conversation_key);
    const payload = nip44.encrypt(plaintext, ck, bytes(v.nonce));
    assert.equal(sha256(payload), v.payload_sha256);
    assert.ok(nip44.decrypt(payload, ck) === plaintext);
  }
});

test('extended length prefix (nip44-extended-length.json: 65535, 65536, 65537)', () => {
  const ck = bytes(extended.conversation_key);
  const nonce = bytes(extended.nonce);
  assert.equal(extended.cases.length, 3);
  for (const c of extended.cases) {
    const plaintext = 'a'.repeat(c.plaintext_len);
    assert.equal(sha256(plaintext), c.plaintext_sha256);
    assert.equal(nip44.calcPaddedLen(c.plaintext_len), c.padded_len);
    const payload = nip44.encrypt(plaintext, ck, nonce);
    assert.equal(sha256(payload), c.payload_sha256, `${c.plaintext_len}`);
    assert.ok(nip44.decrypt(payload, ck) === plaintext);
  }
});

test('invalid.encrypt_msg_lengths: only 0 is invalid under the current spec', () => {
  const ck = bytes(extended.conversation_key);
  assert.deepEqual(vectors.invalid.encrypt_msg_lengths, [0, 65536, 100000, 10000000]);
  for (const len of vectors.invalid.encrypt_msg_lengths) {
    const plaintext = 'x'.repeat(len);
    if (len === 0) {
      throwsCode(() => nip44.encrypt(plaintext, ck), 'NIP44_INVALID_PLAINTEXT_LENGTH', 'empty');
      continue;
    }
    const payload = nip44.encrypt(plaintext, ck);
    assert.equal(payload.length, 4 * Math.ceil((65 + 6 + nip44.calcPaddedLen(len)) / 3));
    assert.ok(nip44.decrypt(payload, ck) === plaintext, `${len}`);
  }
});

test('invalid.get_conversation_key (8 cases)', () => {
  assert.equal(vectors.invalid.get_conversation_key.length, 8);
  for (const v of vectors.invalid.get_conversation_key) {
    const code = v.note.startsWith('pub2') ? 'INVALID_PUBLIC_KEY' : 'INVALID_SECRET_KEY';
    throwsCode(() => nip44.getConversationKey(bytes(v.sec1), v.pub2), code, v.note);
  }
});

test('invalid.decrypt (12 cases), each with its code', () => {
  assert.equal(vectors.invalid.decrypt.length, 12);
  for (const v of vectors.invalid.decrypt) {
    const code = v.note.startsWith('unknown encryption version')
      ? 'NIP44_UNKNOWN_VERSION'
      : v.note === 'invalid MAC'
        ? 'NIP44_INVALID_MAC'
        : v.note === 'invalid padding'
          ? 'NIP44_INVALID_PADDING'
          : 'NIP44_INVALID_PAYLOAD';
    throwsCode(() => nip44.decrypt(v.payload, bytes(v.conversation_key)), code, v.note);
  }
});

// --- Cross-implementation with nostr-tools' nip44.v2.

const utf8 = new TextEncoder();
const unutf8 = new TextDecoder();

function crossCheck(text, ck, nonce, what) {
  // What comes back: the text as UTF-8 can carry it (a lone surrogate becomes U+FFFD).
  const expected = unutf8.decode(utf8.encode(text));
  // Same nonce: the same bytes on both sides.
  const ours = nip44.encrypt(text, ck, nonce);
  assert.equal(ours, tools.encrypt(text, ck, nonce), what);
  assert.ok(tools.decrypt(ours, ck) === expected, what);
  // Fresh nonces: each side reads the other.
  assert.ok(tools.decrypt(nip44.encrypt(text, ck), ck) === expected, what);
  assert.ok(nip44.decrypt(tools.encrypt(text, ck), ck) === expected, what);
}

test('random texts and keys agree with nostr-tools both ways (300 cases)', () => {
  const rand = prng(4401);
  for (let i = 0; i < 300; i++) {
    const a = nostr.generateSecretKey();
    const b = nostr.generateSecretKey();
    const ck = nip44.getConversationKey(a, nostr.getPublicKey(b));
    assert.deepEqual(ck, tools.utils.getConversationKey(b, nostr.getPublicKey(a)));
    let text = randomText(rand, 1 + Math.floor(rand() * 300));
    if (text === '') text = '.';
    crossCheck(text, ck, randomKey(rand), `case ${i}`);
  }
});

test('lengths around the padding boundaries and the extended prefix agree with nostr-tools', () => {
  const rand = prng(4402);
  const ck = randomKey(rand);
  const lens = [1, 2, 3, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 255, 256, 257, 319, 320, 321,
    511, 512, 513, 1023, 1024, 1025, 4096, 8193, 65534, 65535, 65536, 65537, 200 * 1024];
  for (const len of lens) crossCheck('q'.repeat(len), ck, randomKey(rand), `${len} bytes`);
  // Multi-byte characters across the boundaries: lengths count UTF-8 bytes, not UTF-16 units.
  for (const len of [10, 11, 16, 21, 22, 32768, 32769]) crossCheck('é'.repeat(len), ck, randomKey(rand), `é x ${len}`);
  for (const len of [8, 16, 16383, 16384]) crossCheck('🦄'.repeat(len), ck, randomKey(rand), `🦄 x ${len}`);
});

test('unicode, controls and lone surrogates round trip like nostr-tools', () => {
  const rand = prng(4403);
  const ck = randomKey(rand);
  const texts = ['\u0000', '\u0000\u0001\u001f\u007f', 'a\u0000b', '\r\n\t\b\f', '\u2028\u2029', '💜', 'Ω≈ç√∫',
    '\ud800', 'x\udc00y', '\ufeffBOM', '\uffff', '😀'.repeat(100), JSON.stringify({ k: ['"\\', 1] })];
  for (const t of texts) crossCheck(t, ck, randomKey(rand), JSON.stringify(t));
});

// --- Tampered payloads: a typed NostrError every time, never a crash or a hang.

const CK = bytes(extended.conversation_key);
const NONCE = bytes(extended.nonce);

function b64(buf) {
  return Buffer.from(buf).toString('base64');
}

// A payload with a correct MAC around a padded plaintext given as is (44.md steps 3, 5, 6 by
// hand with node:crypto), to reach the padding checks.
function craft(padded) {
  const info = Buffer.from(NONCE);
  const t1 = createHmac('sha256', CK).update(Buffer.concat([info, Buffer.from([1])])).digest();
  const t2 = createHmac('sha256', CK).update(Buffer.concat([t1, info, Buffer.from([2])])).digest();
  const t3 = createHmac('sha256', CK).update(Buffer.concat([t2, info, Buffer.from([3])])).digest();
  const okm = Buffer.concat([t1, t2, t3]);
  const iv = Buffer.concat([Buffer.alloc(4), okm.subarray(32, 44)]); // OpenSSL: counter || nonce
  const c = createCipheriv('chacha20', okm.subarray(0, 32), iv);
  const ct = Buffer.concat([c.update(padded), c.final()]);
  const mac = createHmac('sha256', okm.subarray(44, 76)).update(Buffer.concat([info, ct])).digest();
  return b64(Buffer.concat([Buffer.from([2]), info, ct, mac]));
}

function padded(head, size) {
  const p = Buffer.alloc(size);
  Buffer.from(head).copy(p);
  return p;
}

test('crafting by hand matches the real thing (so the padding cases below mean something)', () => {
  assert.equal(craft(padded([0, 1, 0x61], 34)), nip44.encrypt('a', CK, NONCE));
});

test('tampered payloads give their own error codes', () => {
  const payload = nip44.encrypt('the quick brown fox jumps over the lazy dog', CK, NONCE);
  const raw = Buffer.from(payload, 'base64');
  for (let i = 1; i < raw.length; i += 5) {
    const t = Buffer.from(raw);
    t[i] ^= 0x40;
    throwsCode(() => nip44.decrypt(b64(t), CK), 'NIP44_INVALID_MAC', `flip byte ${i}`);
  }
  for (const v of [0, 1, 3, 0x7f, 0xff]) {
    const t = Buffer.from(raw);
    t[0] = v;
    throwsCode(() => nip44.decrypt(b64(t), CK), 'NIP44_UNKNOWN_VERSION', `version ${v}`);
  }
  throwsCode(() => nip44.decrypt('#' + payload, CK), 'NIP44_UNKNOWN_VERSION', "'#' flag");
  throwsCode(() => nip44.decrypt('#', CK), 'NIP44_UNKNOWN_VERSION', "lone '#'");
  // Truncated: by whole groups (MAC then fails), by a character (base64), below the minimum.
  throwsCode(() => nip44.decrypt(payload.slice(0, -4), CK), 'NIP44_INVALID_MAC', 'minus 4 characters');
  throwsCode(() => nip44.decrypt(payload.slice(0, -1), CK), 'NIP44_INVALID_PAYLOAD', 'minus 1 character');
  throwsCode(() => nip44.decrypt(payload.slice(0, 131), CK), 'NIP44_INVALID_PAYLOAD', '131 characters');
  throwsCode(() => nip44.decrypt('', CK), 'NIP44_INVALID_PAYLOAD', 'empty');
  // Oversized: appended bytes, and a megabyte of random bytes with a valid version.
  throwsCode(() => nip44.decrypt(b64(Buffer.concat([raw, Buffer.from([1, 2, 3])])), CK), 'NIP44_INVALID_MAC', 'appended bytes');
  throwsCode(() => nip44.decrypt(payload + 'AAAA', CK), 'NIP44_INVALID_PAYLOAD', 'group after the padding');
  const big = Buffer.alloc(1 << 20, 0x5a);
  big[0] = 2;
  throwsCode(() => nip44.decrypt(b64(big), CK), 'NIP44_INVALID_MAC', '1 MiB of noise');
  throwsCode(() => nip44.decrypt('A'.repeat(3 << 20) + '!', CK), 'NIP44_INVALID_PAYLOAD', '3 MiB non-base64');
  // Not base64: whitespace, URL-safe digits, non-ASCII, NUL, missing padding, hidden bits.
  const p = payload;
  for (const [bad, what] of [
    [p + '\n', 'trailing newline'],
    [' ' + p.slice(1), 'space'],
    [p.slice(0, 50) + '-' + p.slice(51), "'-'"],
    [p.slice(0, 50) + '_' + p.slice(51), "'_'"],
    [p.slice(0, 50) + 'é' + p.slice(51), "'é'"],
    [p.slice(0, 50) + '\u0000' + p.slice(51), 'NUL'],
    [p.slice(0, 50) + '=' + p.slice(51), "inner '='"],
    ['A'.repeat(131) + '=', 'only As'],
  ])
    throwsCode(() => nip44.decrypt(bad, CK), 'NIP44_INVALID_PAYLOAD', what);
  // 40 plaintext bytes pad to 64: 131 raw bytes, one '=' at the end; a hidden bit set is refused.
  const one = nip44.encrypt('w'.repeat(40), CK, NONCE);
  assert.ok(one.endsWith('=') && !one.endsWith('=='));
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const last = one.at(-2);
  const flipped = one.slice(0, -2) + alphabet[alphabet.indexOf(last) ^ 1] + '=';
  throwsCode(() => nip44.decrypt(flipped, CK), 'NIP44_INVALID_PAYLOAD', 'non-zero padding bits');
  assert.throws(() => tools.decrypt(flipped, CK)); // nostr-tools refuses it too
  // The module still works afterwards.
  assert.equal(nip44.decrypt(payload, CK), 'the quick brown fox jumps over the lazy dog');
});

test('bad padding behind a correct MAC is NIP44_INVALID_PADDING', () => {
  const cases = [
    [padded([0, 40], 34), 'u16 length beyond the data'],
    [padded([0, 1], 66), 'padded size too big for the length'],
    [padded([0, 33], 34), 'padded size too small for the length'],
    [padded([0, 0, 0, 0, 0, 0], 34), 'zero length'],
    [padded([0, 0, 0, 0, 0, 1], 38), 'extended prefix for a small length'],
    [padded([0, 0, 0, 0, 0xff, 0xff], 6 + 65536), 'extended prefix for 65535'],
    [padded([0, 0, 0, 1, 0, 0], 34), 'extended length beyond the data'],
    [padded([0, 0, 0xff, 0xff, 0xff, 0xff], 6 + 65536), 'extended length 2^32-1'],
  ];
  for (const [p, what] of cases) {
    const payload = craft(p);
    throwsCode(() => nip44.decrypt(payload, CK), 'NIP44_INVALID_PADDING', what);
    assert.throws(() => tools.decrypt(payload, CK), /padding/, `nostr-tools on ${what}`);
  }
  // Controls: a correct extended prefix decrypts.
  const ext = padded([0, 0, 0, 1, 0, 0], 6 + 65536);
  ext.fill(0x79, 6);
  assert.equal(nip44.decrypt(craft(ext), CK), 'y'.repeat(65536));
});

test('arguments are checked', () => {
  const ck = nip44.getConversationKey(nostr.generateSecretKey(), nostr.getPublicKey(nostr.generateSecretKey()));
  throwsCode(() => nip44.encrypt('', ck), 'NIP44_INVALID_PLAINTEXT_LENGTH', 'empty plaintext');
  throwsCode(() => nip44.encrypt(42, ck), 'INVALID_ARGUMENT', 'number plaintext');
  throwsCode(() => nip44.encrypt('x', ck.subarray(1)), 'INVALID_ARGUMENT', '31-byte key');
  throwsCode(() => nip44.encrypt('x', hex(ck)), 'INVALID_ARGUMENT', 'hex key');
  throwsCode(() => nip44.encrypt('x', ck, new Uint8Array(16)), 'INVALID_ARGUMENT', '16-byte nonce');
  throwsCode(() => nip44.decrypt(null, ck), 'NIP44_INVALID_PAYLOAD', 'null payload');
  throwsCode(() => nip44.decrypt('x', new Uint8Array(33)), 'INVALID_ARGUMENT', '33-byte key');
  const sk = nostr.generateSecretKey();
  throwsCode(() => nip44.getConversationKey(sk.subarray(0, 31), nostr.getPublicKey(sk)), 'INVALID_SECRET_KEY', 'short sk');
  throwsCode(() => nip44.getConversationKey(new Uint8Array(32), nostr.getPublicKey(sk)), 'INVALID_SECRET_KEY', 'zero sk');
  throwsCode(() => nip44.getConversationKey(sk, 'zz'.repeat(32)), 'INVALID_PUBLIC_KEY', 'non-hex pub');
  throwsCode(() => nip44.getConversationKey(sk, 'ab'), 'INVALID_PUBLIC_KEY', 'short pub');
  // Uppercase hex names the same key, as in nostr-tools.
  const pub = nostr.getPublicKey(nostr.generateSecretKey());
  assert.deepEqual(nip44.getConversationKey(sk, pub.toUpperCase()), nip44.getConversationKey(sk, pub));
});

test('the conversation key does not stay in wasm memory', () => {
  const c = core();
  const ck = new Uint8Array(32).fill(0xa5);
  const inMemory = () => Buffer.from(c.HEAPU8.buffer).indexOf(Buffer.from(ck)) >= 0;
  // Control: the scan finds the key when it is there.
  const at = c.scratch(64) + 32;
  c.HEAPU8.set(ck, at);
  assert.ok(inMemory(), 'control');
  c.HEAPU8.fill(0, at, at + 32);
  const payload = nip44.encrypt('hello', ck);
  assert.ok(!inMemory(), 'after encrypt');
  assert.equal(nip44.decrypt(payload, ck), 'hello');
  assert.ok(!inMemory(), 'after decrypt');
  throwsCode(() => nip44.decrypt(payload.slice(0, 20), ck), 'NIP44_INVALID_PAYLOAD', 'short');
  throwsCode(() => nip44.encrypt('', ck), 'NIP44_INVALID_PLAINTEXT_LENGTH', 'empty');
  assert.ok(!inMemory(), 'after the error paths');
  // getConversationKey takes the secret key through scratch and wipes it there.
  const sk = nostr.generateSecretKey();
  nip44.getConversationKey(sk, nostr.getPublicKey(nostr.generateSecretKey()));
  assert.ok(Buffer.from(c.HEAPU8.buffer).indexOf(Buffer.from(sk)) < 0, 'secret key left in wasm memory');
  throwsCode(() => nip44.getConversationKey(sk, 'f'.repeat(64)), 'INVALID_PUBLIC_KEY', 'off-curve peer');
  assert.ok(Buffer.from(c.HEAPU8.buffer).indexOf(Buffer.from(sk)) < 0, 'secret key left after an error');
});

// Issue 16, item 5: the paths a heap scan found secrets on. Each scan looks for the exact bytes in
// the whole of wasm memory (the heap, the stack, freed blocks); each first proves it can find them.
function heapHas(needle) {
  return Buffer.from(core().HEAPU8.buffer).indexOf(Buffer.from(needle)) >= 0;
}
function planted(needle) {
  const c = core();
  const at = c.scratch(needle.length);
  c.HEAPU8.set(needle, at);
  const found = heapHas(needle);
  c.HEAPU8.fill(0, at, at + needle.length);
  return found;
}

test('no copy of a secret key is left by generateSecretKey, the raw-key functions or a disposed LocalSigner', () => {
  const keys = Array.from({ length: 8 }, () => nostr.generateSecretKey());
  assert.ok(planted(keys[0]), 'control: the scan finds a key that is there');
  for (const k of keys) assert.ok(!heapHas(k), `a generated key is still in wasm memory: ${hex(k).slice(0, 8)}…`);
  const sk = keys[0];
  const peer = nostr.getPublicKey(nostr.generateSecretKey());
  nostr.getPublicKey(sk);
  assert.ok(!heapHas(sk), 'getPublicKey');
  nostr.finalizeEvent({ kind: 1, created_at: 1, tags: [], content: 'x' }, sk);
  assert.ok(!heapHas(sk), 'finalizeEvent');
  nostr.nip59.wrapEvent({ kind: 14, content: 'x', tags: [] }, sk, peer);
  assert.ok(!heapHas(sk), 'nip59.wrapEvent');
  const signer = new nostr.LocalSigner(sk);
  signer.dispose();
  assert.ok(!heapHas(sk), 'LocalSigner after dispose');
});

test('no copy of the conversation key is left by getConversationKey (either key order)', () => {
  for (let i = 0; i < 4; i++) {
    const a = nostr.generateSecretKey();
    const b = nostr.generateSecretKey();
    const ck = nip44.getConversationKey(a, nostr.getPublicKey(b));
    assert.ok(!heapHas(ck), 'the conversation key is still in wasm memory');
    assert.ok(!heapHas(a) && !heapHas(b), 'a secret key is still in wasm memory');
    assert.deepEqual(nip44.getConversationKey(b, nostr.getPublicKey(a)), ck);
    assert.ok(!heapHas(ck), 'the conversation key is still in wasm memory (the other way)');
  }
});

test('decrypted plaintext leaves no copy in the scratch buffer (raw key and LocalSigner)', async () => {
  const a = nostr.generateSecretKey();
  const b = nostr.generateSecretKey();
  const ck = nip44.getConversationKey(a, nostr.getPublicKey(b));
  const signer = new nostr.LocalSigner(b);
  try {
    for (const size of [40, 300, 5000, 40_000]) {
      const marker = `secret plan ${hex(nostr.generateSecretKey())} `;
      const plaintext = marker.repeat(Math.ceil(size / marker.length)).slice(0, size);
      const needle = Buffer.from(marker.slice(0, 40));
      const payload = nip44.encrypt(plaintext, ck);
      assert.ok(!heapHas(needle), `${size}: the plaintext is still there after encrypt`);
      assert.equal(nip44.decrypt(payload, ck), plaintext);
      assert.ok(!heapHas(needle), `${size}: the plaintext is still there after decrypt`);
      assert.equal(await signer.nip44Decrypt(nostr.getPublicKey(a), payload), plaintext);
      assert.ok(!heapHas(needle), `${size}: the plaintext is still there after LocalSigner.nip44Decrypt`);
    }
  } finally {
    signer.dispose();
  }
});

test('a growing scratch buffer wipes the old one before freeing it', () => {
  const c = core();
  const needle = new Uint8Array(Buffer.from(`old scratch ${hex(nostr.generateSecretKey())}`));
  const at = c.scratch(needle.length);
  c.HEAPU8.set(needle, at);
  assert.ok(heapHas(needle), 'control');
  // Grow it past anything used so far (each old buffer is freed), twice after it first moves.
  let ptr = at;
  let moves = 0;
  for (let size = 1 << 16; moves < 3 && size <= 1 << 27; size <<= 1) {
    const next = c.scratch(size);
    if (next !== ptr) moves++;
    ptr = next;
  }
  assert.ok(moves >= 2, 'the buffer moved');
  assert.deepEqual(c.HEAPU8.subarray(ptr, ptr + needle.length), needle, 'the contents moved with it');
  c.HEAPU8.fill(0, ptr, ptr + needle.length);
  assert.ok(!heapHas(needle), 'a freed scratch buffer still holds the old contents');
});

test('nostr-tools names: nip44.v2 mirrors the module', () => {
  assert.equal(nip44.v2.encrypt, nip44.encrypt);
  assert.equal(nip44.v2.decrypt, nip44.decrypt);
  assert.equal(nip44.v2.utils.getConversationKey, nip44.getConversationKey);
  assert.equal(nip44.v2.utils.calcPaddedLen, nip44.calcPaddedLen);
  const ck = randomKey(prng(7));
  assert.equal(nip44.v2.decrypt(nip44.v2.encrypt('v2', ck), ck), 'v2');
});

// --- Keys held in wasm memory (LocalSigner's handles).

test('handle variants use the cached conversation key and interoperate', () => {
  const c = core();
  const skA = nostr.generateSecretKey();
  const skB = nostr.generateSecretKey();
  const pubA = nostr.getPublicKey(skA);
  const pubB = nostr.getPublicKey(skB);
  const h = createKeyHandle(skA);
  assert.ok(h > 0);
  try {
    const ckB = tools.utils.getConversationKey(skB, pubA);
    const rand = prng(4404);
    for (let i = 0; i < 50; i++) {
      const text = randomText(rand, 200) || 'z';
      const p = encryptWithHandle(h, pubB, text);
      assert.ok(tools.decrypt(p, ckB) === text);
      assert.ok(decryptWithHandle(h, pubB, tools.encrypt(text, ckB)) === text);
    }
    // Many peers: the cache stays correct past its bound.
    for (let i = 0; i < 1100; i++) {
      const sk = nostr.generateSecretKey();
      const pub = nostr.getPublicKey(sk);
      if (i % 100 === 0) assert.equal(tools.decrypt(encryptWithHandle(h, pub, 'peer'), tools.utils.getConversationKey(sk, pubA)), 'peer');
      else encryptWithHandle(h, pub, 'peer');
    }
    assert.ok(decryptWithHandle(h, pubB, encryptWithHandle(h, pubB, 'self check')) === 'self check');
    assert.equal(decryptWithHandle(h, pubB.toUpperCase(), encryptWithHandle(h, pubB, 'any case')), 'any case');
    assert.equal(decryptWithHandle(h, pubB, tools.encrypt('long '.repeat(30000), ckB)), 'long '.repeat(30000));
    throwsCode(() => encryptWithHandle(h, 'zz'.repeat(32), 'x'), 'INVALID_PUBLIC_KEY', 'bad peer');
    throwsCode(() => encryptWithHandle(h, 'f'.repeat(64), 'x'), 'INVALID_PUBLIC_KEY', 'peer not on the curve');
    throwsCode(() => encryptWithHandle(h, pubB, ''), 'NIP44_INVALID_PLAINTEXT_LENGTH', 'empty');
    throwsCode(() => decryptWithHandle(h, pubB, '#x'), 'NIP44_UNKNOWN_VERSION', "'#'");
    throwsCode(() => decryptWithHandle(h, pubB, tools.encrypt('x', randomKey(rand))), 'NIP44_INVALID_MAC', 'other key');
  } finally {
    c.keyDispose(h);
  }
  throwsCode(() => encryptWithHandle(h, pubB, 'x'), 'INVALID_ARGUMENT', 'disposed handle');
  throwsCode(() => decryptWithHandle(h, pubB, nip44.encrypt('x', randomKey(prng(1)))), 'INVALID_ARGUMENT', 'disposed handle');
});
