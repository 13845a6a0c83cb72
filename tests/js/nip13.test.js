import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as tools from 'nostr-tools/pure';
import { getPow as toolsGetPow } from 'nostr-tools/nip13';
import { nostr, prng, randomText, vectorsDir } from './helpers.js';

const { nip13 } = nostr;
const spec = JSON.parse(readFileSync(new URL('nips-spec-examples.json', vectorsDir), 'utf8')).nip13;

const nonceTag = (e) => e.tags.find((t) => t[0] === 'nonce');

function template(rand, pubkey, i) {
  return {
    pubkey,
    kind: 1 + (i % 3),
    created_at: 1_600_000_000 + Math.floor(rand() * 100_000_000),
    tags: [['p', pubkey], ['t', randomText(rand, 10)]],
    content: `#${i} ${randomText(rand, 60)}`,
  };
}

test('spec difficulty examples and the spec mined event', () => {
  for (const ex of spec.difficulty_examples) {
    const id = ex.id ?? ex.id_prefix_hex.padEnd(64, 'f');
    assert.equal(nip13.getPow(id), ex.difficulty, id);
  }
  const e = spec.mined_event;
  assert.equal(nip13.getPow(e.id), spec.mined_event_difficulty);
  assert.equal(nip13.getCommittedTarget(e), spec.mined_event_target);
  assert.equal(nip13.checkPow(e, 20), true);
  assert.equal(nip13.checkPow(e, 20, { requireCommitment: true }), true);
  // 21 bits, but only 20 committed: NIP-13 lets a client reject it at 21.
  assert.equal(nip13.checkPow(e, 21), false);
  assert.equal(nip13.checkPow({ ...e, tags: [] }, 21), true);
  assert.equal(nip13.checkPow({ ...e, tags: [] }, 21, { requireCommitment: true }), false);
});

test('mining the spec template from the spec nonce gives the spec id', () => {
  const e = spec.mined_event;
  const { id, sig, ...unsigned } = e;
  const mined = nip13.minePow(unsigned, spec.mined_event_target, { start: Number(nonceTag(e)[1]) });
  assert.equal(mined.id, id);
  assert.deepEqual(mined.tags, e.tags);
  assert.equal(mined.created_at, e.created_at);
  assert.ok(tools.verifyEvent({ ...mined, sig }));
});

test('mined events at 8..16 bits have the difficulty, keep created_at and hash like nostr-tools', () => {
  const rand = prng(13);
  const pubkey = tools.getPublicKey(tools.generateSecretKey());
  for (let bits = 8; bits <= 16; bits++) {
    const t = template(rand, pubkey, bits);
    t.tags.push(['nonce', '77', '3']);
    const before = structuredClone(t);
    const e = nip13.minePow(t, bits);
    assert.deepEqual(t, before, 'input not mutated');
    assert.equal(e.created_at, t.created_at);
    assert.equal(e.id, tools.getEventHash(e));
    assert.ok(nip13.getPow(e.id) >= bits, `${bits} bits`);
    assert.equal(toolsGetPow(e.id), nip13.getPow(e.id));
    // Old nonce tag replaced, others kept in order, ours last with the committed target.
    assert.deepEqual(e.tags.slice(0, 2), t.tags.slice(0, 2));
    assert.equal(e.tags.length, 3);
    assert.deepEqual(e.tags[2], ['nonce', e.tags[2][1], String(bits)]);
    assert.match(e.tags[2][1], /^(0|[1-9][0-9]*)$/);
    assert.equal(nip13.getCommittedTarget(e), bits);
    assert.equal(nip13.checkPow(e, bits, { requireCommitment: true }), true);
  }
});

test('odd strings (lone surrogates, U+2028, controls) serialize as nostr-tools does', () => {
  const pubkey = tools.getPublicKey(tools.generateSecretKey());
  const odd = ['\ud800', 'a\udfffb', '\u2028\u2029', '\u0000\u001f\u007f', '💜"\\', ''];
  for (const s of odd) {
    const e = nip13.minePow({ pubkey, kind: 1, created_at: 5, tags: [['t', s], [s]], content: s }, 6);
    assert.equal(e.id, tools.getEventHash(e), JSON.stringify(s));
    assert.ok(nip13.getPow(e.id) >= 6);
  }
});

test('a signed mined event verifies with nostr-tools and keeps its id', () => {
  const sk = tools.generateSecretKey();
  const pubkey = tools.getPublicKey(sk);
  const mined = nip13.minePow({ pubkey, kind: 1059, created_at: 1_500_000_000, tags: [], content: 'wrap' }, 12);
  const { id, pubkey: _p, ...tmpl } = mined;
  for (const signed of [nostr.finalizeEvent(tmpl, sk), tools.finalizeEvent(structuredClone(tmpl), sk)]) {
    assert.equal(signed.id, id);
    assert.equal(signed.created_at, 1_500_000_000);
    assert.ok(tools.verifyEvent({ ...signed }));
    assert.ok(nostr.verifyEvent(signed));
    assert.ok(nip13.getPow(signed.id) >= 12);
  }
});

