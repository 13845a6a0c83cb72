// NIP-49 (ncryptsec) through the real WASM module: the published vectors (tests/vectors/nip49.json),
// differential runs against nostr-tools' nip49 both ways, the NFKC password rule, nostr-tools'
// names and shapes, every refusal with its code, and no secret left in wasm memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pbkdf2Sync, scryptSync } from 'node:crypto';
import * as tools from 'nostr-tools/nip49';
import { bech32 } from '@scure/base';
import { nostr, prng, randomText, throwsCode } from './helpers.js';
import { core } from '../../js/core.js';

const { nip49 } = nostr;
const vectors = JSON.parse(readFileSync(new URL('../vectors/nip49.json', import.meta.url), 'utf8'));
const hex = (b) => Buffer.from(b).toString('hex');
const bytes = (h) => new Uint8Array(Buffer.from(h, 'hex'));
/** The 91 bytes under the bech32. */
const payload = (nc) => new Uint8Array(bech32.fromWords(bech32.decode(nc, 5000).words));
const reencode = (b) => bech32.encode('ncryptsec', bech32.toWords(b), 5000);
const heapHas = (needle) => Buffer.from(core().HEAPU8.buffer).indexOf(Buffer.from(needle)) >= 0;

test("49.md's vector decrypts (password 'nostr', log_n 16)", () => {
  for (const v of vectors.nip49_md.decrypt) {
    const sk = nip49.decrypt(v.ncryptsec, v.password);
    assert.ok(sk instanceof Uint8Array);
    assert.equal(hex(sk), v.secret_key);
    assert.equal(payload(v.ncryptsec)[1], v.log_n);
    assert.equal(payload(v.ncryptsec).length, vectors.nip49_md.payload_length);
  }
});

test("nostr-tools' vector table: each decrypts, and re-encrypts to something both decrypt", () => {
  assert.equal(vectors.nostr_tools.length, 11);
  for (const v of vectors.nostr_tools) {
    assert.equal(hex(nip49.decrypt(v.ncryptsec, v.password)), v.secret_key, v.ncryptsec);
    const ours = nip49.encrypt(bytes(v.secret_key), v.password, v.log_n, v.key_security);
    const b = payload(ours);
    assert.deepEqual([b[0], b[1], b[42], b.length], [2, v.log_n, v.key_security, 91]);
    assert.equal(hex(tools.decrypt(ours, v.password)), v.secret_key);
    assert.equal(hex(nip49.decrypt(ours, v.password)), v.secret_key);
  }
});

test('the password is normalized to NFKC (49.md): either form decrypts either form', () => {
  const [n] = vectors.nip49_md.password_nfkc;
  const raw = Buffer.from(n.input_utf8, 'hex').toString('utf8');
  const nfkc = Buffer.from(n.nfkc_utf8, 'hex').toString('utf8');
  assert.notEqual(raw, nfkc);
  const sk = nostr.generateSecretKey();
  for (const [enc, dec] of [[raw, nfkc], [nfkc, raw], [raw, raw]]) {
    assert.deepEqual(nip49.decrypt(nip49.encrypt(sk, enc, 4), dec), sk);
    assert.deepEqual(tools.decrypt(nip49.encrypt(sk, enc, 4), dec), sk);
    assert.deepEqual(nip49.decrypt(tools.encrypt(sk, enc, 4), dec), sk);
  }
});

test('differential against nostr-tools: random keys, passwords, log_n and key security bytes', () => {
  const rand = prng(49);
  for (let i = 0; i < 24; i++) {
    const sk = nostr.generateSecretKey();
    const password = i % 6 === 0 ? '' : randomText(rand, 24) + (i % 4 === 0 ? 'Å' : '');
    const logn = 1 + Math.floor(rand() * 6);
    const ksb = i % 3;
    const ours = nip49.encrypt(sk, password, logn, ksb);
    const theirs = tools.encrypt(sk, password, logn, ksb);
    assert.deepEqual(tools.decrypt(ours, password), sk, `ours -> nostr-tools ${i}`);
    assert.deepEqual(nip49.decrypt(theirs, password), sk, `nostr-tools -> ours ${i}`);
    assert.equal(ours.length, theirs.length);
    assert.notEqual(ours, nip49.encrypt(sk, password, logn, ksb), 'a fresh salt and nonce every time');
  }
  // The defaults are nostr-tools' (log_n 16, key security byte 0x02), and so is the work.
  const sk = nostr.generateSecretKey();
  const ours = nip49.encrypt(sk, 'correct horse');
  assert.deepEqual([payload(ours)[1], payload(ours)[42]], [16, 2]);
  assert.deepEqual(tools.decrypt(ours, 'correct horse'), sk);
  assert.deepEqual(nip49.decrypt(tools.encrypt(sk, 'correct horse'), 'correct horse'), sk);
});

