// NIP-27 content references against the spec's example and nostr-tools' cases (tests/vectors/nip27.json),
// and nostr-tools 2.25's nip27.parse on generated contents; the documented differences each shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nip19 as toolsNip19, nip27 as toolsNip27 } from 'nostr-tools';
import { nostr, prng, throwsCode, vectorsDir } from './helpers.js';

const { nip27 } = nostr;
const v = JSON.parse(readFileSync(new URL('nip27.json', vectorsDir), 'utf8'));
const plain = (x) => JSON.parse(JSON.stringify(x)); // undefined keys (nevent's author, kind) dropped, as in the vectors

test("the spec's mention example", () => {
  const { event, blocks, mentioned_pubkey } = v.example;
  assert.deepEqual(plain(nip27.parse(event)), blocks);
  assert.equal(nip27.parse(event.content)[1].pointer.pubkey, mentioned_pubkey);
  assert.equal(nostr.verifyEvent(event), false, 'its id and sig are illustrative');
});

test("nostr-tools' cases, with start and end", () => {
  assert.equal(v.nostr_tools.cases.length, 4);
  for (const c of v.nostr_tools.cases) {
    const blocks = nip27.parse(c.event ?? c.content);
    assert.deepEqual(plain(blocks), c.blocks, c.name);
    const content = c.event ? c.event.content : c.content;
    for (const b of blocks) if (b.type === 'text') assert.equal(content.slice(b.start, b.end), b.text);
  }
});

const hex = (rand) => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');

function token(rand, emojis) {
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const word = () => Array.from({ length: 1 + Math.floor(rand() * 20) }, () => pick('abcxyzAZ09_'.split(''))).join('');
  const r = rand();
  if (r < 0.3) return pick(['hello', 'nostr', 'x', 'café', '💜', 'a_b', 'ok.', '(see', 'this)', 'C#', 'time: 10:30', 'a:b', 'https', 'ws', 'über']);
  if (r < 0.4) return `#${word()}`;
  if (r < 0.55) {
    const host = pick(['example.com', 'sub.example.org', 'images.com', 'xn--bcher-kva.example', 'EXAMPLE.com', 'localhost', '127.0.0.1:8080', 'kjxkxk']);
    const path = pick(['', '/', '/a', '/pic.png', '/v.MP4', '/song.mp3', '/dir/file.jpeg?x=1', '/page?ok=true&b=2', '/a.b.c', '/x%20y', '/#frag']);
    return `${pick(['https', 'http'])}://${host}${path}${pick(['', '', '.', '!', ')'])}`;
  }
  if (r < 0.62) return `wss://${pick(['relay.example.com', 'nos.lol', 'r.x.com/path', 'bad'])}${pick(['', '/', '.'])}`;
  if (r < 0.85) {
    const relays = rand() < 0.5 ? [] : ['wss://r.example.com'];
    const e = pick([
      () => toolsNip19.npubEncode(hex(rand)),
      () => toolsNip19.noteEncode(hex(rand)),
      () => toolsNip19.nprofileEncode({ pubkey: hex(rand), relays }),
      () => toolsNip19.neventEncode({ id: hex(rand), relays, author: rand() < 0.5 ? hex(rand) : undefined, kind: rand() < 0.5 ? 1 : undefined }),
      () => toolsNip19.naddrEncode({ identifier: word(), pubkey: hex(rand), kind: 30023, relays }),
    ])();
    const broken = rand() < 0.15;
    return `nostr:${broken ? e.slice(0, -1) + (e.endsWith('q') ? 'p' : 'q') : e}${pick(['', '', '.', ',', '!'])}`;
  }
  if (r < 0.95 && emojis.length) return `:${pick(emojis)[1]}:`;
  return pick([':', '::', 'a#b', '#1', 'x#']);
}

function content(rand, emojis) {
  const n = 1 + Math.floor(rand() * 12);
  let s = '';
  for (let i = 0; i < n; i++) s += (i ? (rand() < 0.8 ? ' ' : rand() < 0.5 ? '\n' : ', ') : '') + token(rand, emojis);
  return s;
}

// nostr-tools' blocks without the empty text blocks it makes before a hashtag at a block's start.
const theirs = (x) => plain(Array.from(toolsNip27.parse(x)).filter((b) => !(b.type === 'text' && b.text === '')));

