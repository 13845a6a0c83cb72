#!/usr/bin/env node
// Writes agx_unwrap_independent.json: AGX gift-wrap cases built WITHOUT our core, so that a bug our
// builder and our parser share (a field order, a byte count, a check both skip) shows up as a
// verdict our unwrap gets wrong. The layers come from nostr-tools (nip59's createRumor, createSeal
// and wrapEvent; nip44; finalizeEvent, getEventHash, getPow) and from this file following SPEC.md
// by hand (the wrap's tags, its backdated created_at and expiration, proof of work mined here with
// node:crypto's SHA-256). nostr-tools draws its own randomness (nonces, signatures, its created_at),
// so a second run writes other bytes with the same verdicts: the checked-in file is the vector set,
// run by tests/native/conformance_test.cpp and tests/js/agx-unwrap-vectors.test.js.
//
//   node tests/conformance/generate-agx-independent.mjs   (rewrites the file; only when cases change)
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { finalizeEvent, getEventHash, getPublicKey, nip13, nip44, nip59 } from 'nostr-tools';

const sha256 = (s) => createHash('sha256').update(s).digest();
const keyOf = (label) => new Uint8Array(sha256(`nostr-agents independent AGX vectors: ${label}`));
const hex = (b) => Buffer.from(b).toString('hex');

const now = Math.floor(Date.now() / 1000);
const DAY = 86400;
const TTL = 30 * DAY; // SPEC.md Retention: WRAP_TTL_SEC
const sender = keyOf('sender');
const recipient = keyOf('recipient');
const other = keyOf('other');
const S = getPublicKey(sender);
const R = getPublicKey(recipient);
const O = getPublicKey(other);

// --- rumors (AGX-WIRE.md shapes), made by nostr-tools' createRumor
const messagePayload = (text, contentType = 'application/a2a+json', contextId = 'c'.repeat(32)) =>
  JSON.stringify({ v: 1, kind: 'message', contentType, role: 'user', messageId: 'm'.repeat(32), contextId, parts: [{ text }], subject: null });
const message = (to = R, by = sender) =>
  nip59.createRumor({ kind: 3838, tags: [['p', to], ['content-type', 'application/a2a+json']], content: messagePayload('hello from nostr-tools') }, by);
const taskRequest = () =>
  nip59.createRumor(
    {
      kind: 3838,
      tags: [['p', R], ['content-type', 'application/agx-task+json']],
      content: messagePayload(JSON.stringify({ t: 'req', taskId: 't'.repeat(32), capability: 'invoice.review', payload: { amount: 4200 } }), 'application/agx-task+json', 't'.repeat(32)),
    },
    sender,
  );
const receipt = (ref) =>
  nip59.createRumor(
    { kind: 3839, tags: [['p', R], ['e', ref]], content: JSON.stringify({ v: 1, kind: 'receipt', refEventId: ref, contextId: 'c'.repeat(32), status: 'delivered' }) },
    sender,
  );

// --- the wrap, by hand: a one-time key, the seal NIP-44-encrypted to the recipient, tags
// [p, expiration, nonce] mined to `bits` leading zero bits (SPEC.md Anti-spam) without touching
// created_at, then signed by nostr-tools.
function leadingZeroBits(idHex) {
  let n = 0;
  for (const c of idHex) {
    const v = parseInt(c, 16);
    if (v === 0) {
      n += 4;
      continue;
    }
    return n + Math.clz32(v) - 28;
  }
  return n;
}

function mine(template, pubkey, accept) {
  const nonce = template.tags.find((t) => t[0] === 'nonce');
  for (let i = 0; ; i++) {
    if (nonce) nonce[1] = String(i);
    else if (i > 0) throw new Error('nothing to mine with');
    const id = hex(sha256(JSON.stringify([0, pubkey, template.created_at, template.kind, template.tags, template.content])));
    if (accept(id)) return id;
  }
}

/**
 * seal: a signed kind 13 event (or any object to encrypt as the seal); opts: createdAt (default
 * now - 3600), expiration (default createdAt + TTL; null: none), bits (12), committed ("12"; null:
 * a nonce tag without commitment), exact (the id has exactly `bits` zero bits), noNonce, pTags.
 */
