// NIP-01 events on plain objects, interchangeable with nostr-tools' NostrEvent.
import { core, check, checked, putSecret, writeScratch, writeScratchPair, writeScratchRecords, scratchBytes } from './core.js';
import { NostrError } from './errors.js';
import { bytesToHex, isHex32, isHex64 } from './hex.js';

export const verifiedSymbol = Symbol('verified');

// The pubkey slot of a serialization, filled in by the core when signing.
const PUBKEY_PLACEHOLDER = /* @__PURE__ */ '0'.repeat(64);

function isTags(tags) {
  if (!Array.isArray(tags)) return false;
  for (const t of tags) {
    if (!Array.isArray(t)) return false;
    for (const v of t) if (typeof v !== 'string') return false;
  }
  return true;
}

function isKind(k) {
  return Number.isInteger(k) && k >= 0 && k <= 65535;
}

function isTimestamp(t) {
  return Number.isSafeInteger(t) && t >= 0;
}

/** Throws a NostrError INVALID_EVENT naming the first field of a template that is wrong. */
export function checkTemplate(t) {
  if (t === null || typeof t !== 'object') throw new NostrError('INVALID_EVENT', 'event must be an object');
  if (!isKind(t.kind)) throw new NostrError('INVALID_EVENT', 'kind must be an integer from 0 to 65535');
  if (!isTimestamp(t.created_at)) throw new NostrError('INVALID_EVENT', 'created_at must be a non-negative integer');
  if (!isTags(t.tags)) throw new NostrError('INVALID_EVENT', 'tags must be an array of arrays of strings');
  if (typeof t.content !== 'string') throw new NostrError('INVALID_EVENT', 'content must be a string');
}

/** The NIP-01 serialization whose sha256 is the event id. */
export function serializeEvent(evt) {
  checkTemplate(evt);
  if (!isHex32(evt.pubkey)) throw new NostrError('INVALID_EVENT', 'pubkey must be 64 lowercase hex characters');
  return JSON.stringify([0, evt.pubkey, evt.created_at, evt.kind, evt.tags, evt.content]);
}

/** Hex id of an event (signed or not). */
export function getEventHash(evt) {
  const len = writeScratch(serializeEvent(evt));
  core().hashScratch(len);
  return bytesToHex(scratchBytes(0, 32));
}

/** True when the event has every field in the right shape (no hashing, no signature check). */
export function validateEvent(evt) {
  if (evt === null || typeof evt !== 'object') return false;
  return (
    isKind(evt.kind) &&
    isTimestamp(evt.created_at) &&
    isTags(evt.tags) &&
    typeof evt.content === 'string' &&
    isHex32(evt.pubkey)
  );
}

function signWith(t, sign) {
  checkTemplate(t);
  const ser = JSON.stringify([0, PUBKEY_PLACEHOLDER, t.created_at, t.kind, t.tags, t.content]);
  check(sign(writeScratch(ser)));
  const out = scratchBytes(0, 128);
  const evt = {
    kind: t.kind,
    tags: t.tags,
    content: t.content,
    created_at: t.created_at,
    pubkey: bytesToHex(out.subarray(0, 32)),
    id: bytesToHex(out.subarray(32, 64)),
    sig: bytesToHex(out.subarray(64, 128)),
  };
  return evt;
}

/** Signs a template with a secret key: returns a new event with pubkey, id and sig. */
export function finalizeEvent(t, secretKey) {
  checkTemplate(t);
  putSecret(secretKey);
  return signWith(t, (len) => core().finalizeScratch(len));
}

/** Signs with a key held in wasm memory (LocalSigner's handle). */
export function signWithHandle(t, handle) {
  return signWith(t, (len) => core().keySignScratch(handle, len));
}

const HEX_FIELDS = 'id, pubkey and sig must be lowercase hex of 32, 32 and 64 bytes';

// The error of an event whose fields have the wrong type or length, else undefined.
function shapeError(evt) {
  if (evt === null || typeof evt !== 'object')
    return new NostrError('INVALID_EVENT', 'event must be an object');
  const { id, pubkey, sig } = evt;
  // Lengths here; the hex digits themselves are checked by the core (verifyScratch), which reports
  // the same error. Only when another field is wrong too are they checked here, so that the hex
  // error still comes first.
  if (typeof id !== 'string' || id.length !== 64 || typeof pubkey !== 'string' || pubkey.length !== 64 ||
      typeof sig !== 'string' || sig.length !== 128)
    return new NostrError('INVALID_EVENT', HEX_FIELDS);
  if (!isKind(evt.kind) || !isTimestamp(evt.created_at) || !isTags(evt.tags) || typeof evt.content !== 'string') {
    if (!isHex32(id) || !isHex32(pubkey) || !isHex64(sig)) return new NostrError('INVALID_EVENT', HEX_FIELDS);
    return new NostrError('INVALID_EVENT', 'kind, created_at, tags or content has the wrong type');
  }
  return undefined;
}

