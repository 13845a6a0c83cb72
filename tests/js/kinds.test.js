// kinds: nostr-tools' constants and kind classes, against NIP-01's ranges (tests/vectors/kinds.json)
// and nostr-tools 2.25 itself on every NIP-01 kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as toolsKinds from 'nostr-tools/kinds';
import { nostr, prng, vectorsDir } from './helpers.js';

const { kinds } = nostr;
const vectors = JSON.parse(readFileSync(new URL('kinds.json', vectorsDir), 'utf8'));

test("NIP-01's ranges (vectors)", () => {
  assert.ok(vectors.cases.length >= 20);
  for (const { kind, class: cls } of vectors.cases) {
    assert.equal(kinds.classifyKind(kind), cls, String(kind));
    assert.equal(kinds.isRegularKind(kind), cls === 'regular', String(kind));
    assert.equal(kinds.isReplaceableKind(kind), cls === 'replaceable', String(kind));
    assert.equal(kinds.isEphemeralKind(kind), cls === 'ephemeral', String(kind));
    assert.equal(kinds.isAddressableKind(kind), cls === 'parameterized', String(kind));
  }
});

test('every kind from 0 to 65535 is classed as nostr-tools classes it', () => {
  for (let k = 0; k <= 65535; k++) {
    const ours = [kinds.classifyKind(k), kinds.isRegularKind(k), kinds.isReplaceableKind(k), kinds.isEphemeralKind(k), kinds.isAddressableKind(k)];
    const theirs = [toolsKinds.classifyKind(k), toolsKinds.isRegularKind(k), toolsKinds.isReplaceableKind(k), toolsKinds.isEphemeralKind(k), toolsKinds.isAddressableKind(k)];
    if (ours.join() !== theirs.join()) assert.deepEqual(ours, theirs, `kind ${k}`);
  }
});

test('what is not a NIP-01 kind is unknown (nostr-tools calls negatives and fractions regular)', () => {
  for (const k of [-1, -5000, 1.5, 65536, 1e12, NaN, Infinity, '1', null, undefined, {}, 1n]) {
    assert.equal(kinds.classifyKind(k), 'unknown', String(k));
    for (const f of [kinds.isRegularKind, kinds.isReplaceableKind, kinds.isEphemeralKind, kinds.isAddressableKind]) assert.equal(f(k), false, String(k));
  }
  assert.equal(toolsKinds.classifyKind(-1), 'regular', 'the difference, as documented');
});

test("the constants are nostr-tools' names and values, no more and no fewer", () => {
  const numbers = (m) => Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === 'number'));
  const theirs = numbers(toolsKinds);
  assert.ok(Object.keys(theirs).length > 150);
  assert.deepEqual(numbers(kinds), theirs);
  assert.equal(kinds.ShortTextNote, 1);
  assert.equal(kinds.GiftWrap, 1059);
  assert.equal(kinds.ClientAuth, 22242);
  assert.equal(kinds.HTTPAuth, 27235);
});

test('isKind checks the event and its kind, as nostr-tools', () => {
  const sk = nostr.generateSecretKey();
  const rand = prng(7);
  for (let i = 0; i < 50; i++) {
    const kind = [0, 1, 3, 7, 1059, 10002, 30023][Math.floor(rand() * 7)];
    const ev = nostr.finalizeEvent({ kind, created_at: 1, tags: [], content: '' }, sk);
    const ask = rand() < 0.5 ? 1 : [1, 7, 30023];
    assert.equal(kinds.isKind(ev, ask), toolsKinds.isKind({ ...ev }, ask), `${kind} ${ask}`);
  }
  for (const bad of [null, 5, {}, { kind: 1 }, { kind: 1, tags: [], content: '', created_at: 1, pubkey: 'x' }])
    assert.equal(kinds.isKind(bad, 1), false);
});
