// NIP-17 (nostr-tools' nip17 names) against nostr-tools' nip17: each side opens the other's
// messages, the kind 14 message carries the same tags, and wrapManyEvents wraps one rumor for all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as ntNip17 from 'nostr-tools/nip17';
import { nostr, rejectsCode, throwsCode } from './helpers.js';

const { nip17, LocalSigner } = nostr;

test('a message wrapped here opens with nostr-tools, and the other way round, with the same tags', () => {
  const alice = nostr.generateSecretKey();
  const bob = nostr.generateSecretKey();
  const bobPk = nostr.getPublicKey(bob);
  const replyTo = { eventId: 'e'.repeat(64), relayUrl: 'wss://r.example' };
  const recipient = { publicKey: bobPk, relayUrl: 'wss://inbox.example' };
  const ours = nip17.wrapEvent(alice, recipient, 'hi bob ✓', 'lunch', replyTo);
  assert.equal(ours.kind, 1059);
  const opened = ntNip17.unwrapEvent(ours, bob);
  const theirs = ntNip17.wrapEvent(alice, recipient, 'hi bob ✓', 'lunch', replyTo);
  const openedHere = nip17.unwrapEvent(theirs, bob);
  for (const m of [opened, openedHere]) {
    assert.equal(m.kind, 14);
    assert.equal(m.content, 'hi bob ✓');
    assert.equal(m.pubkey, nostr.getPublicKey(alice));
  }
  assert.deepEqual(opened.tags, openedHere.tags);
  assert.deepEqual(nip17.createMessage(recipient, 'x', 'lunch', replyTo).tags, [['p', bobPk, 'wss://inbox.example'], ['e', 'e'.repeat(64), 'wss://r.example', 'reply'], ['subject', 'lunch']]);
  // hex secret keys too, as nostr-tools takes them
  assert.equal(nip17.unwrapEvent(ntNip17.wrapEvent(alice, recipient, 'hex'), nostr.bytesToHex(bob)).content, 'hex');
});

test('wrapManyEvents: the sender\'s copy first, one rumor (same id) p-tagging every recipient', () => {
  const alice = nostr.generateSecretKey();
  const keys = [nostr.generateSecretKey(), nostr.generateSecretKey()];
  const wraps = nip17.wrapManyEvents(alice, keys.map((k) => ({ publicKey: nostr.getPublicKey(k) })), 'group hello');
  assert.equal(wraps.length, 3);
  const rumors = [alice, ...keys].map((k, i) => ntNip17.unwrapEvent(wraps[i], k));
  assert.equal(new Set(rumors.map((r) => r.id)).size, 1);
  assert.deepEqual(rumors[0].tags, keys.map((k) => ['p', nostr.getPublicKey(k)]));
  const many = nip17.unwrapManyEvents([wraps[1], wraps[0]], keys[0]);
  assert.deepEqual(many.map((r) => r.content), ['group hello'], 'the wrap for someone else is skipped');
  throwsCode(() => nip17.wrapManyEvents(alice, [], 'nobody'), 'INVALID_ARGUMENT');
  throwsCode(() => nip17.wrapEvent(alice, { pubkey: 'x' }, 'wrong shape'), 'INVALID_ARGUMENT');
});

test('with a Signer the functions return Promises', async () => {
  const alice = new LocalSigner();
  const bob = new LocalSigner();
  try {
    const wrap = await nip17.wrapEvent(alice, { publicKey: bob.publicKey }, 'async');
    assert.equal((await nip17.unwrapEvent(wrap, bob)).content, 'async');
    await rejectsCode(nip17.unwrapEvent({ ...wrap, kind: 1 }, bob), 'NIP59_NOT_GIFT_WRAP');
  } finally {
    alice.dispose();
    bob.dispose();
  }
});
