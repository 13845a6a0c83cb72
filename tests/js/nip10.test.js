// NIP-10 threads against the text's tag forms and nostr-tools' cases (tests/vectors/nip10.json), and
// nostr-tools 2.25's nip10.parse on generated tag lists (its lists reversed: it lists them last tag
// first; our extensions, address quotes and quote authors, taken out).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nip10 as toolsNip10 } from 'nostr-tools';
import { nostr, prng, throwsCode, vectorsDir } from './helpers.js';

const { nip10 } = nostr;
const v = JSON.parse(readFileSync(new URL('nip10.json', vectorsDir), 'utf8'));

const ids = (t) => ({
  root: t.root?.id ?? null,
  reply: t.reply?.id ?? null,
  mentions: t.mentions.map((m) => m.id),
  quotes: t.quotes.map((q) => q.id),
  profiles: t.profiles.map((p) => p.pubkey),
});

test("the text's tag forms", () => {
  assert.ok(v.spec.length >= 9);
  for (const c of v.spec) {
    const got = nip10.parse({ tags: c.tags });
    const { quotes, ...want } = c.expected;
    const { quotes: quoteIds, ...gotIds } = ids(got);
    assert.deepEqual(gotIds, want, c.name);
    // Quotes as ids, or as whole pointers where the vector spells them out (authors, addresses).
    if (quotes.some((q) => typeof q === 'object')) assert.deepStrictEqual(got.quotes, quotes, c.name);
    else assert.deepEqual(quoteIds, quotes, c.name);
  }
});

test("nostr-tools' cases", () => {
  for (const c of v.nostr_tools.cases) {
    const got = nip10.parse({ tags: c.tags });
    const { profile_relays, reply_relays, ...want } = c.expected;
    assert.deepEqual(ids(got), want, c.name);
    assert.deepEqual(got.profiles.map((p) => p.relays), profile_relays, c.name);
    assert.deepEqual(got.reply?.relays ?? null, reply_relays, c.name);
  }
});

// nostr-tools' answer in our order, without what it does not read.
function toolsInOurOrder(tags) {
  const r = toolsNip10.parse({ tags });
  return { ...r, mentions: r.mentions.reverse(), quotes: r.quotes.reverse(), profiles: r.profiles.reverse() };
}
function withoutExtensions(t) {
  return { ...t, quotes: t.quotes.filter((q) => q.id !== undefined).map(({ author, ...q }) => q) };
}

test('differential: generated tag lists thread as nostr-tools threads them', () => {
  const rand = prng(10);
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const ids6 = ['a', 'b', 'c', 'd', 'e', 'f'].map((c) => c.repeat(64));
  const keys = ['1', '2', '3', '4'].map((c) => c.repeat(64));
  const relays = ['', '', 'wss://r1.example.com', 'wss://r2.example.com', 'ws://x'];
  const markers = [undefined, '', 'root', 'reply', 'mention', 'other'];
  let withRoot = 0;
  for (let i = 0; i < 2000; i++) {
    const tags = [];
    const n = Math.floor(rand() * 8);
    for (let k = 0; k < n; k++) {
      const r = rand();
      if (r < 0.5) {
        const t = ['e', rand() < 0.95 ? pick(ids6) : 'E'.repeat(64)];
        const m = pick(markers);
        const author = rand() < 0.4 ? pick(keys) : rand() < 0.1 ? 'x' : undefined;
        if (m !== undefined || author !== undefined || rand() < 0.5) t.push(pick(relays));
        if (m !== undefined || author !== undefined) t.push(m ?? '');
        if (author !== undefined) t.push(author);
        tags.push(t);
      } else if (r < 0.65) {
        const t = ['q', rand() < 0.7 ? pick(ids6) : `30023:${pick(keys)}:d${k}`, pick(relays)];
        if (rand() < 0.5) t.push(pick(keys));
        tags.push(t);
      } else if (r < 0.9) {
        tags.push(rand() < 0.5 ? ['p', pick(keys)] : ['p', pick(keys), pick(relays)]);
      } else {
        tags.push(pick([['t', 'x'], ['e'], ['p', 'short'], ['alt', 'reply'], ['e', '']]));
      }
    }
    const ours = nip10.parse({ tags });
    if (ours.root) withRoot++;
    assert.deepStrictEqual(withoutExtensions(ours), withoutExtensions(toolsInOurOrder(tags)), JSON.stringify(tags));
  }
  assert.ok(withRoot > 500, `cases with a root: ${withRoot}`);
});

test('quotes carry their author and may name an address (nostr-tools keeps the id only)', () => {
  const k = '1'.repeat(64);
  const t = nip10.parse({ tags: [['q', 'a'.repeat(64), 'wss://q', k], ['q', `30023:${k}:art`, 'wss://q']] });
  assert.deepStrictEqual(t.quotes, [
    { id: 'a'.repeat(64), relays: ['wss://q'], author: k },
    { identifier: 'art', pubkey: k, kind: 30023, relays: ['wss://q'] },
  ]);
  assert.deepStrictEqual(toolsNip10.parse({ tags: [['q', `30023:${k}:art`]] }).quotes, []);
});

test('bad inputs are typed errors', () => {
  for (const bad of [null, 5, {}, { tags: 'x' }, { tags: [[1]] }, { tags: ['e'] }, { tags: [[null]] }, { tags: [[10n]] }])
    throwsCode(() => nip10.parse(bad), 'INVALID_EVENT', JSON.stringify(bad, (_, x) => (typeof x === 'bigint' ? `${x}n` : x)));
  const cyclic = [];
  cyclic.push(cyclic);
  throwsCode(() => nip10.parse({ tags: cyclic }), 'INVALID_EVENT');
});
