// NIP-59 gift wrap with nostr-tools' names. With a secret key (Uint8Array) every function is
// synchronous and a whole wrap or unwrap is one wasm call; with a Signer (signer.js) they return
// Promises and every key operation goes through the signer, so a NIP-07 extension can seal and
// unwrap without the page ever holding the key. JS owns the clock: `now` (seconds) defaults to
// Date.now() / 1000 and can be passed in the options.
import { core, check, checked, putSecret, writeScratch } from './core.js';
import { NostrError } from './errors.js';
import { getEventHash } from './event.js';
import { getPublicKey, signerPublicKey } from './keys.js';
import { nowOf } from './now.js';
import { isSigner } from './signer.js';

export const SEAL_KIND = 13;
export const GIFT_WRAP_KIND = 1059;

const HANDLE = Symbol.for('nostr-agents.LocalSigner.handle');
// Random bytes per call, as bindings/nip59.cpp lays them out.
const WRAP_RANDOM = 176;
const SEAL_RANDOM = 72;


function randomBytes(n) {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

function extraTagsJson(extraTags) {
  if (extraTags === undefined || extraTags === null) return '';
  if (!Array.isArray(extraTags) || !extraTags.every((t) => Array.isArray(t) && t.every((v) => typeof v === 'string')))
    throw new NostrError('INVALID_ARGUMENT', 'extra tags must be an array of arrays of strings');
  return JSON.stringify(extraTags);
}

function isSecretKey(key) {
  return key instanceof Uint8Array;
}

/** 'sk', 'signer' or a thrown INVALID_ARGUMENT. */
function keyKind(key) {
  if (isSecretKey(key)) return 'sk';
  if (isSigner(key)) return 'signer';
  throw new NostrError('INVALID_ARGUMENT', 'expected a 32-byte secret key (Uint8Array) or a Signer');
}

function localHandle(key) {
  return typeof key[HANDLE] === 'function' ? key[HANDLE](core()) : 0;
}

function asObject(x, code, what) {
  if (x === null || typeof x !== 'object') throw new NostrError(code, `${what} must be an object`);
  return x;
}

/** nostr-tools' createRumor defaults: created_at now, no tags, empty content. */
function toTemplate(event, now) {
  asObject(event, 'INVALID_EVENT', 'event template');
  const t = {
    kind: event.kind,
    created_at: event.created_at ?? now,
    tags: event.tags ?? [],
    content: event.content ?? '',
  };
  if (!Number.isInteger(t.kind) || t.kind < 0 || t.kind > 65535)
    throw new NostrError('INVALID_EVENT', 'kind must be an integer from 0 to 65535');
  if (!Number.isSafeInteger(t.created_at) || t.created_at < 0)
    throw new NostrError('INVALID_EVENT', 'created_at must be a non-negative integer');
  if (!Array.isArray(t.tags) || !t.tags.every((tag) => Array.isArray(tag) && tag.every((v) => typeof v === 'string')))
    throw new NostrError('INVALID_EVENT', 'tags must be an array of arrays of strings');
  if (typeof t.content !== 'string') throw new NostrError('INVALID_EVENT', 'content must be a string');
  return t;
}

function rumorOf(t, pubkey) {
  const rumor = { id: '', pubkey, created_at: t.created_at, kind: t.kind, tags: t.tags, content: t.content };
  rumor.id = getEventHash(rumor);
  return rumor;
}

// The rumor's fields only, in the core's order (a rumor has no sig: NIP-59 "Rumor").
function rumorJson(rumor) {
  asObject(rumor, 'NIP59_INVALID_RUMOR', 'rumor');
  const { id, pubkey, created_at, kind, tags, content } = rumor;
  return JSON.stringify({ id, pubkey, created_at, kind, tags, content });
}

function eventJson(event, code, what) {
  asObject(event, code, what);
  return JSON.stringify(event);
}

async function signerDecrypt(signer, pubkey, payload, code, what) {
  const text = await signer.nip44Decrypt(pubkey, payload);
  if (typeof text !== 'string') throw new NostrError(code, `the signer returned no ${what} text`);
  return text;
}

/** created_at for a seal or wrap: now minus up to two days, never in the future (NIP-59). */
function randomPast(now) {
  return core().nip59RandomPast(now, randomBytes(8));
}

// --- rumor

/**
 * An unsigned event (rumor) with pubkey and id. Missing created_at, tags and content default to
 * now, [] and ''.
 */
export function createRumor(event, secretKeyOrSigner, options) {
  if (keyKind(secretKeyOrSigner) === 'sk')
    return rumorOf(toTemplate(event, nowOf(options)), getPublicKey(secretKeyOrSigner));
  return (async () => rumorOf(toTemplate(event, nowOf(options)), await signerPublicKey(secretKeyOrSigner)))();
}

// --- seal

async function createSealWithSigner(rumor, signer, recipientPublicKey, now) {
  const pubkey = await signerPublicKey(signer);
  // The rumor must be the author's, with its own id: checked before the signer sees anything.
  const json = checked(core().nip59OpenRumor(rumorJson(rumor), pubkey, '', false));
  const content = await signer.nip44Encrypt(recipientPublicKey, json);
  if (typeof content !== 'string') throw new NostrError('NIP59_INVALID_SEAL', 'the signer returned no ciphertext');
  const template = { kind: SEAL_KIND, created_at: randomPast(now), tags: [], content };
  const signed = await signer.signEvent(template);
  // Whatever the signer is, what it returns is verified, and must be the seal we asked for.
  const seal = JSON.parse(checked(core().nip59OpenSeal(eventJson(signed, 'NIP59_INVALID_SEAL', 'seal'))));
  if (seal.pubkey !== pubkey || seal.content !== content || seal.created_at !== template.created_at || seal.tags.length)
    throw new NostrError('NIP59_INVALID_SEAL', 'the signer returned a seal that differs from the template');
  return seal;
}

/** Kind 13 seal of a rumor: the rumor NIP-44-encrypted to the recipient, signed by its author. */
export function createSeal(rumor, secretKeyOrSigner, recipientPublicKey, options) {
  if (keyKind(secretKeyOrSigner) === 'signer')
    return (async () => createSealWithSigner(rumor, secretKeyOrSigner, recipientPublicKey, nowOf(options)))();
  const text = rumorJson(rumor);
  const now = nowOf(options);
  const random = randomBytes(SEAL_RANDOM);
  putSecret(secretKeyOrSigner);
  return JSON.parse(checked(core().nip59CreateSeal(text, String(recipientPublicKey), now, random)));
}

// --- wrap

/**
 * Kind 1059 gift wrap of a seal to a recipient, signed by a fresh one-time key. Tags are
 * [["p", recipient], ...extraTags]. Always synchronous: the one-time key never leaves wasm.
 */
export function createWrap(seal, recipientPublicKey, extraTags, options) {
  const json = core().nip59CreateWrap(
    eventJson(seal, 'NIP59_INVALID_SEAL', 'seal'),
    String(recipientPublicKey),
    extraTagsJson(extraTags),
    nowOf(options),
    randomBytes(WRAP_RANDOM),
  );
  return JSON.parse(checked(json));
}

function wrapLocal(t, key, recipientPublicKey, extra, now) {
  const c = core();
  const handle = isSecretKey(key) ? 0 : localHandle(key);
  const recipient = String(recipientPublicKey);
  const random = randomBytes(WRAP_RANDOM);
  const len = writeScratch(JSON.stringify(t)); // last, so nothing else touches the scratch before the call
  let json;
  if (handle) {
    json = c.nip59WrapEventWithHandle(handle, len, recipient, now, extra, random);
  } else {
    putSecret(key);
    json = c.nip59WrapEvent(len, recipient, now, extra, random);
  }
  return JSON.parse(checked(json));
}

async function wrapWithSigner(t, signer, recipientPublicKey, extraTags, now) {
  if (localHandle(signer)) return wrapLocal(t, signer, recipientPublicKey, extraTagsJson(extraTags), now);
  const rumor = rumorOf(t, await signerPublicKey(signer));
  const seal = await createSealWithSigner(rumor, signer, recipientPublicKey, now);
  return createWrap(seal, recipientPublicKey, extraTags, { now });
}

/**
 * rumor -> seal -> gift wrap in one go. options: `now` (seconds) and `extraTags` for the wrap
 * (e.g. an expiration tag).
 */
export function wrapEvent(event, secretKeyOrSigner, recipientPublicKey, options) {
  if (keyKind(secretKeyOrSigner) === 'signer')
    return (async () => {
      const now = nowOf(options);
      return wrapWithSigner(toTemplate(event, now), secretKeyOrSigner, recipientPublicKey, options?.extraTags, now);
    })();
  const now = nowOf(options);
  return wrapLocal(toTemplate(event, now), secretKeyOrSigner, recipientPublicKey, extraTagsJson(options?.extraTags), now);
}

/**
 * One wrap for the sender (first, so other devices of the sender can read it) and one per
 * recipient, all of the same rumor.
 */
export function wrapManyEvents(event, secretKeyOrSigner, recipientsPublicKeys, options) {
  const kind = keyKind(secretKeyOrSigner);
  const prepare = () => {
    if (!Array.isArray(recipientsPublicKeys) || recipientsPublicKeys.length === 0)
      throw new NostrError('INVALID_ARGUMENT', 'at least one recipient is required');
    const now = nowOf(options);
    // One created_at for all, so every copy carries the same rumor (same id).
    return [toTemplate(event, now), { ...options, now }];
  };
  if (kind === 'sk') {
    const [t, opts] = prepare();
    const self = getPublicKey(secretKeyOrSigner);
    return [self, ...recipientsPublicKeys].map((pk) => wrapEvent(t, secretKeyOrSigner, pk, opts));
  }
  return (async () => {
    const [t, opts] = prepare();
    const self = await signerPublicKey(secretKeyOrSigner);
    const out = [];
    // One at a time: an extension may prompt for each operation.
    for (const pk of [self, ...recipientsPublicKeys]) out.push(await wrapEvent(t, secretKeyOrSigner, pk, opts));
    return out;
  })();
}

// --- unwrap

async function unwrapWithSigner(wrap, signer, requireTag, verifyWrap) {
  const c = core();
  const handle = localHandle(signer);
  const json = eventJson(wrap, 'INVALID_EVENT', 'gift wrap');
  if (handle) return JSON.parse(checked(c.nip59UnwrapEventWithHandle(handle, writeScratch(json), requireTag, verifyWrap)));
  check(c.nip59CheckWrap(json, verifyWrap));
  const sealJson = await signerDecrypt(signer, wrap.pubkey, wrap.content, 'NIP59_INVALID_SEAL', 'seal');
  const seal = JSON.parse(checked(c.nip59OpenSeal(sealJson)));
  const rumorText = await signerDecrypt(signer, seal.pubkey, seal.content, 'NIP59_INVALID_RUMOR', 'rumor');
  const me = requireTag ? await signerPublicKey(signer) : '';
  return JSON.parse(checked(c.nip59OpenRumor(rumorText, seal.pubkey, me, requireTag)));
}

/**
 * The rumor inside a gift wrap, after every NIP-59 check: the wrap is a valid kind 1059 event,
 * the seal a validly signed kind 13 by the rumor's author, the rumor id its hash. options:
 * `requireRecipientTag` also demands that the rumor p-tags the recipient (NIP59_NOT_FOR_RECIPIENT).
 * `verifyWrap` also checks the wrap's own id and signature. Off by default, as in nostr-tools and
 * rust-nostr: they prove only that the one-time key signed the wrap (authorship rests on the
 * seal's signature), and events from a RelayPool were verified on delivery already.
 */
export function unwrapEvent(wrap, secretKeyOrSigner, options) {
  const requireTag = options?.requireRecipientTag === true;
  const verifyWrap = options?.verifyWrap === true;
  if (keyKind(secretKeyOrSigner) === 'signer')
    return (async () => unwrapWithSigner(wrap, secretKeyOrSigner, requireTag, verifyWrap))();
  const c = core();
  const json = eventJson(wrap, 'INVALID_EVENT', 'gift wrap');
  const len = writeScratch(json);
  putSecret(secretKeyOrSigner);
  return JSON.parse(checked(c.nip59UnwrapEvent(len, requireTag, verifyWrap)));
}

function byCreatedAt(a, b) {
  return a.created_at - b.created_at;
}

// Failures that would hit every wrap alike (a bad key, a disposed, missing or NIP-44-less
// signer) are thrown; only the wraps themselves are skipped. SIGNER_REJECTED is skipped too: an
// extension reports a payload it cannot decrypt (a wrap not for us) the same way as a refusal.
const FATAL = new Set(['INVALID_SECRET_KEY', 'SIGNER_DISPOSED', 'SIGNER_UNAVAILABLE', 'SIGNER_UNSUPPORTED']);
function isKeyOrSignerError(err) {
  return err instanceof NostrError && FATAL.has(err.code);
}

/**
 * The rumors of every wrap that unwraps, oldest first. Wraps that fail are skipped; a bad key or
 * an unusable signer throws.
 */
export function unwrapManyEvents(wrappedEvents, secretKeyOrSigner, options) {
  if (keyKind(secretKeyOrSigner) === 'sk') {
    const out = [];
    for (const w of wrappedEvents) {
      try {
        out.push(unwrapEvent(w, secretKeyOrSigner, options));
      } catch (err) {
        if (isKeyOrSignerError(err)) throw err;
        // not for us, or broken: skipped, as in nostr-tools
      }
    }
    return out.sort(byCreatedAt);
  }
  return (async () => {
    const out = [];
    for (const w of wrappedEvents) {
      try {
        out.push(await unwrapEvent(w, secretKeyOrSigner, options));
      } catch (err) {
        if (isKeyOrSignerError(err)) throw err;
      }
    }
    return out.sort(byCreatedAt);
  })();
}
