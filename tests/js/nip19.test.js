import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as tools from 'nostr-tools/nip19';
import { nostr, prng, randomText, vectorsDir, throwsCode } from './helpers.js';

const { nip19, NostrError } = nostr;
const spec = JSON.parse(readFileSync(new URL('nips-spec-examples.json', vectorsDir), 'utf8')).nip19;
const toolsVectors = JSON.parse(readFileSync(new URL('nip19-nostr-tools.json', vectorsDir), 'utf8'));

const CODES = new Set(['BECH32_CHECKSUM', 'BECH32_INVALID', 'BECH32_PREFIX', 'BECH32_LENGTH', 'TLV_INVALID']);
const textEncoder = new TextEncoder();

function randomBytes(rand, n) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(rand() * 256);
  return b;
}
const randomHex = (rand) => nostr.bytesToHex(randomBytes(rand, 32));
const randomKind = (rand) => (rand() < 0.5 ? Math.floor(rand() * 65536) : Math.floor(rand() * 2 ** 32));
function randomRelays(rand) {
  const out = [];
  for (let n = Math.floor(rand() * 4); n > 0; n--) out.push(rand() < 0.5 ? `wss://${randomText(rand, 20)}` : randomText(rand, 40));
  return out;
}

// ---- the vectors, through the WASM build

test('spec examples decode to their values and encode back byte for byte', () => {
  assert.equal(spec.length, 4);
  for (const v of spec) {
    const d = nip19.decode(v.bech32);
    assert.equal(d.type, v.type);
    if (v.type === 'npub') {
      assert.equal(d.data, v.hex);
      assert.equal(nip19.npubEncode(v.hex), v.bech32);
    } else if (v.type === 'nsec') {
      assert.ok(d.data instanceof Uint8Array);
      assert.equal(nostr.bytesToHex(d.data), v.hex);
      assert.equal(nip19.nsecEncode(nostr.hexToBytes(v.hex)), v.bech32);
    } else {
      assert.deepEqual(d.data, { pubkey: v.pubkey, relays: v.relays });
      assert.equal(nip19.nprofileEncode({ pubkey: v.pubkey, relays: v.relays }), v.bech32); // spec TLV order
    }
    assert.deepStrictEqual(d, tools.decode(v.bech32));
  }
});

test('nostr-tools naddr strings decode to the expected fields (any TLV order)', () => {
  for (const v of toolsVectors.decode) {
    const d = nip19.decode(v.bech32);
    assert.equal(d.type, 'naddr', v.name);
    assert.equal(d.data.pubkey, v.expect.pubkey);
    assert.equal(d.data.kind, v.expect.kind);
    assert.equal(d.data.identifier, v.expect.identifier);
    for (const r of v.expect.relays_contain ?? []) assert.ok(d.data.relays.includes(r), r);
    assert.deepStrictEqual(d, tools.decode(v.bech32));
  }
});

test('nostr-tools valid strings decode exactly as nostr-tools decodes them', () => {
  assert.equal(toolsVectors.valid.length, 6);
  for (const v of toolsVectors.valid) {
    const d = nip19.decode(v.bech32);
    assert.equal(d.type, v.type);
    assert.deepStrictEqual(d, tools.decode(v.bech32), v.bech32);
  }
});

test('nostr-tools invalid strings throw BECH32_INVALID', () => {
  assert.equal(toolsVectors.invalid.length, 5);
  for (const v of toolsVectors.invalid) {
    throwsCode(() => nip19.decode(v.bech32), 'BECH32_INVALID', v.why);
    assert.deepEqual(nip19.decodeNostrURI(`nostr:${v.bech32}`), { type: 'invalid', data: null });
  }
});

// ---- cross-implementation, both directions, every type

test('our strings decode in nostr-tools to the values we encoded', () => {
  const rand = prng(19);
  for (let i = 0; i < 300; i++) {
    const pk = randomHex(rand);
    const sk = randomBytes(rand, 32);
    const id = randomHex(rand);
    // npub, nsec, note: the strings themselves must be identical.
    assert.equal(nip19.npubEncode(pk), tools.npubEncode(pk));
    assert.equal(nip19.nsecEncode(sk), tools.nsecEncode(sk));
    assert.equal(nip19.noteEncode(id), tools.noteEncode(id));
    assert.deepStrictEqual(tools.decode(nip19.nsecEncode(sk)), { type: 'nsec', data: sk });

    const relays = randomRelays(rand);
    assert.deepStrictEqual(tools.decode(nip19.nprofileEncode({ pubkey: pk, relays })), {
      type: 'nprofile',
      data: { pubkey: pk, relays },
    });

    const author = rand() < 0.5 ? randomHex(rand) : undefined;
    const kind = rand() < 0.5 ? randomKind(rand) : undefined;
    assert.deepStrictEqual(tools.decode(nip19.neventEncode({ id, relays, author, kind })), {
      type: 'nevent',
      data: { id, relays, author, kind },
    });

    const addr = { identifier: randomText(rand, 60), pubkey: pk, kind: randomKind(rand), relays };
    assert.deepStrictEqual(tools.decode(nip19.naddrEncode(addr)), { type: 'naddr', data: addr });
  }
});

