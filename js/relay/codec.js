// NIP-01 frames through the core's codec (src/relay), for tools and tests. The pool itself
// feeds frames to the subscription machine (machine.js), which parses each frame once.
import { core, checked } from '../core.js';

function maxBytesOf(options) {
  return options && options.maxBytes > 0 ? options.maxBytes : 0;
}

/**
 * Decodes a relay-to-client frame: {type: 'EVENT', subId, event} | {type: 'OK', eventId,
 * accepted, reason, message, text} | {type: 'EOSE', subId} | {type: 'CLOSED', subId, reason,
 * message, text} | {type: 'NOTICE', message} | {type: 'AUTH', challenge} | {type: 'COUNT', subId,
 * count, approximate}. The event is not verified. Throws NostrError (RELAY_FRAME_*, INVALID_EVENT...).
 */
export function decodeRelayMessage(frame, options) {
  return JSON.parse(checked(core().relayDecodeRelay(frame, maxBytesOf(options))));
}

/**
 * Decodes a client-to-relay frame: {type: 'EVENT', event} | {type: 'REQ', subId, filters} |
 * {type: 'CLOSE', subId} | {type: 'AUTH', event} | {type: 'COUNT', subId, filters}.
 */
export function decodeClientMessage(frame, options) {
  return JSON.parse(checked(core().relayDecodeClient(frame, maxBytesOf(options))));
}

function filterList(filters) {
  return JSON.stringify(Array.isArray(filters) ? filters : [filters]);
}

/** ["REQ", subId, ...filters], checked by the core (sub id 1..64 chars, at least one filter). */
export function encodeReq(subId, filters) {
  return checked(core().relayEncodeReq(false, subId, filterList(filters)));
}

/** ["COUNT", subId, ...filters] (NIP-45). */
export function encodeCount(subId, filters) {
  return checked(core().relayEncodeReq(true, subId, filterList(filters)));
}

export function encodeClose(subId) {
  return checked(core().relayEncodeClose(subId));
}

/** The JSON text of an event's seven NIP-01 fields, which the core takes (not a frame). */
export function eventJson(e) {
  return JSON.stringify({ id: e.id, pubkey: e.pubkey, created_at: e.created_at, kind: e.kind, tags: e.tags, content: e.content, sig: e.sig });
}

/** ["EVENT", event] with the seven NIP-01 fields only, by the core's codec (INVALID_EVENT). */
export function encodeEvent(event) {
  return checked(core().relayEncodeEventFrame(false, eventJson(event)));
}

/** ["AUTH", signed kind 22242 event] (NIP-42), by the core's codec. */
export function encodeAuth(event) {
  return checked(core().relayEncodeEventFrame(true, eventJson(event)));
}

/**
 * The machine-readable prefix of an OK or CLOSED message: {reason: 'rate-limited', prefix:
 * 'rate-limited', text: 'slow down', transient: true}. reason is one of 'none', 'duplicate',
 * 'pow', 'blocked', 'rate-limited', 'invalid', 'error', 'auth-required', 'restricted', 'unknown'.
 */
export function parseReason(message) {
  return core().relayParseReason(String(message));
}

/** One canonical spelling of a relay URL (lowercase scheme and host, no default port...). */
export function normalizeRelayUrl(url) {
  return checked(core().relayNormalizeUrl(String(url)));
}

/** The unsigned NIP-42 event answering `challenge` from `relayUrl`. */
export function makeAuthEvent(relayUrl, challenge, createdAt = Math.floor(Date.now() / 1000)) {
  return JSON.parse(core().relayAuthTemplate(relayUrl, challenge, createdAt));
}
