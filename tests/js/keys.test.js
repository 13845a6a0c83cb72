// Internal helpers of js/keys.js: publicKeyHex, the one reading of a public key argument that AGX
// peers, the NIP-XX agent argument and the CLI share; signerPublicKey, the check of what a
// Signer's getPublicKey() answers (nip59 and AGX).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, rejectsCode, throwsCode } from './helpers.js';
// Internals of the same package instance (js/core.js and js/errors.js are shared with the bundle).
import { publicKeyHex, signerPublicKey } from '../../js/keys.js';
import { agentHex } from '../../js/agents/shared.js';
import { peerHex } from '../../js/agx/util.js';

const { nip19 } = nostr;
const pk = nostr.getPublicKey(nostr.generateSecretKey());
const npub = nip19.npubEncode(pk);
const offCurve = 'cd'.repeat(32); // no y with y² = x³ + 7 (isValidPublicKey is false)

/** `s` with its last bech32 character changed, so the checksum no longer holds. */
function badChecksum(s) {
  const last = s.at(-1);
  return s.slice(0, -1) + (last === 'q' ? 'p' : 'q');
}

test('hex in either case and an npub (either case) give the same 64 lowercase hex', () => {
  assert.equal(nostr.isValidPublicKey(offCurve), false, 'the fixture is off the curve');
  assert.equal(publicKeyHex(pk), pk);
  assert.equal(publicKeyHex(pk.toUpperCase()), pk);
  assert.equal(publicKeyHex(pk.slice(0, 32) + pk.slice(32).toUpperCase()), pk, 'mixed-case hex');
  assert.equal(publicKeyHex(npub), pk);
  assert.equal(publicKeyHex(npub.toUpperCase()), pk, 'BIP-173 allows an all-upper-case bech32 string');
});

test('an npub that does not decode gives the NIP-19 code', () => {
  throwsCode(() => publicKeyHex(badChecksum(npub)), 'BECH32_CHECKSUM', 'bad checksum');
  throwsCode(() => publicKeyHex(npub.slice(0, 10) + npub.slice(10).toUpperCase()), 'BECH32_INVALID', 'mixed case');
  throwsCode(() => publicKeyHex(nip19.encodeBytes('npub', new Uint8Array(31).fill(7))), 'BECH32_LENGTH', '31-byte npub');
  throwsCode(() => publicKeyHex('npub1qqqq'), 'BECH32_INVALID', 'too short for a checksum');
});

test('another NIP-19 entity is BECH32_PREFIX; an nsec is not decoded and never appears in the message', () => {
  const nsec = nip19.nsecEncode(nostr.generateSecretKey());
  const err = throwsCode(() => publicKeyHex(nsec), 'BECH32_PREFIX', 'nsec');
  assert.ok(!err.message.includes(nsec.slice(5, 20)), err.message);
  throwsCode(() => publicKeyHex(nip19.noteEncode(pk)), 'BECH32_PREFIX', 'note');
  throwsCode(() => publicKeyHex(nip19.nprofileEncode({ pubkey: pk, relays: ['wss://r.example'] })), 'BECH32_PREFIX', 'nprofile (its relays would be dropped)');
});

test('off the curve, wrong length, not hex or not a string: INVALID_PUBLIC_KEY', () => {
  throwsCode(() => publicKeyHex(offCurve), 'INVALID_PUBLIC_KEY', 'off-curve x');
  throwsCode(() => publicKeyHex(offCurve.toUpperCase()), 'INVALID_PUBLIC_KEY', 'off-curve x, upper case');
  throwsCode(() => publicKeyHex('00'.repeat(32)), 'INVALID_PUBLIC_KEY', 'x = 0');
  throwsCode(() => publicKeyHex('f'.repeat(64)), 'INVALID_PUBLIC_KEY', 'x ≥ p');
  throwsCode(() => publicKeyHex(pk.slice(2)), 'INVALID_PUBLIC_KEY', '62 hex');
  throwsCode(() => publicKeyHex(pk + '00'), 'INVALID_PUBLIC_KEY', '66 hex');
  throwsCode(() => publicKeyHex('02' + pk), 'INVALID_PUBLIC_KEY', 'compressed SEC1 (66 hex)');
  throwsCode(() => publicKeyHex('zz'.repeat(32)), 'INVALID_PUBLIC_KEY', 'not hex');
  throwsCode(() => publicKeyHex(''), 'INVALID_PUBLIC_KEY', 'empty');
  for (const v of [undefined, null, 42, 0n, {}, [pk], new TextEncoder().encode(pk), { toString: () => pk }])
    throwsCode(() => publicKeyHex(v), 'INVALID_PUBLIC_KEY', `non-string ${typeof v}`);
});

test('AGX peerHex is publicKeyHex; the NIP-XX agentHex keeps INVALID_ARGUMENT with the reason as cause', () => {
  for (const good of [pk, pk.toUpperCase(), npub]) {
    assert.equal(peerHex(good), pk);
    assert.equal(agentHex(good, 'prompt'), pk);
  }
  const bad = [
    [badChecksum(npub), 'BECH32_CHECKSUM'],
    [nip19.nsecEncode(nostr.generateSecretKey()), 'BECH32_PREFIX'],
    [offCurve, 'INVALID_PUBLIC_KEY'],
    ['ab', 'INVALID_PUBLIC_KEY'],
    [42, 'INVALID_PUBLIC_KEY'],
  ];
  for (const [value, code] of bad) {
    throwsCode(() => peerHex(value), code, `peer ${value}`);
    const err = throwsCode(() => agentHex(value, 'prompt'), 'INVALID_ARGUMENT', `agent ${value}`);
    assert.match(err.message, new RegExp(`^INVALID_ARGUMENT: prompt: agent must be .*\\(${code}: `));
    assert.equal(err.cause.code, code);
  }
});

test('signerPublicKey: what a Signer answers must be 64 lowercase hex, else INVALID_PUBLIC_KEY', async () => {
  const answering = (value) => ({ getPublicKey: async () => value });
  assert.equal(await signerPublicKey(answering(pk)), pk);
  for (const bad of [pk.toUpperCase(), npub, pk.slice(1), undefined, 42])
    await rejectsCode(signerPublicKey(answering(bad)), 'INVALID_PUBLIC_KEY', String(bad));
  await assert.rejects(signerPublicKey({ getPublicKey: async () => { throw new Error('locked'); } }), /locked/, "the signer's own error passes through");
});