test('nostr-tools strings decode here exactly as nostr-tools decodes them', () => {
  const rand = prng(91);
  for (let i = 0; i < 300; i++) {
    const pk = randomHex(rand);
    const relays = randomRelays(rand);
    const strings = [
      tools.npubEncode(pk),
      tools.nsecEncode(randomBytes(rand, 32)),
      tools.noteEncode(randomHex(rand)),
      tools.nprofileEncode({ pubkey: pk, relays: rand() < 0.2 ? undefined : relays }),
      tools.neventEncode({
        id: randomHex(rand),
        relays,
        author: rand() < 0.5 ? pk : undefined,
        kind: rand() < 0.5 ? randomKind(rand) : undefined,
      }),
      tools.naddrEncode({ identifier: randomText(rand, 60), pubkey: pk, kind: randomKind(rand), relays }),
    ];
    for (const s of strings) {
      const ours = nip19.decode(s);
      assert.deepStrictEqual(ours, tools.decode(s), s);
      // And back: equal values (TLV order differs from nostr-tools, so not equal strings).
      const again = reencode(ours);
      assert.deepStrictEqual(tools.decode(again), ours);
      if (/^(npub|nsec|note)1/.test(s)) assert.equal(again, s);
    }
  }
});

function reencode({ type, data }) {
  switch (type) {
    case 'npub':
      return nip19.npubEncode(data);
    case 'nsec':
      return nip19.nsecEncode(data);
    case 'note':
      return nip19.noteEncode(data);
    case 'nprofile':
      return nip19.nprofileEncode(data);
    case 'nevent':
      return nip19.neventEncode(data);
    case 'naddr':
      return nip19.naddrEncode(data);
  }
  throw new Error(type);
}

test('random TLV payloads: we accept exactly what nostr-tools accepts, with equal values', () => {
  // ASCII values only: for those the two decoders have the same rules (nostr-tools replaces bad
  // UTF-8 where we reject it; that case is tested below).
  const rand = prng(7);
  const prefixes = ['nprofile', 'nevent', 'naddr'];
  let accepted = 0;
  for (let i = 0; i < 3000; i++) {
    const parts = [];
    for (let n = Math.floor(rand() * 6); n > 0; n--) {
      const type = [0, 0, 1, 2, 3, 9][Math.floor(rand() * 6)];
      const good = { 0: [32, 5], 1: [10], 2: [32], 3: [4], 9: [3] }[type];
      const len = rand() < 0.85 ? good[Math.floor(rand() * good.length)] : Math.floor(rand() * 40);
      const v = new Uint8Array(len);
      for (let k = 0; k < len; k++) v[k] = 0x21 + Math.floor(rand() * 90);
      parts.push(Uint8Array.of(type, len), v);
    }
    let payload = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
    let off = 0;
    for (const p of parts) {
      payload.set(p, off);
      off += p.length;
    }
    if (rand() < 0.1 && payload.length > 0) payload = payload.slice(0, Math.floor(rand() * payload.length));
    const s = tools.encodeBytes(prefixes[i % 3], payload);
    assert.equal(nip19.encodeBytes(prefixes[i % 3], payload), s);

    let theirs;
    try {
      theirs = tools.decode(s);
    } catch {
      theirs = null;
    }
    if (theirs === null) {
      throwsCode(() => nip19.decode(s), 'TLV_INVALID', s);
    } else {
      assert.deepStrictEqual(nip19.decode(s), theirs, s);
      accepted++;
    }
  }
  assert.ok(accepted > 300 && accepted < 2700, `accepted ${accepted}`); // both paths exercised
});

