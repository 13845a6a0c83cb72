import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as tools from 'nostr-tools/pure';
import { matchFilter as toolsMatchFilter } from 'nostr-tools/filter';
import { nostr, prng, randomText, vectorsDir } from './helpers.js';

function randomTemplate(rand) {
  const tags = [];
  const nt = Math.floor(rand() * 4);
  for (let i = 0; i < nt; i++) tags.push(['t', randomText(rand, 8), randomText(rand, 5)]);
  return {
    kind: Math.floor(rand() * 65536),
    created_at: Math.floor(rand() * 2_000_000_000),
    tags,
    content: randomText(rand, 200),
  };
}

test('events we sign are accepted by nostr-tools, byte for byte', () => {
  const rand = prng(1);
  for (let i = 0; i < 200; i++) {
    const sk = nostr.generateSecretKey();
    const e = nostr.finalizeEvent(randomTemplate(rand), sk);
    assert.equal(e.pubkey, tools.getPublicKey(sk));
    assert.equal(e.id, tools.getEventHash(e));
    assert.equal(nostr.serializeEvent(e), tools.serializeEvent(e));
    assert.ok(tools.verifyEvent({ ...e }), `nostr-tools rejected case ${i}`);
  }
});

test('events nostr-tools signs verify here, and tampering is caught with a typed error', () => {
  const rand = prng(2);
  for (let i = 0; i < 200; i++) {
    const sk = tools.generateSecretKey();
    const e = tools.finalizeEvent(randomTemplate(rand), sk);
    const plain = { ...e };
    assert.ok(nostr.verifyEvent(plain), `case ${i}`);
    assert.equal(nostr.getEventHash(plain), e.id);
    const tampered = { ...plain, content: plain.content + 'x' };
    assert.equal(nostr.verifyEvent(tampered), false);
    assert.throws(() => nostr.assertEvent(tampered), { code: 'ID_MISMATCH' });
  }
});

test('every malformed field is rejected, never a crash', () => {
  const sk = nostr.generateSecretKey();
  const e = nostr.finalizeEvent({ kind: 1, created_at: 1, tags: [], content: 'x' }, sk);
  const flip = (s) => (s[0] === '0' ? '1' : '0') + s.slice(1);
  const cases = [
    [{ ...e, sig: flip(e.sig) }, 'INVALID_SIGNATURE'],
    [{ ...e, id: flip(e.id) }, 'ID_MISMATCH'],
    [{ ...e, pubkey: flip(e.pubkey) }, 'ID_MISMATCH'],
    [{ ...e, id: e.id.toUpperCase() }, 'INVALID_EVENT'],
    [{ ...e, sig: e.sig.slice(2) }, 'INVALID_EVENT'],
    [{ ...e, kind: 65536 }, 'INVALID_EVENT'],
    [{ ...e, kind: 1.5 }, 'INVALID_EVENT'],
    [{ ...e, created_at: -1 }, 'INVALID_EVENT'],
    [{ ...e, created_at: '1' }, 'INVALID_EVENT'],
    [{ ...e, tags: [[1]] }, 'INVALID_EVENT'],
    [{ ...e, tags: 'x' }, 'INVALID_EVENT'],
    [{ ...e, content: null }, 'INVALID_EVENT'],
    [{ ...e, pubkey: 'zz'.repeat(32) }, 'INVALID_EVENT'],
  ];
  for (const [bad, code] of cases) {
    assert.equal(nostr.verifyEvent(bad), false, JSON.stringify(bad));
    assert.throws(() => nostr.assertEvent(bad), { name: 'NostrError', code }, JSON.stringify(bad));
  }
  assert.equal(nostr.verifyEvent(null), false);
  assert.equal(nostr.verifyEvent('x'), false);
  assert.throws(() => nostr.finalizeEvent({ kind: 1, created_at: 1, tags: [], content: 'x' }, new Uint8Array(31)), {
    code: 'INVALID_SECRET_KEY',
  });
  assert.throws(() => nostr.finalizeEvent({ kind: 1, created_at: 1, tags: [], content: 'x' }, new Uint8Array(32)), {
    code: 'INVALID_SECRET_KEY',
  });
  assert.throws(() => nostr.finalizeEvent({ kind: -1, created_at: 1, tags: [], content: 'x' }, sk), {
    code: 'INVALID_EVENT',
  });
});

test('spec example events (NIP-13, NIP-59, NIP-17) verify', () => {
  const v = JSON.parse(readFileSync(new URL('nips-spec-examples.json', vectorsDir), 'utf8'));
  let n = 0;
  const walk = (j) => {
    if (j && typeof j === 'object') {
      if (typeof j.sig === 'string' && typeof j.id === 'string' && typeof j.pubkey === 'string') {
        assert.ok(nostr.verifyEvent(j), JSON.stringify(j).slice(0, 80));
        n++;
      }
      for (const c of Object.values(j)) walk(c);
    }
  };
  walk(v);
  assert.ok(n >= 3, `only ${n} signed examples found`);
});

test('BIP-340 vectors: keys derived as the spec says', () => {
  const rows = readFileSync(new URL('bip340-test-vectors.csv', vectorsDir), 'utf8').trim().split('\n').slice(1);
  let n = 0;
  for (const row of rows) {
    const [, sk, pk] = row.split(',');
    if (!sk) continue;
    assert.equal(nostr.getPublicKey(nostr.hexToBytes(sk)), pk.toLowerCase());
    n++;
  }
  assert.ok(n >= 5);
});

test('matchFilter agrees with nostr-tools', () => {
  const sk = nostr.generateSecretKey();
  const events = [];
  for (let i = 0; i < 30; i++) {
    events.push(
      nostr.finalizeEvent(
        { kind: i % 3, created_at: 1000 + i, tags: [['p', String(i % 4)], ['e', String(i % 5)]], content: '' },
        sk,
      ),
    );
  }
  const filters = [
    {},
    { kinds: [1] },
    { kinds: [] },
    { since: 1010, until: 1020 },
    { '#p': ['1', '2'] },
    { '#p': ['1'], '#e': ['1'] },
    { authors: [events[0].pubkey], kinds: [2] },
    { ids: [events[5].id, events[7].id] },
  ];
  for (const f of filters)
    for (const e of events) assert.equal(nostr.matchFilter(f, e), toolsMatchFilter(f, e), JSON.stringify(f));
  assert.equal(nostr.matchFilters([{ kinds: [9] }, { kinds: [1] }], events[1]), true);
  assert.throws(() => nostr.matchFilter({ kinds: 'x' }, events[0]), { code: 'INVALID_FILTER' });
});

test('init is idempotent', async () => {
  await nostr.init();
  await nostr.init();
  assert.equal(nostr.isReady(), true);
});