test('differential: generated contents parse into the blocks nostr-tools makes', () => {
  const rand = prng(27);
  const seen = new Set();
  for (let i = 0; i < 1500; i++) {
    const emojis = i % 3 ? [] : [['emoji', 'star', 'https://e.example.com/star.png'], ['emoji', 'alpaca_2', 'https://e.example.com/a.png']];
    const text = content(rand, emojis);
    const input = emojis.length ? { kind: 1, tags: emojis, content: text, created_at: 1, pubkey: 'x', id: 'x', sig: 'x' } : text;
    const ours = nip27.parse(input);
    for (const b of ours) seen.add(b.type);
    assert.deepEqual(plain(ours), theirs(input), JSON.stringify(text));
  }
  assert.deepEqual([...seen].sort(), ['audio', 'emoji', 'hashtag', 'image', 'reference', 'relay', 'text', 'url', 'video']);
});

test('where it reads differently from nostr-tools, on purpose', () => {
  const nsec = 'nostr:nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5';
  // An empty hashtag is text (nostr-tools: an empty hashtag after an empty text block).
  assert.deepEqual(nip27.parse('# a'), [{ type: 'text', text: '# a', start: 0, end: 3 }]);
  // A long hashtag is the whole run (nostr-tools: after 41 characters, the rest of the text).
  const long = `#${'a'.repeat(50)} and more`;
  assert.deepEqual(nip27.parse(long)[0], { type: 'hashtag', value: 'a'.repeat(50), start: 0, end: 51 });
  assert.equal(theirs(long)[0].value, `${'a'.repeat(50)} and more`);
  // An nsec is text, and what follows it is read (nostr-tools skips one more character).
  const afterNsec = { content: `${nsec}:star:`, tags: [['emoji', 'star', 'https://e.example.com/s.png']] };
  assert.deepEqual(nip27.parse(afterNsec).map((b) => b.type), ['text', 'emoji']);
  assert.deepEqual(theirs(afterNsec).map((b) => b.type), ['text']);
  // Blocks never overlap (nostr-tools makes a hashtag and a reference of the same "nostr").
  const npub = toolsNip19.npubEncode('b'.repeat(64));
  assert.deepEqual(nip27.parse(`#nostr:${npub}`).map((b) => b.type), ['hashtag', 'text']);
  assert.deepEqual(theirs(`#nostr:${npub}`).map((b) => [b.type, b.start]), [['hashtag', 0], ['reference', 1]]);
  // A ws:// URL starts at its "w" (nostr-tools takes the character before it).
  assert.deepEqual(nip27.parse('aws://relay.example.com x')[1], { type: 'relay', url: 'ws://relay.example.com/', start: 1, end: 23 });
  assert.equal(theirs('aws://relay.example.com x')[0].url, 'aws://relay.example.com');
  // Emoji shortcodes are NIP-30's: an emoji tag with another shortcode names nothing.
  const ev = { content: ':: :a b:', tags: [['emoji', '', 'https://e/x.png'], ['emoji', 'a b', 'https://e/y.png']] };
  assert.deepEqual(nip27.parse(ev).map((b) => b.type), ['text']);
  assert.deepEqual(theirs(ev).map((b) => b.type), ['emoji', 'text', 'emoji']);
});

test('offsets are UTF-16 positions around astral characters', () => {
  const npub = toolsNip19.npubEncode('a'.repeat(64));
  const text = `💜💜 nostr:${npub} é #tag 😀 https://x.example.com/a.png`;
  const blocks = nip27.parse(text);
  assert.deepEqual(blocks.map((b) => b.type), ['text', 'reference', 'text', 'hashtag', 'text', 'image']);
  for (const b of blocks) {
    const slice = text.slice(b.start, b.end);
    if (b.type === 'text') assert.equal(slice, b.text);
    if (b.type === 'reference') assert.equal(slice, `nostr:${npub}`);
    if (b.type === 'hashtag') assert.equal(slice, '#tag');
    if (b.type === 'image') assert.equal(slice, 'https://x.example.com/a.png');
  }
  assert.deepEqual(plain(blocks), theirs(text));
  // A lone surrogate is one unit, as JS counts it.
  const lone = `\ud800 #x`;
  assert.deepEqual(nip27.parse(lone)[1], { type: 'hashtag', value: 'x', start: 2, end: 4 });
});

test('bad inputs are typed errors', () => {
  for (const bad of [undefined, null, 5, {}, { content: 5 }, [], { content: null, tags: [] }])
    throwsCode(() => nip27.parse(bad), 'INVALID_ARGUMENT', String(bad));
  const short = ['emoji', 'x'];
  // Emoji tags that are not all strings are skipped, not an error.
  assert.deepEqual(nip27.parse({ content: ':x:', tags: [['emoji', 'x', 5], short] }).map((b) => b.type), ['text']);
  assert.deepEqual(nip27.parse(''), []);
});
