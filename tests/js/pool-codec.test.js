// The core's relay codec and subscription machine through the bindings (bindings/relay.cpp, bindings/relay_codec.cpp):
// what the pool builds on, checked without sockets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, makeEvent } from './pool-helpers.js';

const sk = nostr.generateSecretKey();
const pk = nostr.getPublicKey(sk);

test('decodeRelayMessage: every relay-to-client frame, typed reasons, typed errors', () => {
  const e = makeEvent(sk, { content: 'é "quoted"\n', tags: [['t', 'x']] });
  const ev = nostr.decodeRelayMessage(JSON.stringify(['EVENT', 's', e]));
  assert.equal(ev.type, 'EVENT');
  assert.equal(ev.subId, 's');
  assert.deepEqual({ ...ev.event }, { ...e });
  const id = e.id;
  assert.deepEqual(nostr.decodeRelayMessage(JSON.stringify(['OK', id, false, 'rate-limited: slow down'])), {
    type: 'OK', eventId: id, accepted: false, reason: 'rate-limited', message: 'rate-limited: slow down', text: 'slow down',
  });
  assert.equal(nostr.decodeRelayMessage(JSON.stringify(['OK', id, true, ''])).reason, 'none');
  assert.equal(nostr.decodeRelayMessage(JSON.stringify(['OK', id, false, 'reject: nope'])).reason, 'unknown');
  assert.deepEqual(nostr.decodeRelayMessage('["EOSE","s"]'), { type: 'EOSE', subId: 's' });
  assert.equal(nostr.decodeRelayMessage('["CLOSED","s","auth-required: who are you"]').reason, 'auth-required');
  assert.deepEqual(nostr.decodeRelayMessage('["NOTICE","hi"]'), { type: 'NOTICE', message: 'hi' });
  assert.deepEqual(nostr.decodeRelayMessage('["AUTH","ch"]'), { type: 'AUTH', challenge: 'ch' });
  assert.deepEqual(nostr.decodeRelayMessage('["COUNT","s",{"count":4,"approximate":true}]'), {
    type: 'COUNT', subId: 's', count: 4, approximate: true,
  });
  for (const [frame, code] of [
    ['nope', 'RELAY_FRAME_INVALID'],
    ['[]', 'RELAY_FRAME_INVALID'],
    ['[1]', 'RELAY_FRAME_TYPE'],
    ['["REQ","s",{}]', 'RELAY_FRAME_UNKNOWN_VERB'],
    ['["EOSE"]', 'RELAY_FRAME_ARITY'],
    ['["EVENT","s",{"id":1}]', 'INVALID_EVENT'],
  ])
    assert.throws(() => nostr.decodeRelayMessage(frame), { code }, frame);
  assert.throws(() => nostr.decodeRelayMessage('["EOSE","s"]', { maxBytes: 5 }), { code: 'RELAY_FRAME_TOO_LARGE' });
});