function handWrap(seal, opts = {}) {
  const oneTime = keyOf(`one-time ${Math.random()}`);
  const pk = getPublicKey(oneTime);
  const createdAt = opts.createdAt ?? now - 3600;
  const tags = [...(opts.pTags ?? [['p', R]])];
  const expiration = opts.expiration === undefined ? createdAt + TTL : opts.expiration;
  if (expiration !== null) tags.push(['expiration', String(expiration)]);
  const bits = opts.bits ?? 12;
  if (!opts.noNonce) tags.push(opts.committed === null ? ['nonce', '0'] : ['nonce', '0', opts.committed ?? String(bits)]);
  const ck = nip44.getConversationKey(oneTime, opts.to ?? R);
  const template = { kind: 1059, created_at: createdAt, tags, content: nip44.encrypt(JSON.stringify(seal), ck) };
  const accept = opts.exact ? (id) => leadingZeroBits(id) === bits : (id) => leadingZeroBits(id) >= bits;
  if (opts.noNonce) {
    // no nonce tag to vary: the content's NIP-44 nonce varies instead, until the id has the bits
    for (;;) {
      template.content = nip44.encrypt(JSON.stringify(seal), ck);
      const id = getEventHash({ ...template, pubkey: pk });
      if (accept(id)) break;
    }
  } else mine(template, pk, accept);
  const wrap = finalizeEvent(template, oneTime);
  if (!opts.exact && nip13.getPow(wrap.id) < bits) throw new Error('mining went wrong');
  return wrap;
}

const seal = (rumor, by = sender, to = R) => nip59.createSeal(rumor, by, to);
const cases = [];
const add = (name, wrap, expect, rule, extra = {}) => cases.push({ name, wrap, expect, ...extra, rule });
const okFrom = (rumor) => ({ from: rumor.pubkey, rumor_kind: rumor.kind, rumor_id: rumor.id });