test('uppercase strings decode (and equal nostr-tools); mixed case is rejected', () => {
  const rand = prng(3);
  for (let i = 0; i < 50; i++) {
    const s = nip19.neventEncode({ id: randomHex(rand), relays: ['wss://relay.example'], kind: 1 });
    const upper = s.toUpperCase();
    assert.deepStrictEqual(nip19.decode(upper), nip19.decode(s));
    assert.deepStrictEqual(nip19.decode(upper), tools.decode(upper));
    const mixed = 'N' + s.slice(1);
    throwsCode(() => nip19.decode(mixed), 'BECH32_INVALID');
  }
});

test('decodeNostrURI strips nostr: and never throws, like nostr-tools', () => {
  const pk = spec[0].hex;
  for (const s of [nip19.npubEncode(pk), nip19.noteEncode(pk), spec[3].bech32, toolsVectors.decode[1].bech32]) {
    assert.deepStrictEqual(nip19.decodeNostrURI(`nostr:${s}`), nip19.decode(s));
    assert.deepStrictEqual(nip19.decodeNostrURI(s), nip19.decode(s));
    assert.deepStrictEqual(nip19.decodeNostrURI(`nostr:${s}`), tools.decodeNostrURI(`nostr:${s}`));
  }
  assert.deepStrictEqual(nip19.decodeNostrURI(`NOSTR:${nip19.npubEncode(pk)}`).data, pk);
  for (const bad of ['nostr:', 'nostr:npub1', 'nostr:nostr:' + nip19.npubEncode(pk), 'x'.repeat(10_000), 42, null]) {
    assert.deepStrictEqual(nip19.decodeNostrURI(bad), { type: 'invalid', data: null });
  }
});

test('NostrTypeGuard and encodeBytes agree with nostr-tools', () => {
  const rand = prng(11);
  const samples = [
    nip19.npubEncode(randomHex(rand)),
    nip19.nsecEncode(randomBytes(rand, 32)),
    nip19.noteEncode(randomHex(rand)),
    nip19.nprofileEncode({ pubkey: randomHex(rand) }),
    nip19.neventEncode({ id: randomHex(rand) }),
    nip19.naddrEncode({ identifier: '', pubkey: randomHex(rand), kind: 30000 }),
    'ncryptsec1qgg9947rlpvqu76pj5ecreduf9jxhselq2nae2kghhvd5g7dgjtcxfqtd67p9m0w57lspw8gsq6yphnm8623nsl8xn9j4jdzz84zm3frztj3z7s35vpzmqf6ksu8r89qk5z2zxfmu5gv8th8wclt0h4p',
    'npub1',
    '',
    null,
    undefined,
    'NPUB1' + 'Q'.repeat(58),
  ];
  for (const s of samples)
    for (const k of Object.keys(tools.NostrTypeGuard))
      assert.equal(nip19.NostrTypeGuard[k](s), tools.NostrTypeGuard[k](s), `${k}(${s})`);
  assert.equal(nip19.Bech32MaxSize, tools.Bech32MaxSize);
  for (let n = 0; n < 200; n += 7) {
    const b = randomBytes(rand, n);
    assert.equal(nip19.encodeBytes('lnurl', b), tools.encodeBytes('lnurl', b));
  }
});

// ---- malformed input: a typed NostrError every time, never a crash or a hang