test('refusals: each with its code, and what nostr-tools does with the same input', () => {
  const sk = nostr.generateSecretKey();
  const nc = nip49.encrypt(sk, 'pw', 3, 1);
  throwsCode(() => nip49.decrypt(nc, 'pW'), 'NIP49_DECRYPT_FAILED', 'wrong password');
  assert.throws(() => tools.decrypt(nc, 'pW'));
  const b = payload(nc);
  for (const at of [2, 20, 42, 50, 90]) {
    const t = b.slice();
    t[at] ^= 1;
    throwsCode(() => nip49.decrypt(reencode(t), 'pw'), 'NIP49_DECRYPT_FAILED', `byte ${at} altered`);
    assert.throws(() => tools.decrypt(reencode(t), 'pw'));
  }
  const version = b.slice();
  version[0] = 1;
  throwsCode(() => nip49.decrypt(reencode(version), 'pw'), 'NIP49_UNKNOWN_VERSION');
  // A hostile log_n is refused before any scrypt work (255 would need 2^255 KiB).
  for (const logn of [0, 21, 64, 255]) {
    const t = b.slice();
    t[1] = logn;
    throwsCode(() => nip49.decrypt(reencode(t), 'pw'), 'NIP49_INVALID_LOG_N', `log_n ${logn}`);
  }
  throwsCode(() => nip49.decrypt(reencode(b.slice(0, 90)), 'pw'), 'NIP49_INVALID_PAYLOAD', '90 bytes');
  throwsCode(() => nip49.decrypt(nostr.nip19.nsecEncode(sk), 'pw'), 'BECH32_PREFIX', 'an nsec');
  throwsCode(() => nip49.decrypt(nc.slice(0, -1) + (nc.at(-1) === 'q' ? 'p' : 'q'), 'pw'), 'BECH32_CHECKSUM', 'checksum');
  throwsCode(() => nip49.decrypt(42, 'pw'), 'INVALID_ARGUMENT', 'not a string');
  throwsCode(() => nip49.decrypt(nc, null), 'INVALID_ARGUMENT', 'password not a string');
  throwsCode(() => nip49.encrypt(sk, 'pw', 21), 'NIP49_INVALID_LOG_N', 'log_n 21');
  assert.throws(() => tools.encrypt(sk, 'pw', 21), 'nostr-tools refuses 21 too (its scrypt memory cap)');
  throwsCode(() => nip49.encrypt(sk, 'pw', 0), 'NIP49_INVALID_LOG_N', 'log_n 0');
  throwsCode(() => nip49.encrypt(sk, 'pw', 2.5), 'NIP49_INVALID_LOG_N', 'log_n 2.5');
  throwsCode(() => nip49.encrypt(sk, 'pw', 4, 3), 'NIP49_INVALID_KEY_SECURITY', 'ksb 3');
  throwsCode(() => nip49.encrypt(sk.slice(1), 'pw', 4), 'INVALID_SECRET_KEY', '31 bytes');
  throwsCode(() => nip49.encrypt(hex(sk), 'pw', 4), 'INVALID_SECRET_KEY', 'hex');
  throwsCode(() => nip49.encrypt(sk, undefined, 4), 'INVALID_ARGUMENT', 'no password');
  // Errors never carry the password or the key.
  try {
    nip49.decrypt(nc, 'a-password-that-must-not-show');
  } catch (err) {
    assert.doesNotMatch(`${err.message} ${err.stack}`, /a-password-that-must-not-show/);
  }
});

test('no key, password or scrypt state is left in wasm memory', () => {
  const sk = nostr.generateSecretKey();
  const password = `pw ${hex(nostr.generateSecretKey())}`;
  const logn = 10;
  const nc = nip49.encrypt(sk, password, logn, 0);
  const b = payload(nc);
  const salt = b.subarray(2, 18);
  // What scrypt derives (node:crypto): the symmetric key, and the password's PBKDF2 block B
  // (128 * r bytes), which libsodium keeps in its working memory and frees.
  const key = scryptSync(password, salt, 32, { N: 2 ** logn, r: 8, p: 1 });
  const block = pbkdf2Sync(password, salt, 1, 1024, 'sha256');
  const needles = { 'secret key': sk, password: Buffer.from(password), 'symmetric key': key, 'PBKDF2 block': block.subarray(64, 128) };
  const c = core();
  const at = c.scratch(64);
  c.HEAPU8.set(key, at);
  assert.ok(heapHas(key), 'control: the scan finds what is there');
  c.HEAPU8.fill(0, at, at + 32);
  for (const [what, n] of Object.entries(needles)) assert.ok(!heapHas(n), `after encrypt: ${what}`);
  assert.deepEqual(nip49.decrypt(nc, password), sk);
  for (const [what, n] of Object.entries(needles)) assert.ok(!heapHas(n), `after decrypt: ${what}`);
  assert.throws(() => nip49.decrypt(nc, `${password}!`));
  for (const [what, n] of Object.entries(needles)) assert.ok(!heapHas(n), `after a wrong password: ${what}`);
});
