// NIP-04 against rust-nostr's vectors (tests/vectors/nip04.json) and nostr-tools 2.25 both ways on
// generated texts and keys; every bad input is a typed NostrError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nip04 as toolsNip04, generateSecretKey as toolsSk, getPublicKey as toolsPk } from 'nostr-tools';
import { createECDH } from 'node:crypto';
import { nostr, prng, randomText, rejectsCode, vectorsDir } from './helpers.js';

const { nip04, bytesToHex, hexToBytes } = nostr;
const v = JSON.parse(readFileSync(new URL('nip04.json', vectorsDir), 'utf8'));

test("rust-nostr's ciphertext decrypts, from either side's secret key", async () => {
  for (const c of v.decrypt) {
    assert.equal(await nip04.decrypt(hexToBytes(v.receiver_sk), v.sender_pk, c.content), c.plaintext);
    assert.equal(await nip04.decrypt(hexToBytes(v.sender_sk), v.receiver_pk, c.content), c.plaintext);
    assert.equal(await nip04.decrypt(v.receiver_sk, v.sender_pk, c.content), c.plaintext, 'a hex secret key, as nostr-tools accepts');
  }
  assert.equal(nostr.getPublicKey(hexToBytes(v.sender_sk)), v.sender_pk);
});

test("rust-nostr's invalid contents are NIP04_INVALID_PAYLOAD", async () => {
  for (const c of v.invalid) await rejectsCode(nip04.decrypt(hexToBytes(v.sender_sk), v.receiver_pk, c.content), 'NIP04_INVALID_PAYLOAD', c.content);
});

test('differential: ours and nostr-tools read each other on generated texts and keys', async () => {
  const rand = prng(404);
  for (let i = 0; i < 40; i++) {
    const a = toolsSk(), b = toolsSk();
    const text = i === 0 ? '' : randomText(rand, i < 30 ? 40 : 3000);
    const ours = await nip04.encrypt(a, toolsPk(b), text);
    assert.match(ours, /^[A-Za-z0-9+/]+={0,2}\?iv=[A-Za-z0-9+/]{22}==$/);
    assert.equal(toolsNip04.decrypt(b, toolsPk(a), ours), text);
    const theirs = toolsNip04.encrypt(bytesToHex(b), toolsPk(a), text);
    assert.equal(await nip04.decrypt(a, toolsPk(b), theirs), text);
  }
});

test('a wrong key pair is NIP04_DECRYPT_FAILED, never garbage text', async () => {
  const content = v.decrypt[0].content;
  for (let i = 1; i <= 8; i++) {
    const wrong = new Uint8Array(32);
    wrong[31] = i;
    await rejectsCode(nip04.decrypt(wrong, v.sender_pk, content), 'NIP04_DECRYPT_FAILED', String(i));
  }
  // A block that decrypts with valid padding but to bytes that are not UTF-8.
  const sk = hexToBytes(v.receiver_sk);
  const raw = await crypto.subtle.importKey('raw', ecdhX(v.receiver_sk, v.sender_pk), { name: 'AES-CBC' }, false, ['encrypt']);
  const iv = new Uint8Array(16);
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, raw, new Uint8Array([0xff, 0xfe, 0x80])));
  const bad = `${Buffer.from(ct).toString('base64')}?iv=${Buffer.from(iv).toString('base64')}`;
  await rejectsCode(nip04.decrypt(sk, v.sender_pk, bad), 'NIP04_DECRYPT_FAILED');
  assert.equal(toolsNip04.decrypt(v.receiver_sk, v.sender_pk, bad), '\ufffd\ufffd\ufffd', 'nostr-tools returns replacement characters');
});

// The shared x coordinate by Node's own ECDH (OpenSSL), to build a payload by hand above.
function ecdhX(skHex, pkHex) {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(Buffer.from(skHex, 'hex'));
  return new Uint8Array(ecdh.computeSecret(Buffer.from('02' + pkHex, 'hex')));
}

test('bad inputs are typed errors', async () => {
  const sk = generateSk();
  const pk = nostr.getPublicKey(generateSk());
  for (const bad of [undefined, null, 5, new Uint8Array(31), new Uint8Array(32), 'zz'.repeat(32), '00'.repeat(31), new Uint8Array(33)])
    await rejectsCode(nip04.encrypt(bad, pk, 'x'), 'INVALID_SECRET_KEY', String(bad));
  for (const bad of [undefined, 5, 'npub1', pk.slice(2), pk + '00', '0'.repeat(64), 'f'.repeat(64)])
    await rejectsCode(nip04.encrypt(sk, bad, 'x'), 'INVALID_PUBLIC_KEY', String(bad));
  for (const bad of [undefined, 5, null, {}]) await rejectsCode(nip04.encrypt(sk, pk, bad), 'INVALID_ARGUMENT', String(bad));
  for (const bad of [undefined, 5, null, '', 'x?iv=y']) await rejectsCode(nip04.decrypt(sk, pk, bad), 'NIP04_INVALID_PAYLOAD', String(bad));
});

function generateSk() {
  return nostr.generateSecretKey();
}
