// Inputs shared by every library, made once before any timing. Events are signed with nostr-wasm
// (fast, and independent of our own code); NIP-44 payloads and gift wraps come from nostr-tools.
import { webcrypto } from 'node:crypto';

const cryptoApi = globalThis.crypto ?? webcrypto;

/** Deterministic PRNG (mulberry32) so every run benchmarks the same inputs. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'nostr relay event note agent key sign verify the a of to and in is it you that he was for on are with as I his they be at one have this from ' +
  'zap ⚡ 🤙 gm pura vida café naïve 日本語 "quoted" back\\slash tab\tnew\nline <html> &amp; https://example.com/path?q=1'
).split(' ');

function text(rand, min, max) {
  const target = min + Math.floor(rand() * (max - min));
  let s = '';
  while (s.length < target) s += (s ? ' ' : '') + WORDS[Math.floor(rand() * WORDS.length)];
  return s;
}

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const randomHex32 = (rand) => {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i++) b[i] = Math.floor(rand() * 256);
  return hex(b);
};

export async function makeFixtures(libs, { quick }) {
  const { nt, nw } = libs;
  const rand = prng(0x6e6f7374);

  // Keys: a sender and a recipient, and a few authors for relay events.
  const senderSk = nt.generateSecretKey();
  const recipientSk = nt.generateSecretKey();
  const senderPub = nt.getPublicKey(senderSk);
  const recipientPub = nt.getPublicKey(recipientSk);
  const authors = Array.from({ length: 20 }, () => nw.generateSecretKey());

  // A relay feed: 1,000 signed events of mixed kinds, sizes, tags and characters, from `keys`.
  const baseTs = 1_700_000_000;
  const makeFeed = (rand, keys) => {
    const events = [];
    for (let i = 0; i < 1000; i++) {
      const r = rand();
      const kind = r < 0.75 ? 1 : r < 0.9 ? 7 : r < 0.97 ? 6 : 0;
      const tags = [];
      const nTags = Math.floor(rand() * 5);
      for (let t = 0; t < nTags; t++) {
        const tr = rand();
        if (tr < 0.4) tags.push(['e', randomHex32(rand), 'wss://relay.example.com', 'reply']);
        else if (tr < 0.8) tags.push(['p', randomHex32(rand)]);
        else tags.push(['t', text(rand, 3, 12)]);
      }
      const content = kind === 7 ? '+' : kind === 6 ? '' : text(rand, 10, rand() < 0.1 ? 2000 : 280);
      const evt = { kind, created_at: baseTs + i, tags, content };
      nw.finalizeEvent(evt, keys[i % keys.length]);
      events.push({ id: evt.id, pubkey: evt.pubkey, created_at: evt.created_at, kind, tags, content, sig: evt.sig });
    }
    return events;
  };
  const feedEvents = makeFeed(rand, authors);
  // The same kind of feed from 200 authors (issue 20's backlog: the batch verification rows).
  const authors200 = Array.from({ length: 200 }, () => nw.generateSecretKey());
  const feed200Frames = makeFeed(prng(0x32303061), authors200).map((e) => JSON.stringify(['EVENT', 'sub1', e]));
  const feedFrames = feedEvents.map((e) => JSON.stringify(['EVENT', 'sub1', e]));
  // Pristine events for the verify row: never passed to any verify (nostr-tools caches a result
  // on the object it verified); the row clones them.
  const verifyPool = feedEvents.filter((e) => e.kind === 1 && e.content.length < 400).slice(0, 256);

  // NIP-44.
  const conversationKey = nt.nip44.getConversationKey(senderSk, recipientPub);
  const peerPubs = Array.from({ length: 64 }, () => nt.getPublicKey(nt.generateSecretKey()));
  const ascii = (n) => {
    let s = '';
    while (s.length < n) s += 'The quick brown fox jumps over the lazy dog. 0123456789 ';
    return s.slice(0, n);
  };
  const payloads = (pt) => Array.from({ length: 8 }, () => nt.nip44.encrypt(pt, conversationKey));

  // Gift wraps (kind 14 rumor) made by nostr-tools, unwrapped by each library.
  const rumorContent = 'hello from the bench, a private direct message';
  const nWraps = quick ? 4 : 32;
  const wraps = Array.from({ length: nWraps }, () =>
    nt.nip59.wrapEvent({ kind: 14, content: rumorContent, tags: [['p', recipientPub]], created_at: baseTs }, senderSk, recipientPub),
  );

  return {
    cryptoApi,
    senderSk,
    recipientSk,
    senderPub,
    recipientPub,
    feedEvents,
    feedFrames,
    feed200Frames,
    verifyPool,
    conversationKey,
    peerPubs,
    plain: { '1k': ascii(1024), '16k': ascii(16384) },
    payloads: { '1k': payloads(ascii(1024)), '16k': payloads(ascii(16384)) },
    rumorContent,
    wraps,
    baseTs,
  };
}
