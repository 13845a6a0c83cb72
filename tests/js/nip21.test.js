// NIP-21 nostr: URIs against the spec's examples and nostr-tools' cases (tests/vectors/nip21.json),
// and nostr-tools 2.25 on generated URIs of every entity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nip19 as toolsNip19, nip21 as toolsNip21 } from 'nostr-tools';
import { nostr, prng, throwsCode, vectorsDir } from './helpers.js';

const { nip21 } = nostr;
const v = JSON.parse(readFileSync(new URL('nip21.json', vectorsDir), 'utf8'));

test("the spec's example URIs", () => {
  for (const ex of v.examples) {
    const got = nip21.parse(ex.uri);
    assert.equal(got.uri, ex.uri);
    assert.equal(got.value, ex.uri.slice(6));
    assert.deepEqual(JSON.parse(JSON.stringify(got.decoded)), ex.decoded);
    assert.equal(nip21.test(ex.uri), true);
  }
  // "except nsec": never decoded, never a URI (nostr-tools decodes it).
  throwsCode(() => nip21.parse(v.except_nsec.uri), 'NIP21_INVALID');
  assert.equal(nip21.test(v.except_nsec.uri), false);
  assert.equal(toolsNip21.parse(v.except_nsec.uri).decoded.type, 'nsec');
});

test("nostr-tools' test() and parse() cases", () => {
  for (const s of v.nostr_tools.valid) assert.equal(nip21.test(s), true, s);
  for (const s of v.nostr_tools.invalid) assert.equal(nip21.test(s), false, s);
  assert.deepEqual(nip21.parse(v.nostr_tools.parse.uri), v.nostr_tools.parse);
  assert.equal(nip21.NOSTR_URI_REGEX.source, toolsNip21.NOSTR_URI_REGEX.source);
});

const hex = (rand) => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');

function entity(rand, i) {
  const relays = Array.from({ length: Math.floor(rand() * 3) }, (_, k) => `wss://r${k}.example.com`);
  switch (i % 5) {
    case 0: return toolsNip19.npubEncode(hex(rand));
    case 1: return toolsNip19.noteEncode(hex(rand));
    case 2: return toolsNip19.nprofileEncode({ pubkey: hex(rand), relays });
    case 3: return toolsNip19.neventEncode({ id: hex(rand), relays, author: rand() < 0.5 ? hex(rand) : undefined, kind: rand() < 0.5 ? Math.floor(rand() * 40000) : undefined });
    default: return toolsNip19.naddrEncode({ identifier: `d${i}`, pubkey: hex(rand), kind: 30000 + i, relays });
  }
}

test('differential: generated URIs parse as nostr-tools parses them; corrupted ones fail typed', () => {
  const rand = prng(21);
  for (let i = 0; i < 300; i++) {
    const uri = `nostr:${entity(rand, i)}`;
    assert.deepStrictEqual(nip21.parse(uri), toolsNip21.parse(uri), uri);
    assert.equal(nip21.test(uri), true);
    // One character changed: nostr-tools' test() still says yes (shape only); neither decodes.
    const data = uri.indexOf('1', 6) + 1; // a character of the data part (the checksum covers it)
    const at = data + Math.floor(rand() * (uri.length - data));
    const swapped = uri.slice(0, at) + (uri[at] === 'q' ? 'p' : 'q') + uri.slice(at + 1);
    const err = throwsCode(() => nip21.parse(swapped), 'BECH32_CHECKSUM', swapped);
    assert.ok(err.message.length > 0);
    assert.equal(nip21.test(swapped), false);
    assert.throws(() => toolsNip21.parse(swapped));
  }
});

test('bad inputs are typed errors', () => {
  throwsCode(() => nip21.parse(5), 'NIP21_INVALID');
  throwsCode(() => nip21.parse('npub1x'), 'NIP21_INVALID');
  throwsCode(() => nip21.parse('nostr:' + 'q'.repeat(6000)), 'BECH32_LENGTH');
  throwsCode(() => nip21.parse('nostr:nprofile1qqqqqqqqqqqqqqqqqqqqq'), 'BECH32_CHECKSUM');
  for (const x of [null, undefined, 5, {}, 'nostr:', 'nostr:\ud800']) assert.equal(nip21.test(x), false, String(x));
});