test('every bech32 and TLV error has its code', () => {
  const pk = spec[0].hex;
  const npub = nip19.npubEncode(pk);
  const flip = (s, i) => s.slice(0, i) + (s[i] === 'q' ? 'p' : 'q') + s.slice(i + 1);
  const tlv = (type, bytes) => [type, bytes.length, ...bytes];
  const bytes32 = Array(32).fill(1);
  const cases = [
    [flip(npub, 20), 'BECH32_CHECKSUM'],
    [flip(npub, npub.length - 1), 'BECH32_CHECKSUM'],
    [npub.replace('1', ''), 'BECH32_INVALID'], // no separator
    [npub.slice(4), 'BECH32_INVALID'], // empty prefix
    ['npub1abc', 'BECH32_INVALID'], // 'b' is not in the alphabet
    [npub.slice(0, 10) + 'é' + npub.slice(11), 'BECH32_INVALID'],
    [npub.slice(0, 10) + ' ' + npub.slice(11), 'BECH32_INVALID'],
    [npub.slice(0, 10) + '\u0000' + npub.slice(11), 'BECH32_INVALID'],
    [npub.slice(0, 10) + '\uD800' + npub.slice(11), 'BECH32_INVALID'],
    ['npub1' + 'Q' + npub.slice(6), 'BECH32_INVALID'], // mixed case
    ['', 'BECH32_INVALID'],
    ['npub1', 'BECH32_INVALID'],
    // Valid checksum, non-zero and excess padding (made with @scure/base).
    ['npub14w46h2at4w46h2at4w46h2at4w46h2at4w46h2at4w46h2at4w439lwhkz', 'BECH32_INVALID'],
    ['npub14w46h2at4w46h2at4w46h2at4w46h2at4w46h2at4w46h2at4w4sqqut7eav', 'BECH32_INVALID'],
    ['x'.repeat(10_000), 'BECH32_LENGTH'],
    ['npub1' + 'q'.repeat(5000), 'BECH32_LENGTH'],
    [nip19.encodeBytes('nrelay', textEncoder.encode('wss://r')), 'BECH32_PREFIX'],
    [nip19.encodeBytes('lnbc', new Uint8Array(32)), 'BECH32_PREFIX'],
    [nip19.encodeBytes('npub', new Uint8Array(31)), 'BECH32_LENGTH'],
    [nip19.encodeBytes('nsec', new Uint8Array(33)), 'BECH32_LENGTH'],
    [nip19.encodeBytes('note', new Uint8Array(0)), 'BECH32_LENGTH'],
    [nip19.encodeBytes('nprofile', new Uint8Array(0)), 'TLV_INVALID'], // missing pubkey
    [nip19.encodeBytes('nprofile', Uint8Array.of(0)), 'TLV_INVALID'], // truncated header
    [nip19.encodeBytes('nprofile', Uint8Array.of(0, 32, 1, 2)), 'TLV_INVALID'], // truncated value
    [nip19.encodeBytes('nprofile', Uint8Array.from(tlv(0, Array(31).fill(1)))), 'TLV_INVALID'],
    [nip19.encodeBytes('nprofile', Uint8Array.from([...tlv(0, bytes32), ...tlv(1, [0xff])])), 'TLV_INVALID'],
    [nip19.encodeBytes('nevent', Uint8Array.from(tlv(1, [0x61]))), 'TLV_INVALID'], // no id
    [nip19.encodeBytes('nevent', Uint8Array.from([...tlv(0, bytes32), ...tlv(2, [1])])), 'TLV_INVALID'],
    [nip19.encodeBytes('nevent', Uint8Array.from([...tlv(0, bytes32), ...tlv(3, [0, 1])])), 'TLV_INVALID'],
    [nip19.encodeBytes('naddr', Uint8Array.from([...tlv(2, bytes32), ...tlv(3, [0, 0, 0, 1])])), 'TLV_INVALID'],
    [nip19.encodeBytes('naddr', Uint8Array.from([...tlv(0, [0x64]), ...tlv(3, [0, 0, 0, 1])])), 'TLV_INVALID'],
    [nip19.encodeBytes('naddr', Uint8Array.from([...tlv(0, [0x64]), ...tlv(2, bytes32)])), 'TLV_INVALID'],
    [nip19.encodeBytes('naddr', Uint8Array.from([...tlv(0, [0xc3]), ...tlv(2, bytes32), ...tlv(3, [0, 0, 0, 1])])), 'TLV_INVALID'],
  ];
  for (const [s, code] of cases) throwsCode(() => nip19.decode(s), code, `${code}: ${s.slice(0, 80)}`);
  for (const bad of [undefined, null, 42, {}, new Uint8Array(5)]) throwsCode(() => nip19.decode(bad), 'INVALID_ARGUMENT');
});

test('random garbage and long strings give typed errors, quickly', () => {
  const rand = prng(1234);
  const alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l1QPZbio\u00e9\u0000 💜';
  const prefixes = ['npub1', 'nsec1', 'note1', 'nprofile1', 'nevent1', 'naddr1', ''];
  const start = Date.now();
  for (let i = 0; i < 3000; i++) {
    let s = prefixes[Math.floor(rand() * prefixes.length)];
    const n = Math.floor(rand() * (i % 100 === 0 ? 12_000 : 150));
    for (let k = 0; k < n; k++) s += alphabet[Math.floor(rand() * alphabet.length)];
    assert.throws(
      () => nip19.decode(s),
      (err) => err instanceof NostrError && CODES.has(err.code),
      s.slice(0, 60),
    );
  }
  // A 10,000-character all-alphabet string, and one just at the limit with a bad checksum.
  throwsCode(() => nip19.decode('npub1' + 'q'.repeat(9995)), 'BECH32_LENGTH');
  throwsCode(() => nip19.decode('a1' + 'q'.repeat(4998)), 'BECH32_CHECKSUM');
  assert.ok(Date.now() - start < 20_000);
});

