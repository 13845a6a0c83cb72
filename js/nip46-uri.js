// NIP-46 pieces shared by the client (nip46.js) and the bunker (nip46-bunker.js): the event kind,
// the two connection URIs, request ids and the checks on what crosses the wire.
import { NostrError } from './errors.js';
import { bytesToHex, isHex32 } from './hex.js';

/** NIP-46 requests and responses (ephemeral: relays forward them live and do not store them). */
export const NOSTR_CONNECT_KIND = 24133;

const RELAY_RE = /^wss?:\/\/[^\s/?#]+/i;
const MAX_RELAYS = 16;

function bad(message) {
  return new NostrError('INVALID_ARGUMENT', message);
}

/** True for a ws:// or wss:// URL (what a bunker may send in switch_relays or a URI may name). */
export function isRelayUrl(url) {
  if (typeof url !== 'string' || url.length > 512 || !RELAY_RE.test(url)) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'ws:' || u.protocol === 'wss:';
  } catch {
    return false;
  }
}

function relayList(list, what) {
  const out = [];
  for (const r of list) {
    if (!isRelayUrl(r)) throw bad(`${what} names a relay that is not a ws:// or wss:// URL`);
    if (!out.includes(r)) out.push(r);
  }
  if (out.length === 0) throw bad(`${what} names no relay`);
  if (out.length > MAX_RELAYS) throw bad(`${what} names more than ${MAX_RELAYS} relays`);
  return out;
}

// The URL parser does not know bunker: or nostrconnect:, so the authority is split off by hand
// and only the query goes through URLSearchParams. Messages never repeat the input: it may hold
// the connection secret.
function splitUri(uri, scheme) {
  if (typeof uri !== 'string' || uri.length > 8192) throw bad(`not a ${scheme}:// URI`);
  const prefix = `${scheme}://`;
  if (!uri.toLowerCase().startsWith(prefix)) throw bad(`not a ${scheme}:// URI`);
  const rest = uri.slice(prefix.length);
  const q = rest.indexOf('?');
  const pubkey = (q < 0 ? rest : rest.slice(0, q)).replace(/\/$/, '').toLowerCase();
  if (!isHex32(pubkey)) throw bad(`the ${scheme}:// URI does not start with a 64-hex public key`);
  return { pubkey, query: new URLSearchParams(q < 0 ? '' : rest.slice(q + 1)) };
}

/** bunker://<remote-signer-pubkey>?relay=…&secret=… → { pubkey, relays, secret }. Throws INVALID_ARGUMENT. */
export function parseBunkerURI(uri) {
  const { pubkey, query } = splitUri(uri, 'bunker');
  return { pubkey, relays: relayList(query.getAll('relay'), 'the bunker:// URI'), secret: query.get('secret') || null };
}

/** { pubkey, relays, secret? } → bunker:// URI. */
export function toBunkerURL({ pubkey, relays, secret }) {
  if (!isHex32(pubkey)) throw bad('pubkey must be 64 lowercase hex');
  const q = new URLSearchParams();
  for (const r of relayList(relays, 'relays')) q.append('relay', r);
  if (secret) q.set('secret', secret);
  return `bunker://${pubkey}?${q.toString()}`;
}

/**
 * nostrconnect://<client-pubkey>?relay=…&secret=…&perms=…&name=…&url=…&image=… →
 * { clientPubkey, relays, secret, perms, name, url, image }. The secret is required (the client
 * recognizes its signer by it). Throws INVALID_ARGUMENT.
 */
export function parseNostrConnectURI(uri) {
  const { pubkey, query } = splitUri(uri, 'nostrconnect');
  const secret = query.get('secret');
  if (!secret) throw bad('the nostrconnect:// URI has no secret');
  const perms = (query.get('perms') || '').split(',').filter((p) => p.length > 0);
  return {
    clientPubkey: pubkey,
    relays: relayList(query.getAll('relay'), 'the nostrconnect:// URI'),
    secret,
    perms,
    name: query.get('name') ?? undefined,
    url: query.get('url') ?? undefined,
    image: query.get('image') ?? undefined,
  };
}

/** { clientPubkey, relays, secret, perms?, name?, url?, image? } → nostrconnect:// URI. */
export function createNostrConnectURI({ clientPubkey, relays, secret, perms, name, url, image }) {
  if (!isHex32(clientPubkey)) throw bad('clientPubkey must be 64 lowercase hex');
  if (typeof secret !== 'string' || secret.length === 0) throw bad('a nostrconnect:// URI needs a secret');
  const q = new URLSearchParams();
  for (const r of relayList(relays, 'relays')) q.append('relay', r);
  q.set('secret', secret);
  if (perms && perms.length > 0) q.set('perms', perms.join(','));
  if (name) q.set('name', name);
  if (url) q.set('url', url);
  if (image) q.set('image', image);
  return `nostrconnect://${clientPubkey}?${q.toString()}`;
}

/** 16 random bytes as hex: request ids and connection secrets. */
export function randomId() {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(16)));
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Parses a decrypted request; null when it is not one. */
export function parseRequest(text) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    return null;
  }
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return null;
  const { id, method, params } = msg;
  if (typeof id !== 'string' || id.length === 0 || id.length > 128) return null;
  if (typeof method !== 'string' || method.length === 0 || method.length > 64) return { id, bad: 'method must be a string' };
  if (!Array.isArray(params) || !params.every((p) => typeof p === 'string')) return { id, bad: 'params must be an array of strings' };
  return { id, method, params };
}

/** Parses a decrypted response; null when it is not one. */
export function parseResponse(text) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    return null;
  }
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg) || typeof msg.id !== 'string') return null;
  return { id: msg.id, result: msg.result, error: msg.error };
}

/** A short, printable form of a remote string for error messages. */
export function clip(s, max = 200) {
  const text = typeof s === 'string' ? s : JSON.stringify(s) ?? String(s);
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
