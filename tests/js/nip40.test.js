import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tools from 'nostr-tools/pure';
import { nostr } from './helpers.js';

const { nip40 } = nostr;
// nostr-tools does not export its nip40 module; it sits beside its ESM entry.
const { isEventExpired: toolsIsExpired } = await import(new URL('./nip40.js', import.meta.resolve('nostr-tools')));
const ev = (tags) => ({ kind: 1, created_at: 1, content: '', tags });

test('getExpiration reads the first expiration tag', () => {
  assert.equal(nip40.getExpiration(ev([])), undefined);
  assert.equal(nip40.getExpiration(ev([['expirationx', '5'], ['e', 'x']])), undefined);
  assert.equal(nip40.getExpiration(ev([['e', 'x'], ['expiration', '1600000000'], ['expiration', '5']])), 1600000000);
  assert.equal(nip40.getExpiration(ev([['expiration', '0']])), 0);
  assert.equal(nip40.getExpiration(ev([['expiration', '9007199254740991']])), Number.MAX_SAFE_INTEGER);
});

test('malformed expiration values are INVALID_EXPIRATION', () => {
  const bad = ['', '-1', '+1', ' 1', '1 ', '1.5', '1e9', '0x10', 'abc', '9007199254740992', '1'.repeat(30)];
  for (const v of bad) {
    assert.throws(() => nip40.getExpiration(ev([['expiration', v]])), { name: 'NostrError', code: 'INVALID_EXPIRATION' }, v);
    assert.throws(() => nip40.isEventExpired(ev([['expiration', v]]), 0), { code: 'INVALID_EXPIRATION' }, v);
  }
  assert.throws(() => nip40.getExpiration(ev([['expiration']])), { code: 'INVALID_EXPIRATION' });
  assert.throws(() => nip40.getExpiration(ev([['expiration', 'x'], ['expiration', '5']])), { code: 'INVALID_EXPIRATION' });
  for (const e of [null, 5, {}, { tags: 'x' }]) assert.throws(() => nip40.getExpiration(e), { code: 'INVALID_EVENT' });
});

test('expired from the expiration second on (now >= expiration)', () => {
  const e = ev([['expiration', '1600000000']]);
  assert.equal(nip40.isEventExpired(e, 1599999999), false);
  assert.equal(nip40.isEventExpired(e, 1599999999.9), false);
  assert.equal(nip40.isEventExpired(e, 1600000000), true);
  assert.equal(nip40.isEventExpired(e, 1600000000.5), true);
  assert.equal(nip40.isEventExpired(e, 1e300), true);
  assert.equal(nip40.isEventExpired(e, -1e300), false);
  assert.equal(nip40.isEventExpired(ev([]), 1e12), false);
  assert.throws(() => nip40.isEventExpired(e, NaN), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => nip40.isEventExpired(e, '1600000000'), { code: 'INVALID_ARGUMENT' });
  // Default `now` is the clock; away from the boundary nostr-tools agrees.
  const nowS = Math.floor(Date.now() / 1000);
  for (const exp of [nowS - 3600, nowS + 3600, 0]) {
    const x = ev([['expiration', String(exp)]]);
    assert.equal(nip40.isEventExpired(x), toolsIsExpired(x), String(exp));
  }
});

test('withExpiration returns a new template with one expiration tag', () => {
  const t = { kind: 1, created_at: 10, content: 'x', tags: [['p', 'a'], ['expiration', '1'], ['e', 'b'], ['expiration', '2']] };
  const before = structuredClone(t);
  const out = nip40.withExpiration(t, 1700000000);
  assert.deepEqual(t, before, 'input not mutated');
  assert.deepEqual(out, { ...t, tags: [['p', 'a'], ['expiration', '1700000000'], ['e', 'b']] });
  assert.notEqual(out.tags[0], t.tags[0]);
  const fresh = nip40.withExpiration({ kind: 1, created_at: 10, content: '', tags: [] }, 0);
  assert.deepEqual(fresh.tags, [['expiration', '0']]);
  assert.equal(nip40.getExpiration(nip40.withExpiration(fresh, Number.MAX_SAFE_INTEGER)), Number.MAX_SAFE_INTEGER);
  for (const bad of [-1, 1.5, 2 ** 53, NaN, Infinity, '5', null])
    assert.throws(() => nip40.withExpiration(t, bad), { name: 'NostrError', code: 'INVALID_EXPIRATION' }, String(bad));
  assert.throws(() => nip40.withExpiration(null, 5), { code: 'INVALID_EVENT' });
});

test('a signed event with an expiration round-trips through nostr-tools', () => {
  const sk = tools.generateSecretKey();
  const signed = nostr.finalizeEvent(nip40.withExpiration({ kind: 1, created_at: 100, content: 'bye', tags: [] }, 200), sk);
  assert.ok(tools.verifyEvent({ ...signed }));
  assert.equal(nip40.getExpiration(signed), 200);
  assert.equal(nip40.isEventExpired(signed, 199), false);
  assert.equal(nip40.isEventExpired(signed, 200), true);
});