test('encoders validate their inputs with typed errors', () => {
  const pk = spec[0].hex;
  throwsCode(() => nip19.npubEncode('zz'.repeat(32)), 'INVALID_HEX');
  throwsCode(() => nip19.npubEncode(pk.slice(2)), 'INVALID_LENGTH');
  throwsCode(() => nip19.npubEncode(pk + '00'), 'INVALID_LENGTH');
  throwsCode(() => nip19.npubEncode(undefined), 'INVALID_HEX');
  throwsCode(() => nip19.noteEncode(42), 'INVALID_HEX');
  throwsCode(() => nip19.noteEncode('g'.repeat(64)), 'INVALID_HEX');
  assert.equal(nip19.npubEncode(pk.toUpperCase()), nip19.npubEncode(pk)); // hex case does not matter
  throwsCode(() => nip19.nsecEncode(new Uint8Array(31)), 'INVALID_LENGTH');
  throwsCode(() => nip19.nsecEncode(new Uint8Array(33)), 'INVALID_LENGTH');
  throwsCode(() => nip19.nsecEncode('a'.repeat(32)), 'INVALID_ARGUMENT');
  throwsCode(() => nip19.nsecEncode(Array(32).fill(1)), 'INVALID_ARGUMENT');

  throwsCode(() => nip19.nprofileEncode(null), 'INVALID_ARGUMENT');
  throwsCode(() => nip19.nprofileEncode({ pubkey: pk.slice(1) }), 'INVALID_LENGTH');
  throwsCode(() => nip19.nprofileEncode({ pubkey: pk, relays: 'wss://r' }), 'INVALID_ARGUMENT');
  throwsCode(() => nip19.nprofileEncode({ pubkey: pk, relays: [1] }), 'INVALID_ARGUMENT');
  throwsCode(() => nip19.nprofileEncode({ pubkey: pk, relays: ['wss://\uD800'] }), 'INVALID_UTF8');
  throwsCode(() => nip19.nprofileEncode({ pubkey: pk, relays: ['wss://' + 'a'.repeat(250)] }), 'TLV_INVALID');
  throwsCode(() => nip19.nprofileEncode({ pubkey: pk, relays: ['é'.repeat(128)] }), 'TLV_INVALID'); // 256 bytes
  assert.ok(nip19.nprofileEncode({ pubkey: pk, relays: ['wss://' + 'a'.repeat(249)] })); // 255 bytes
  throwsCode(() => nip19.nprofileEncode({ pubkey: pk, relays: Array(20).fill('wss://' + 'r'.repeat(200)) }), 'BECH32_LENGTH');

  throwsCode(() => nip19.neventEncode({ id: pk, author: 'xyz' }), 'INVALID_LENGTH');
  throwsCode(() => nip19.neventEncode({ id: pk, author: 7 }), 'INVALID_HEX');
  for (const kind of [-1, 1.5, 2 ** 32, NaN, Infinity, '1'])
    throwsCode(() => nip19.neventEncode({ id: pk, kind }), 'INVALID_ARGUMENT', String(kind));
  // Like nostr-tools: a falsy author is left out; kind 0 is kept.
  assert.deepStrictEqual(nip19.decode(nip19.neventEncode({ id: pk, author: '', kind: 0 })).data, {
    id: pk,
    relays: [],
    author: undefined,
    kind: 0,
  });

  throwsCode(() => nip19.naddrEncode({ pubkey: pk, kind: 1 }), 'INVALID_ARGUMENT'); // identifier missing
  throwsCode(() => nip19.naddrEncode({ identifier: 'd', pubkey: pk }), 'INVALID_ARGUMENT'); // kind missing
  throwsCode(() => nip19.naddrEncode({ identifier: 'd'.repeat(256), pubkey: pk, kind: 1 }), 'TLV_INVALID');
  throwsCode(() => nip19.naddrEncode({ identifier: '\uDC00x', pubkey: pk, kind: 1 }), 'INVALID_UTF8');
  assert.equal(nip19.decode(nip19.naddrEncode({ identifier: '\u0000💜', pubkey: pk, kind: 2 ** 32 - 1 })).data.kind, 2 ** 32 - 1);

  throwsCode(() => nip19.encodeBytes('Npub', new Uint8Array(1)), 'BECH32_PREFIX');
  throwsCode(() => nip19.encodeBytes('', new Uint8Array(1)), 'BECH32_PREFIX');
  throwsCode(() => nip19.encodeBytes('x', new Uint8Array(3200)), 'BECH32_LENGTH');
  throwsCode(() => nip19.encodeBytes('x', 'abc'), 'INVALID_ARGUMENT');
});