test('getPow agrees with nostr-tools on random ids', () => {
  const rand = prng(7);
  for (let i = 0; i < 400; i++) {
    const bytes = new Uint8Array(32).map(() => Math.floor(rand() * 256));
    const zeros = Math.floor(rand() * 40);
    for (let b = 0; b < zeros; b++) bytes[b >> 3] &= ~(0x80 >> (b & 7));
    const id = nostr.bytesToHex(bytes);
    assert.equal(nip13.getPow(id), toolsGetPow(id), id);
    assert.ok(nip13.getPow(id) >= zeros);
  }
  assert.equal(nip13.getPow('0'.repeat(64)), 256);
  assert.equal(nip13.getPow('0F' + 'f'.repeat(62)), 4);
  for (const bad of ['', 'zz'.repeat(32), '0'.repeat(63), '0'.repeat(66)])
    assert.throws(() => nip13.getPow(bad), { name: 'NostrError', code: 'INVALID_HEX' });
  assert.throws(() => nip13.getPow(123), { code: 'INVALID_HEX' });
});

test('minePowAsync finds what minePow finds and resumes from start', async () => {
  const pubkey = tools.getPublicKey(tools.generateSecretKey());
  const t = { pubkey, kind: 1, created_at: 1_700_000_000, tags: [], content: 'same search' };
  const sync = nip13.minePow(t, 14);
  const asyncOne = await nip13.minePowAsync(t, 14);
  assert.deepEqual(asyncOne, sync);
  const n = Number(nonceTag(sync)[1]);
  assert.deepEqual(nip13.minePow(t, 14, { start: n }), sync);
  const later = nip13.minePow(t, 14, { start: n + 1 });
  assert.ok(Number(nonceTag(later)[1]) > n);
  assert.ok(nip13.getPow(later.id) >= 14);
  assert.deepEqual(nip13.minePow(t, 0, { start: 5 }).tags, [['nonce', '5', '0']]);
});

test('abort: minePowAsync stays responsive and rejects with the reason', async () => {
  const pubkey = tools.getPublicKey(tools.generateSecretKey());
  const t = { pubkey, kind: 1, created_at: 1, tags: [], content: 'never' };
  const ac = new AbortController();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  const reason = new Error('stop');
  const t0 = performance.now();
  setTimeout(() => ac.abort(reason), 150);
  await assert.rejects(nip13.minePowAsync(t, 200, { signal: ac.signal }), (err) => err === reason);
  clearInterval(timer);
  const ms = performance.now() - t0;
  assert.ok(ms < 1500, `abort took ${ms} ms`);
  assert.ok(ticks >= 3, `event loop starved: ${ticks} ticks`);

  await assert.rejects(nip13.minePowAsync(t, 200, { signal: AbortSignal.timeout(30) }), { name: 'TimeoutError' });
  await assert.rejects(nip13.minePowAsync(t, 200, { signal: AbortSignal.abort() }), { name: 'AbortError' });
  await assert.rejects(nip13.minePowAsync(t, 200, { signal: { aborted: true } }), { code: 'ABORTED' });
  assert.throws(() => nip13.minePow(t, 200, { signal: AbortSignal.abort(reason) }), (err) => err === reason);
});

test('invalid targets, events and starts are typed errors', async () => {
  const pubkey = tools.getPublicKey(tools.generateSecretKey());
  const t = { pubkey, kind: 1, created_at: 1, tags: [], content: '' };
  for (const bad of [-1, 257, 1000, 1.5, NaN, Infinity, '12', null, undefined]) {
    assert.throws(() => nip13.minePow(t, bad), { name: 'NostrError', code: 'POW_INVALID_TARGET' }, String(bad));
    await assert.rejects(nip13.minePowAsync(t, bad), { code: 'POW_INVALID_TARGET' }, String(bad));
    assert.throws(() => nip13.checkPow(spec.mined_event, bad), { code: 'POW_INVALID_TARGET' }, String(bad));
  }
  const badEvents = [
    null,
    { ...t, pubkey: 'AB' },
    { ...t, pubkey: undefined },
    { ...t, kind: 70000 },
    { ...t, created_at: -1 },
    { ...t, tags: [[1]] },
    { ...t, content: 5 },
  ];
  for (const e of badEvents) {
    assert.throws(() => nip13.minePow(e, 8), { code: 'INVALID_EVENT' }, JSON.stringify(e));
    await assert.rejects(nip13.minePowAsync(e, 8), { code: 'INVALID_EVENT' });
  }
  for (const start of [-1, 1.5, Number.MAX_SAFE_INTEGER + 2, '0'])
    assert.throws(() => nip13.minePow(t, 8, { start }), { code: 'INVALID_ARGUMENT' }, String(start));
  // The last safe nonce is tried, then the space is exhausted (256 bits never match).
  assert.throws(() => nip13.minePow(t, 256, { start: Number.MAX_SAFE_INTEGER - 3 }), { code: 'POW_EXHAUSTED' });
  assert.throws(() => nip13.checkPow({ id: 'x', tags: [] }, 1), { code: 'INVALID_HEX' });
  assert.throws(() => nip13.checkPow(null, 1), { code: 'INVALID_EVENT' });
});

test('committed targets: first nonce tag, decimal 0..256 only', () => {
  const ct = (tags) => nip13.getCommittedTarget({ tags });
  assert.equal(ct([['nonce', '1', '20']]), 20);
  assert.equal(ct([['e', 'x'], ['nonce', '1', '0'], ['nonce', '1', '30']]), 0);
  assert.equal(ct([['nonce', '1']]), undefined);
  assert.equal(ct([]), undefined);
  for (const bad of ['', '-1', '257', '2a', ' 20', '1e1']) assert.equal(ct([['nonce', '1', bad]]), undefined, bad);
});
