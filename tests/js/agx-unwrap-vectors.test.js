// The AGX unwrap conformance files through the package's three unwrap paths: unwrapAgx with a
// LocalSigner and with a raw secret key (one core call each), and unwrapAgxAsync with an external
// signer whose NIP-44 is nostr-tools' (the signer decrypts both layers, the core checks them).
// agx_unwrap.json is ours (the core's own wraps, broken one rule at a time);
// agx_unwrap_independent.json was built without our core (nostr-tools' nip59 and hand-made layers
// following SPEC.md), so a bug shared by our builder and our parser fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { getPublicKey, nip44 } from 'nostr-tools';
import { nostr } from './helpers.js';

const { agx, LocalSigner, hexToBytes } = nostr;
const load = (name) => JSON.parse(readFileSync(new URL(`../conformance/${name}`, import.meta.url), 'utf8'));

// A signer that is not ours: nostr-tools' NIP-44 with the key in JS.
function nostrToolsSigner(sk) {
  return {
    getPublicKey: async () => getPublicKey(sk),
    signEvent: async () => {
      throw new Error('not needed to open wraps');
    },
    nip44Encrypt: async (pk, text) => nip44.encrypt(text, nip44.getConversationKey(sk, pk)),
    nip44Decrypt: async (pk, payload) => nip44.decrypt(payload, nip44.getConversationKey(sk, pk)),
  };
}

function verdictOf(fn) {
  try {
    return { code: 'ok', opened: fn() };
  } catch (err) {
    return { code: err.code ?? String(err) };
  }
}

async function verdictOfAsync(fn) {
  try {
    return { code: 'ok', opened: await fn() };
  } catch (err) {
    return { code: err.code ?? String(err) };
  }
}

function check(c, v, path) {
  const what = `${c.name} (${path}): ${c.rule}`;
  assert.equal(v.code, c.expect, what);
  if (v.code !== 'ok') return;
  if (c.from) assert.equal(v.opened.from, c.from, what);
  if (c.rumor_kind) assert.equal(v.opened.rumor.kind, c.rumor_kind, what);
  if (c.rumor_id) assert.equal(v.opened.rumor.id, c.rumor_id, what);
  assert.equal(v.opened.wrapId, c.wrap.id, what);
}

for (const file of ['agx_unwrap.json', 'agx_unwrap_independent.json']) {
  describe(`AGX unwrap vectors: ${file}`, () => {
    const doc = load(file);

    it('every case through unwrapAgx (LocalSigner and raw key) and unwrapAgxAsync (a nostr-tools signer)', async () => {
      assert.ok(doc.cases.length > 10);
      const expects = new Set(doc.cases.map((c) => c.expect));
      assert.ok(expects.has('ok') && expects.size > 5, 'valid and broken cases both');
      for (const c of doc.cases) {
        const sk = hexToBytes(c.recipient_secret_key ?? doc.recipient_secret_key);
        const signer = new LocalSigner(sk);
        try {
          check(c, verdictOf(() => agx.unwrapAgx(c.wrap, signer, { now: doc.now })), 'LocalSigner');
          check(c, verdictOf(() => agx.unwrapAgx(c.wrap, sk.slice(), { now: doc.now })), 'secret key');
          check(c, await verdictOfAsync(() => agx.unwrapAgxAsync(c.wrap, nostrToolsSigner(sk), { now: doc.now })), 'external signer');
        } finally {
          signer.dispose();
        }
      }
    });
  });
}

describe('AGX unwrap vectors: the independent file', () => {
  const doc = load('agx_unwrap_independent.json');

  it('covers nostr-tools wraps and hand-built layers: one p, expiration, committed proof of work, backdating', () => {
    const names = doc.cases.map((c) => c.name).join('\n');
    for (const topic of [/nostr-tools nip59\.wrapEvent/, /p tag/, /expir/, /commit/, /backdated/, /seal/, /rumor/])
      assert.match(names, topic);
    // every wrap meant to pass carries exactly p, expiration = created_at + 30 days and a nonce
    // committing to >= 12 bits, dated no later than `now`
    for (const c of doc.cases.filter((x) => x.expect === 'ok')) {
      const tags = c.wrap.tags.map((t) => t[0]);
      assert.deepEqual(tags, ['p', 'expiration', 'nonce'], c.name);
      assert.equal(Number(c.wrap.tags[1][1]), c.wrap.created_at + 30 * 86400, c.name);
      assert.ok(Number(c.wrap.tags[2][2]) >= 12, c.name);
      assert.ok(c.wrap.created_at <= doc.now && c.wrap.created_at >= doc.now - 172800, c.name);
    }
  });
});