test('client frames: encoders checked by the core, decodeClientMessage, NIP-42 template, URLs, reasons', () => {
  const req = nostr.encodeReq('sub', [{ kinds: [1], '#p': [pk] }, { since: 5 }]);
  assert.equal(req, `["REQ","sub",{"kinds":[1],"#p":["${pk}"]},{"since":5}]`);
  assert.deepEqual(nostr.decodeClientMessage(req), { type: 'REQ', subId: 'sub', filters: [{ kinds: [1], '#p': [pk] }, { since: 5 }] });
  assert.equal(nostr.encodeCount('c', { kinds: [7] }), '["COUNT","c",{"kinds":[7]}]');
  assert.equal(nostr.encodeClose('sub'), '["CLOSE","sub"]');
  assert.throws(() => nostr.encodeReq('', [{}]), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => nostr.encodeReq('x'.repeat(65), [{}]), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => nostr.encodeReq('s', []), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => nostr.encodeReq('s', [{ kinds: ['1'] }]), { code: 'INVALID_FILTER' });

  const e = makeEvent(sk);
  assert.equal(nostr.decodeClientMessage(nostr.encodeEvent({ ...e, extra: 1 })).event.id, e.id);
  const t = nostr.makeAuthEvent('ws://127.0.0.1:7447', 'challenge-1', 1700000000);
  assert.deepEqual(t, { kind: 22242, created_at: 1700000000, tags: [['relay', 'ws://127.0.0.1:7447'], ['challenge', 'challenge-1']], content: '' });
  const auth = nostr.decodeClientMessage(nostr.encodeAuth(nostr.finalizeEvent(t, sk)));
  assert.equal(auth.type, 'AUTH');

  assert.equal(nostr.normalizeRelayUrl(' WSS://Relay.Example.com:443/ '), 'wss://relay.example.com');
  assert.throws(() => nostr.normalizeRelayUrl('https://relay.example.com'), { code: 'RELAY_URL_INVALID' });
  assert.deepEqual(nostr.parseReason('Error: boom'), { reason: 'error', prefix: 'Error', text: 'boom', transient: true });
  assert.equal(nostr.parseReason('duplicate: have it').transient, false);
  assert.equal(nostr.relayInfoUrl('wss://relay.example.com/path'), 'https://relay.example.com/path');
});

test('SubscriptionMachine: deliver, dedupe across relays, typed drops, since on resubscribe, delete()', () => {
  const m = new nostr.SubscriptionMachine({ overlap: 10 });
  const a = m.relay('ws://a');
  const b = m.relay('ws://b');
  assert.equal(m.relay('ws://a'), a);
  m.open('s', [{ kinds: [1], authors: [pk] }]);
  assert.throws(() => m.open('s', [{}]), { code: 'RELAY_SUBSCRIPTION_EXISTS' });
  assert.equal(m.reqFor('s', a, 100), `["REQ","s",{"authors":["${pk}"],"kinds":[1]}]`);
  m.reqFor('s', b, 100);
  const e = makeEvent(sk, { created_at: 1000 });
  const frame = JSON.stringify(['EVENT', 's', e]);
  assert.equal(m.feed(a, frame), 0, 'delivered');
  assert.equal(m.feed(b, frame) & 15, 3, 'dropped');
  assert.equal(m.last().reason, 'duplicate');
  assert.equal(m.last().code, 'RELAY_EVENT_DUPLICATE');
  assert.equal(m.feed(a, JSON.stringify(['EVENT', 's', makeEvent(sk, { kind: 2 })])) & 15, 3);
  assert.equal(m.last().reason, 'not-matching');
  assert.equal(m.feed(a, JSON.stringify(['EVENT', 's', { ...makeEvent(sk), sig: e.sig }])) & 15, 3);
  assert.equal(m.last().reason, 'bad-signature');
  const eose = m.feed(a, '["EOSE","s"]');
  assert.equal(eose & 15, 1);
  assert.equal(eose & 256, 0, 'relay b is still pending');
  assert.equal(m.state('s', a), 'live');
  assert.equal(m.seenCount('s'), 1);

  m.disconnected(a);
  assert.equal(m.state('s', a), 'idle');
  assert.equal(m.resumeSince('s', a, 5000), 990);
  const [again] = m.resubscribe(a, 5000);
  assert.equal(again, `["REQ","s",{"authors":["${pk}"],"kinds":[1],"since":990}]`);
  assert.equal(m.feed(a, frame) & 15, 3, 'the overlap re-sends it: a duplicate');

  const closed = m.feed(b, '["CLOSED","s","auth-required: please"]');
  assert.equal(closed & 15, 2);
  assert.equal(m.last().reason, 'auth-required');
  const ok = m.feed(a, JSON.stringify(['OK', e.id, true, 'duplicate: have it']));
  assert.equal(ok & 15, 4);
  assert.equal(ok & 256, 256, 'accepted flag');
  assert.deepEqual(m.close('s'), { frame: '["CLOSE","s"]', relays: [a] });
  assert.equal(m.size, 0);
  m.delete();
  m.delete(); // idempotent
});
