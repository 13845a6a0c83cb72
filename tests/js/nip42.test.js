// NIP-42: makeAuthEvent against nostr-tools 2.25 and the spec's event (tests/vectors/nip42.json),
// answered to a third-party relay (@nostr-relay/core with NIP-42 on) and to our dev relay over real
// WebSockets; validateAuthEvent on events nostr-tools signs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nip42 as toolsNip42, finalizeEvent as toolsFinalize, generateSecretKey as toolsSk, getPublicKey as toolsPk } from 'nostr-tools';
import { nostr, prng, throwsCode, vectorsDir } from './helpers.js';
import { rawClient, startDevRelay, startThirdPartyRelay } from '../support/relays.js';

const { nip42 } = nostr;
const v = JSON.parse(readFileSync(new URL('nip42.json', vectorsDir), 'utf8'));
const isOk = (id) => (f) => f[0] === 'OK' && f[1] === id;

test("the spec's canonical AUTH event", () => {
  const t = nip42.makeAuthEvent(v.relay, v.challenge);
  assert.equal(t.kind, v.event_partial.kind);
  assert.deepEqual(t.tags, v.event_partial.tags);
  assert.equal(t.content, '');
  assert.ok(Math.abs(t.created_at - Date.now() / 1000) < 5);
});

test('differential: the same template as nostr-tools for generated relays and challenges', () => {
  const rand = prng(42);
  for (let i = 0; i < 200; i++) {
    const url = `${rand() < 0.5 ? 'wss' : 'ws'}://relay${i}.example.com${rand() < 0.5 ? '/' : `:${1000 + i}/path?x=${i}`}`;
    const challenge = Array.from({ length: Math.floor(rand() * 40) }, () => String.fromCharCode(33 + Math.floor(rand() * 90))).join('');
    const ours = nip42.makeAuthEvent(url, challenge);
    const theirs = toolsNip42.makeAuthEvent(url, challenge);
    assert.ok(Math.abs(ours.created_at - theirs.created_at) <= 1);
    assert.deepStrictEqual({ ...ours, created_at: 0 }, { ...theirs, created_at: 0 }, url);
  }
});

test('validateAuthEvent checks relay, challenge, time, id and signature, in that order', () => {
  const sk = toolsSk();
  const now = 1700000000;
  const sign = (t) => toolsFinalize({ kind: 22242, created_at: now, content: '', ...t }, sk);
  const good = sign({ tags: [['relay', 'wss://relay.example.com/'], ['challenge', 'c1']] });
  assert.equal(nip42.validateAuthEvent(good, 'wss://RELAY.example.com:443', 'c1', { now }), toolsPk(sk));
  const at = { now };
  throwsCode(() => nip42.validateAuthEvent({ ...good, kind: 1 }, 'wss://relay.example.com', 'c1', at), 'RELAY_AUTH_WRONG_KIND');
  throwsCode(() => nip42.validateAuthEvent(good, 'wss://other.example.com', 'c1', at), 'RELAY_AUTH_WRONG_RELAY');
  throwsCode(() => nip42.validateAuthEvent(good, 'wss://relay.example.com', 'c2', at), 'RELAY_AUTH_WRONG_CHALLENGE');
  throwsCode(() => nip42.validateAuthEvent(good, 'wss://relay.example.com', 'c1', { now: now + 601 }), 'RELAY_AUTH_STALE');
  assert.equal(nip42.validateAuthEvent(good, 'wss://relay.example.com', 'c1', { now: now + 600 }), toolsPk(sk));
  assert.equal(nip42.validateAuthEvent(good, 'wss://relay.example.com', 'c1', { now: now + 30, window: 30 }), toolsPk(sk));
  throwsCode(() => nip42.validateAuthEvent({ ...good, content: 'x' }, 'wss://relay.example.com', 'c1', at), 'ID_MISMATCH');
  throwsCode(() => nip42.validateAuthEvent({ ...good, sig: '0'.repeat(128) }, 'wss://relay.example.com', 'c1', at), 'INVALID_SIGNATURE');
  throwsCode(() => nip42.validateAuthEvent({ ...good, id: 'x' }, 'wss://relay.example.com', 'c1', at), 'INVALID_EVENT');
});

test('answers the AUTH of a third-party relay (@nostr-relay/core) and of our dev relay', async () => {
  const sk = nostr.generateSecretKey();
  const third = await startThirdPartyRelay({ auth: true });
  const dev = await startDevRelay({ auth: true });
  try {
    for (const relay of [third, dev]) {
      const c = rawClient(relay.url);
      try {
        const [, challenge] = await c.next((f) => f[0] === 'AUTH');
        const signed = nostr.finalizeEvent(nip42.makeAuthEvent(relay.url, challenge), sk);
        await c.send(['AUTH', signed]);
        assert.equal((await c.next(isOk(signed.id)))[2], true, relay.url);
        assert.equal(nip42.validateAuthEvent(signed, relay.url, challenge), nostr.getPublicKey(sk));
        const stale = nostr.finalizeEvent({ ...nip42.makeAuthEvent(relay.url, challenge), created_at: 1000 }, sk);
        await c.send(['AUTH', stale]);
        assert.equal((await c.next(isOk(stale.id)))[2], false, `${relay.url} refuses a stale AUTH`);
        throwsCode(() => nip42.validateAuthEvent(stale, relay.url, challenge), 'RELAY_AUTH_STALE');
      } finally {
        await c.close();
      }
    }
  } finally {
    await third.close();
    await dev.close();
  }
});

test('bad inputs are typed errors', () => {
  for (const url of ['http://relay.example.com', 'relay.example.com', '', 'wss://', 'wss://a b'])
    throwsCode(() => nip42.makeAuthEvent(url, 'c'), 'RELAY_URL_INVALID', url);
  throwsCode(() => nip42.makeAuthEvent(5, 'c'), 'INVALID_ARGUMENT');
  throwsCode(() => nip42.makeAuthEvent('wss://r.example.com', null), 'INVALID_ARGUMENT');
  throwsCode(() => nip42.validateAuthEvent(null, 'wss://r', 'c'), 'INVALID_EVENT');
  throwsCode(() => nip42.validateAuthEvent({ kind: 22242, created_at: 10n }, 'wss://r', 'c'), 'INVALID_EVENT');
  throwsCode(() => nip42.validateAuthEvent({}, 'wss://r', 'c', { now: 'x' }), 'INVALID_ARGUMENT');
});
