// NIP-98 HTTP auth with nostr-tools' names: getToken (a signed kind 27235 event, base64, for an
// `Authorization: Nostr` header), validateToken, unpackEventFromToken, validateEvent and its single
// checks, hashPayload. The core builds, encodes, decodes and checks (src/nips/nip98.cpp).
//
// Differences from nostr-tools 2.25, on purpose: every failure is a NostrError with the failing
// check's code; a body given as a string or bytes is hashed as those bytes, the request body the
// NIP hashes (nostr-tools hashes JSON.stringify of it, quotes included; objects are hashed as
// their JSON by both); validateToken takes the body too; a signer's event is verified before it
// goes into a token.
import { core, check, checked } from './core.js';
import { NostrError } from './errors.js';
import { eventJson, tagsJson } from './event.js';

const encoder = /* @__PURE__ */ new TextEncoder();
const nowSeconds = () => Math.floor(Date.now() / 1000);

function str(value, what) {
  if (typeof value !== 'string') throw new NostrError('INVALID_ARGUMENT', `${what} must be a string`);
  return value;
}

// The bytes the hash covers: a string's UTF-8, bytes as they are, anything else its JSON.
function bodyBytes(payload) {
  if (typeof payload === 'string') return encoder.encode(payload);
  if (payload instanceof Uint8Array) return payload;
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  if (ArrayBuffer.isView(payload)) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  let json;
  try {
    json = JSON.stringify(payload);
  } catch (err) {
    throw new NostrError('INVALID_ARGUMENT', 'the payload cannot be written as JSON', { cause: err });
  }
  if (json === undefined) throw new NostrError('INVALID_ARGUMENT', 'the payload cannot be written as JSON');
  return encoder.encode(json);
}

// A body to check: a non-empty string or byte array, or an object with members (nostr-tools' rule).
function hasBody(body) {
  if (body === undefined || body === null) return false;
  if (typeof body === 'string') return body.length > 0;
  if (body instanceof ArrayBuffer) return body.byteLength > 0;
  if (ArrayBuffer.isView(body)) return body.byteLength > 0;
  return typeof body === 'object' && Object.keys(body).length > 0;
}

/** SHA-256 (lowercase hex) of a request body: a string's UTF-8, bytes, or an object's JSON. */
export function hashPayload(payload) {
  return core().nip98HashPayload(bodyBytes(payload));
}

/**
 * A token for a request: the kind 27235 event naming `loginUrl` (an absolute http(s) URL) and
 * `httpMethod`, with a `payload` tag when `payload` (the body) is given, signed by `sign` (a
 * function of the template, or a Signer), base64-encoded, after "Nostr " when
 * includeAuthorizationScheme. Rejects with NostrError INVALID_ARGUMENT, or the signer's error, or
 * INVALID_EVENT, ID_MISMATCH, INVALID_SIGNATURE when what it signed does not verify.
 */
export async function getToken(loginUrl, httpMethod, sign, includeAuthorizationScheme = false, payload) {
  const signFn = typeof sign === 'function' ? sign : typeof sign?.signEvent === 'function' ? (t) => sign.signEvent(t) : null;
  if (!signFn) throw new NostrError('INVALID_ARGUMENT', 'sign must be a function of the template or a Signer');
  const withPayload = payload !== undefined && payload !== null && payload !== '';
  const template = checked(
    core().nip98Template(str(loginUrl, 'loginUrl'), str(httpMethod, 'httpMethod'), withPayload ? hashPayload(payload) : '', nowSeconds()),
  );
  const signed = await signFn(template);
  if (signed === null || typeof signed !== 'object') throw new NostrError('INVALID_EVENT', 'the signer returned no event');
  return checked(core().nip98Token(eventJson(signed), !!includeAuthorizationScheme));
}

/** The event in a token (with or without "Nostr "), not verified. Rejects NIP98_INVALID_TOKEN. */
export async function unpackEventFromToken(token) {
  if (typeof token !== 'string') throw new NostrError('NIP98_INVALID_TOKEN', 'a token is a string');
  return JSON.parse(checked(core().nip98Unpack(token)));
}

/**
 * Checks a request's token: resolves true, or rejects with the first failing check: NIP98_INVALID_TOKEN,
 * then as validateEvent. `body` (optional) is the request body.
 */
export async function validateToken(token, url, method, body) {
  if (typeof token !== 'string') throw new NostrError('NIP98_INVALID_TOKEN', 'a token is a string');
  const hash = hasBody(body) ? hashPayload(body) : '';
  check(core().nip98ValidateToken(token, str(url, 'url'), str(method, 'method'), hash, nowSeconds()));
  return true;
}

/**
 * NIP-98's checks in its order: resolves true, or rejects with NostrError INVALID_EVENT,
 * ID_MISMATCH, INVALID_SIGNATURE (the event itself), NIP98_WRONG_KIND, NIP98_STALE (created_at 60
 * seconds or more from now), NIP98_WRONG_URL (the `u` tag is not exactly `url`),
 * NIP98_WRONG_METHOD (any case), NIP98_WRONG_PAYLOAD (when `body` is given and not empty).
 */
export async function validateEvent(event, url, method, body) {
  if (event === null || typeof event !== 'object') throw new NostrError('INVALID_EVENT', 'event must be an object');
  const hash = hasBody(body) ? hashPayload(body) : '';
  check(core().nip98Validate(eventJson(event), str(url, 'url'), str(method, 'method'), hash, nowSeconds()));
  return true;
}

// One check on an event's kind, created_at and tags (it need not be signed): true or false.
function one(which, event, arg = '') {
  if (event === null || typeof event !== 'object' || !Array.isArray(event.tags)) return false;
  let tags;
  try {
    tags = tagsJson(event.tags);
  } catch {
    return false;
  }
  const num = (x) => (typeof x === 'number' ? x : NaN);
  return core().nip98Check(which, num(event.kind), num(event.created_at), tags, arg, nowSeconds()) === 1;
}

/** True when created_at is less than 60 seconds from now, either way. */
export function validateEventTimestamp(event) {
  return one(1, event);
}

/** True for kind 27235. */
export function validateEventKind(event) {
  return one(0, event);
}

/** True when the first `u` tag is exactly `url`. */
export function validateEventUrlTag(event, url) {
  return typeof url === 'string' && one(2, event, url);
}

/** True when the first `method` tag is `method`, in any case. */
export function validateEventMethodTag(event, method) {
  return typeof method === 'string' && one(3, event, method);
}

/** True when the first `payload` tag is hashPayload(payload). */
export function validateEventPayloadTag(event, payload) {
  return one(4, event, hashPayload(payload));
}