/** Result of a full verification: undefined when valid, else the NostrError. */
export function verifyEventError(evt) {
  const bad = shapeError(evt);
  if (bad) return bad;
  const { id, pubkey, sig } = evt;
  const ser = JSON.stringify([0, pubkey, evt.created_at, evt.kind, evt.tags, evt.content]);
  const c = core();
  // [0,256): id, pubkey, sig (256 bytes when ASCII; a non-ASCII character fails the core's hex
  // check within them), [256, 256 + len): the serialization.
  const len = writeScratchPair(id + pubkey + sig, 256, ser);
  const code = c.verifyScratch(len);
  if (code === 0) return undefined;
  const { code: name, message } = c.lastError();
  return new NostrError(name, message);
}

// Events per core call of verifyEventErrors: bounds the scratch buffer (a few hundred KB).
const BATCH = 1024;

/**
 * verifyEventError of each event, with the signatures checked together by the core (BIP-340
 * batch verification, falling back to single checks where a batch fails): the same results, in
 * the same order, faster for many events.
 */
export function verifyEventErrors(events) {
  if (!Array.isArray(events)) throw new NostrError('INVALID_ARGUMENT', 'events must be an array');
  const out = new Array(events.length).fill(undefined);
  const c = core();
  for (let start = 0; start < events.length; start += BATCH) {
    const end = Math.min(events.length, start + BATCH);
    const at = [];
    const records = [];
    for (let i = start; i < end; i++) {
      const evt = events[i];
      const bad = shapeError(evt);
      if (bad) {
        out[i] = bad;
        continue;
      }
      const { id, pubkey, sig } = evt;
      // The core finds each record's serialization 256 bytes in: the hex must be ASCII here.
      if (!isHex32(id) || !isHex32(pubkey) || !isHex64(sig)) {
        out[i] = new NostrError('INVALID_EVENT', HEX_FIELDS);
        continue;
      }
      at.push(i);
      records.push(id + pubkey + sig + JSON.stringify([0, pubkey, evt.created_at, evt.kind, evt.tags, evt.content]));
    }
    if (records.length === 0) continue;
    const total = writeScratchRecords(records);
    if (c.verifyEventsScratch(records.length, total) !== 0) throw new NostrError('INTERNAL', 'verifyEvents: bad batch layout');
    const codes = scratchBytes(0, records.length).slice(); // the heap may grow below
    for (let j = 0; j < records.length; j++) {
      if (codes[j] === 0) continue;
      c.verifyEventsError(j);
      const { code, message } = c.lastError();
      out[at[j]] = new NostrError(code, message);
    }
  }
  return out;
}

/**
 * verifyEvent of each event (true when valid), computed together: for a relay's backlog or a
 * query's results. Never throws for bad events; throws INVALID_ARGUMENT when `events` is not an
 * array.
 */
export function verifyEvents(events) {
  return verifyEventErrors(events).map((e) => e === undefined);
}

/**
 * Internal (Nip07Signer, Nip46Signer: signing done elsewhere): a verified event (verifyEventError
 * first) as a copy of its NIP-01 fields only, so nothing else the other side added travels on;
 * null when it does not sign exactly `template` (kind, created_at, content, tags).
 */
export function signedTemplateCopy(signed, template) {
  if (signed.kind !== template.kind || signed.created_at !== template.created_at || signed.content !== template.content ||
      JSON.stringify(signed.tags) !== JSON.stringify(template.tags))
    return null;
  const { kind, tags, content, created_at, pubkey, id, sig } = signed;
  return { kind, tags, content, created_at, pubkey, id, sig };
}

/** True when id, signature and shape are all valid. Never throws. */
export function verifyEvent(evt) {
  try {
    return verifyEventError(evt) === undefined;
  } catch {
    return false;
  }
}

/** Throws a NostrError (INVALID_EVENT, ID_MISMATCH, INVALID_SIGNATURE) unless the event is valid. */
export function assertEvent(evt) {
  const err = verifyEventError(evt);
  if (err) throw err;
  return evt;
}

/** NIP-01 filter matching, done by the core. */
export function matchFilter(filter, evt) {
  const r = core().matchFilterJson(JSON.stringify(filter), JSON.stringify(evt));
  if (r < 0) checked(undefined);
  return r === 1;
}

export function matchFilters(filters, evt) {
  return filters.some((f) => matchFilter(f, evt));
}

// JSON text of an event's NIP-01 fields, for the core to parse and check; INVALID_EVENT when they
// cannot be written (a BigInt, a cycle), so that is a typed error and never a TypeError.
export function eventJson(evt) {
  try {
    const { id, pubkey, created_at, kind, tags, content, sig } = evt;
    return JSON.stringify({ id, pubkey, created_at, kind, tags, content, sig });
  } catch (err) {
    throw new NostrError('INVALID_EVENT', 'the event cannot be written as JSON', { cause: err });
  }
}

/** JSON text of a tags array (INVALID_EVENT when it cannot be written). */
export function tagsJson(tags) {
  try {
    return JSON.stringify(tags);
  } catch (err) {
    throw new NostrError('INVALID_EVENT', 'the tags cannot be written as JSON', { cause: err });
  }
}