// nostr-tools' own wrap: valid NIP-59, but not AGX (only a p tag).
{
  const r = message();
  add('nostr-tools nip59.wrapEvent: no expiration, no proof of work', nip59.wrapEvent({ kind: r.kind, tags: r.tags, content: r.content }, sender, R), 'AGX_WRAP_NO_EXPIRATION',
    'SPEC.md Transport envelope / Retention: a wrap MUST carry an expiration tag (a generic NIP-59 wrap is not an AGX wrap)');
}
{
  const r = message();
  add('message: nostr-tools rumor and seal, wrap by hand', handWrap(seal(r)), 'ok', 'SPEC.md Transport envelope: every check holds; the sender is the seal\'s signer', okFrom(r));
}
{
  const r = taskRequest();
  add('task request in the reference shape', handWrap(seal(r)), 'ok', 'SPEC.md Task lifecycle: a request rides in a 3838 message labelled application/agx-task+json', okFrom(r));
}
{
  const r = receipt('d'.repeat(64));
  add('receipt', handWrap(seal(r)), 'ok', 'SPEC.md Event kinds: 3839 receipt rumor, e = the acknowledged rumor id', okFrom(r));
}
{
  const r = message();
  add('p tag with a relay hint', handWrap(seal(r), { pTags: [['p', R, 'wss://relay.example.com']] }), 'ok',
    'SPEC.md Transport envelope: exactly one p tag, the recipient (a relay hint is still one p tag)', okFrom(r));
  add('two p tags, both naming the recipient', handWrap(seal(message()), { pTags: [['p', R], ['p', R]] }), 'AGX_WRAP_P_TAG',
    'SPEC.md Transport envelope: a wrap MUST carry exactly one p tag');
  add('no p tag', handWrap(seal(message()), { pTags: [] }), 'AGX_WRAP_P_TAG', 'SPEC.md Transport envelope: a wrap MUST carry exactly one p tag');
  add('p tag naming someone else', handWrap(seal(message()), { pTags: [['p', O]] }), 'AGX_WRAP_NOT_FOR_US', 'SPEC.md Transport envelope: p = recipient');
}
// Backdating and expiration.
{
  const r = message();
  add('wrap backdated the full two days, expiration = created_at + 30 days', handWrap(seal(r), { createdAt: now - 2 * DAY }), 'ok',
    'SPEC.md Transport envelope / Retention: created_at up to MAX_WRAP_BACKDATE_SEC in the past; expiration = the backdated created_at + WRAP_TTL_SEC', okFrom(r));
  const r2 = message();
  add('wrap dated now', handWrap(seal(r2), { createdAt: now }), 'ok', 'SPEC.md Transport envelope: backdating is a SHOULD; a wrap dated now is valid', okFrom(r2));
  add('wrap dated 10 minutes ahead', handWrap(seal(message()), { createdAt: now + 600 }), 'AGX_WRAP_FUTURE',
    'SPEC.md Cursor advance: an event dated beyond the future skew (reference: 300 s) is skipped, not marked seen');
  add('expiration 32 days ahead', handWrap(seal(message()), { createdAt: now, expiration: now + 32 * DAY }), 'AGX_WRAP_EXPIRATION_TOO_FAR',
    'SPEC.md Retention: never more than MAX_EXPIRATION_SEC = 31 days past the real time');
  add('expired a day ago', handWrap(seal(message()), { createdAt: now - 31 * DAY }), 'AGX_WRAP_EXPIRED', 'SPEC.md Retention: a recipient MUST ignore an expired wrap');
  add('expiring this very second', handWrap(seal(message()), { createdAt: now - TTL }), 'AGX_WRAP_EXPIRED',
    'SPEC.md Retention / NIP-40: at its expiration time a wrap has expired');
  add('no expiration tag, otherwise a valid AGX wrap', handWrap(seal(message()), { expiration: null }), 'AGX_WRAP_NO_EXPIRATION', 'SPEC.md Retention: every wrap MUST carry an expiration tag');
}
// Proof of work.
{
  const r = message();
  add('16 bits mined and committed', handWrap(seal(r), { bits: 16 }), 'ok', 'SPEC.md Anti-spam: at least 12 leading zero bits, the nonce committing to the target', okFrom(r));
  add('exactly 11 zero bits, nonce committing to 12', handWrap(seal(message()), { bits: 11, exact: true, committed: '12' }), 'AGX_WRAP_POW',
    'SPEC.md Anti-spam: every wrap MUST be mined to at least 12 leading zero bits of its id');
  add('12 zero bits, nonce committing to 8', handWrap(seal(message()), { committed: '8' }), 'AGX_WRAP_POW',
    'SPEC.md Anti-spam: a nonce tag whose third element commits to that target (12)');
  add('12 zero bits, nonce tag without a commitment', handWrap(seal(message()), { committed: null }), 'AGX_WRAP_POW',
    'SPEC.md Anti-spam: a nonce tag whose third element commits to that target');
  add('12 zero bits by luck, no nonce tag', handWrap(seal(message()), { noNonce: true }), 'AGX_WRAP_POW', 'SPEC.md Transport envelope: a wrap MUST carry a nonce tag');
}
// The seal and the rumor, made by nostr-tools and broken one rule at a time.
{
  const r = message();
  add('seal by someone else than the rumor\'s author', handWrap(seal(r, other)), 'NIP59_AUTHOR_MISMATCH',
    'SPEC.md Transport envelope: the rumor\'s pubkey MUST equal the seal\'s signer');
  const kind14 = finalizeEvent({ kind: 14, created_at: now - 100, tags: [], content: nip44.encrypt(JSON.stringify(message()), nip44.getConversationKey(sender, R)) }, sender);
  add('seal of kind 14', handWrap(kind14), 'NIP59_INVALID_SEAL', 'SPEC.md Transport envelope: the seal is a validly signed kind 13');
  const forged = { ...seal(message()) };
  forged.created_at -= 1; // signed for another created_at
  add('seal signature over other fields', handWrap(forged), 'NIP59_SEAL_SIGNATURE', 'SPEC.md Transport envelope: the seal is a validly signed kind 13');
  const changed = { ...message() };
  changed.content = messagePayload('changed after hashing');
  add('rumor id not the hash of its contents', handWrap(seal(changed)), 'NIP59_RUMOR_ID_MISMATCH', 'SPEC.md Transport envelope: the rumor\'s id is the hash of its contents');
  add('rumor p-tagging someone else', handWrap(seal(message(O))), 'NIP59_NOT_FOR_RECIPIENT', 'SPEC.md Transport envelope: the rumor p-tags the recipient');
  const dm = nip59.createRumor({ kind: 14, tags: [['p', R]], content: 'a NIP-17 DM' }, sender);
  add('a NIP-17 direct message (kind 14 rumor)', handWrap(seal(dm)), 'AGX_RUMOR_KIND', 'SPEC.md Event kinds: messages and receipts are rumors of kind 3838 / 3839');
}

const doc = {
  about:
    'AGX gift-wrap unwrap verdicts, built without our core: nostr-tools (nip59 createRumor/createSeal/wrapEvent, nip44, finalizeEvent) and hand-made layers following SPEC.md (tags, backdating, expiration, proof of work mined with SHA-256). Same format as agx_unwrap.json: open `wrap` with recipient_secret_key at time now; "ok" (then from, rumor_kind, rumor_id) or the error code. Written once by generate-agx-independent.mjs (nostr-tools draws its own randomness); see README.md.',
  spec: 'NIP-AGX draft 0.2.0 (ellavox-ai/nip-agx packages/core/SPEC.md)',
  now,
  recipient_secret_key: hex(recipient),
  recipient_pubkey: R,
  cases,
};
const out = new URL('./agx_unwrap_independent.json', import.meta.url);
writeFileSync(out, JSON.stringify(doc, null, 1) + '\n');
process.stdout.write(`${cases.length} cases -> ${out.pathname}\n`);
void S;
