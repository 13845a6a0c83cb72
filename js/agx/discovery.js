// Discovery: Agent Cards (kind 11337: publish, fetch, validate with the reference's caps, retract
// with NIP-09), NIP-05 verification of a card's handle, and NIP-65 relay lists (kind 10002). The
// core builds and checks every event; this file signs through the Signer and does the I/O.
import { core, checked } from '../core.js';
import { NostrError } from '../errors.js';
import { fetchNostrJson, isPrivateAddress, lookupHost } from '../nip05-fetch.js';
import { normalizeRelayUrl } from '../relay/codec.js';
import { isSigner } from '../signer.js';
import { peerHex } from './util.js';

export const CARD_KIND = 11337;
export const RELAY_LIST_KIND = 10002;

function nowS() {
  return Math.floor(Date.now() / 1000);
}

function needSigner(signer) {
  if (!isSigner(signer)) throw new NostrError('INVALID_ARGUMENT', 'signer must be a Signer');
}

function needPool(pool) {
  if (!pool || typeof pool.publish !== 'function' || typeof pool.query !== 'function')
    throw new NostrError('INVALID_ARGUMENT', 'pool must be a RelayPool');
}

export async function signChecked(signer, template) {
  const signed = await signer.signEvent(template);
  if (!signed || signed.kind !== template.kind || signed.content !== template.content || signed.created_at !== template.created_at)
    throw new NostrError('INVALID_EVENT', 'the signer signed something else than the template');
  return signed;
}

export async function publishAccepted(pool, event, relays, timeout) {
  const results = await pool.publish(event, { relays, timeout });
  if (!results.some((r) => r.status === 'accepted'))
    throw Object.assign(new NostrError('AGX_PUBLISH_FAILED', `no relay accepted the kind ${event.kind} event`), { results });
  return results;
}

// --- Agent Card

/**
 * Publishes our Agent Card (public; retraction is best-effort). card: org, nip05 (claimed handle,
 * optional), capabilities, relays (where peers reach us), relaysToPublish (default: the pool's),
 * now. Caps (the reference's): org <= 200 characters, nip05 <= 253, <= 64 capabilities of <= 200
 * characters, <= 10 relays; AGX_CARD_INVALID otherwise. Resolves { event, results }.
 */
export async function publishAgentCard(signer, pool, card = {}) {
  needSigner(signer);
  needPool(pool);
  const pubkey = await signer.getPublicKey();
  const fields = {
    org: card.org ?? '',
    pubkey,
    nip05: card.nip05 ?? null,
    capabilities: card.capabilities ?? [],
    relays: card.relays ?? [],
  };
  for (const k of ['capabilities', 'relays'])
    if (!Array.isArray(fields[k]) || !fields[k].every((x) => typeof x === 'string'))
      throw new NostrError('AGX_CARD_INVALID', `${k} must be an array of strings`);
  if (typeof fields.org !== 'string') throw new NostrError('AGX_CARD_INVALID', 'org must be a string');
  if (fields.nip05 !== null && typeof fields.nip05 !== 'string') throw new NostrError('AGX_CARD_INVALID', 'nip05 must be a string');
  const template = JSON.parse(checked(core().agxCardTemplate(JSON.stringify(fields), card.now ?? nowS())));
  const event = await signChecked(signer, template);
  const results = await publishAccepted(pool, event, card.relaysToPublish, card.timeout);
  return { event, results };
}

/** A card event validated with the reference's caps: { pubkey, id, createdAt, org, displayName, nip05, capabilities, relays, payloadTypes }. */
export function parseAgentCard(event) {
  if (event === null || typeof event !== 'object') throw new NostrError('AGX_CARD_INVALID', 'a card must be an event');
  return JSON.parse(checked(core().agxParseCard(JSON.stringify(event))));
}

/**
 * The newest valid Agent Card of `peer` (npub or hex) on the pool's relays, or null. Cards that
 * fail validation are skipped. options: relays, timeout, verifyNip05 (also check the handle:
 * card.nip05Verified true/false, card.nip05Error the code when the check could not be made),
 * fetch/lookup (passed to verifyNip05).
 */
export async function fetchAgentCard(pool, peer, options = {}) {
  needPool(pool);
  const pk = peerHex(peer);
  const events = await pool.query([{ kinds: [CARD_KIND], authors: [pk] }], { relays: options.relays, maxWait: options.timeout ?? 5000 });
  let best = null;
  for (const ev of events) {
    if (ev.pubkey !== pk) continue;
    let card;
    try {
      card = parseAgentCard(ev);
    } catch {
      continue;
    }
    if (!best || card.createdAt > best.createdAt || (card.createdAt === best.createdAt && card.id < best.id)) best = card;
  }
  if (best && options.verifyNip05 && best.nip05) {
    try {
      best.nip05Verified = await verifyNip05(best.nip05, best.pubkey, options);
    } catch (err) {
      best.nip05Verified = false;
      best.nip05Error = err?.code ?? 'AGX_NIP05_FAILED';
    }
  }
  return best;
}

/**
 * NIP-09 retraction of our Agent Card(s): a kind 5 naming every card of ours the relays hold
 * (and `k` 11337). Best-effort by nature: relays need not honor it, and copies may live elsewhere.
 * options: reason, relays, now. Resolves { event, results, retracted } (null event when none found).
 */
export async function retractAgentCard(signer, pool, options = {}) {
  needSigner(signer);
  needPool(pool);
  const pubkey = await signer.getPublicKey();
  const cards = await pool.query([{ kinds: [CARD_KIND], authors: [pubkey] }], { relays: options.relays, maxWait: options.timeout ?? 5000 });
  const ids = [...new Set(cards.filter((e) => e.pubkey === pubkey).map((e) => e.id))];
  if (ids.length === 0) return { event: null, results: [], retracted: [] };
  const template = JSON.parse(checked(core().agxCardRetraction(JSON.stringify(ids), String(options.reason ?? ''), options.now ?? nowS())));
  const event = await signChecked(signer, template);
  const results = await publishAccepted(pool, event, options.relays, options.timeout);
  return { event, results, retracted: ids };
}

// --- NIP-05

/** name@domain -> { name, domain, url } (https URL), or AGX_NIP05_INVALID (also for hosts that are not public by their spelling). */
export function parseNip05(identifier) {
  return JSON.parse(checked(core().agxParseNip05(String(identifier))));
}

export { isPrivateAddress, lookupHost };

/**
 * Whether `identifier` (name@domain) maps to `pubkey` by https://<domain>/.well-known/nostr.json:
 * true, or false when the document names another key. The rules (nip05-fetch.js, shared with the
 * nip05 module): https only, a public host (by its spelling everywhere, and in Node also by every
 * address DNS gives, again at connect time), no redirects, at most 100 KB, 5 s. Breaking one throws
 * NostrError: AGX_NIP05_INVALID, AGX_NIP05_NOT_PUBLIC, AGX_NIP05_DNS, AGX_NIP05_REDIRECT,
 * AGX_NIP05_HTTP, AGX_NIP05_TOO_LARGE, AGX_NIP05_TIMEOUT, AGX_NIP05_RESPONSE_INVALID. options:
 * fetch (default: in Node an https GET that resolves the host again at connect time and connects
 * only to the address it checked, so a host cannot switch its DNS to a private address between the
 * check and the request; in browsers globalThis.fetch), lookup (host => [ip...]; default DNS in
 * Node, none in browsers; the Node default fetch connects through it too), ca (PEM certificate(s)
 * the Node default fetch trusts besides Node's roots, e.g. a private CA), timeout (ms, default 5000).
 */
export async function verifyNip05(identifier, pubkey, options = {}) {
  const pk = peerHex(pubkey);
  const addr = parseNip05(identifier);
  let body;
  try {
    body = await fetchNostrJson(addr, options);
  } catch (err) {
    // The shared fetch's NIP05_* codes, as AGX names them.
    if (err instanceof NostrError && err.code.startsWith('NIP05_'))
      throw new NostrError(`AGX_${err.code}`, err.message.slice(err.code.length + 2), { cause: err.cause });
    throw err;
  }
  const mapped = checked(core().agxNip05Pubkey(body, addr.name));
  return mapped === pk;
}

// --- NIP-65 relay list

function relayEntries(relays) {
  if (!Array.isArray(relays) || relays.length === 0) throw new NostrError('INVALID_ARGUMENT', 'relays must be a non-empty array');
  const seen = new Map();
  for (const r of relays) {
    const e = typeof r === 'string' ? { url: r, read: true, write: true } : r;
    if (!e || typeof e.url !== 'string') throw new NostrError('INVALID_ARGUMENT', 'each relay is a URL or {url, read, write}');
    const url = normalizeRelayUrl(e.url);
    const read = e.read !== false;
    const write = e.write !== false;
    if (!read && !write) continue;
    const old = seen.get(url) ?? { read: false, write: false };
    seen.set(url, { read: old.read || read, write: old.write || write });
  }
  return [...seen].map(([url, { read, write }]) => (read && write ? ['r', url] : ['r', url, read ? 'read' : 'write']));
}

/**
 * Publishes our NIP-65 relay list (kind 10002): relays as URLs (read and write) or {url, read,
 * write}. options: relaysToPublish, now, timeout. Resolves { event, results }.
 */
export async function publishRelayList(signer, pool, options = {}) {
  needSigner(signer);
  needPool(pool);
  const tags = relayEntries(options.relays);
  const template = { kind: RELAY_LIST_KIND, created_at: options.now ?? nowS(), tags, content: '' };
  const event = await signChecked(signer, template);
  const results = await publishAccepted(pool, event, options.relaysToPublish, options.timeout);
  return { event, results };
}

/**
 * The newest NIP-65 relay list of `peer`: { read, write, relays, createdAt } (URLs normalized;
 * malformed entries skipped), or null. read: where the peer reads (send to it there).
 */
export async function resolveRelayList(pool, peer, options = {}) {
  needPool(pool);
  const pk = peerHex(peer);
  const events = await pool.query([{ kinds: [RELAY_LIST_KIND], authors: [pk] }], { relays: options.relays, maxWait: options.timeout ?? 5000 });
  let best = null;
  for (const ev of events) if (ev.pubkey === pk && (!best || ev.created_at > best.created_at)) best = ev;
  if (!best) return null;
  const read = [];
  const write = [];
  for (const t of best.tags) {
    if (!Array.isArray(t) || t[0] !== 'r' || typeof t[1] !== 'string') continue;
    let url;
    try {
      url = normalizeRelayUrl(t[1]);
    } catch {
      continue;
    }
    if (t[2] === undefined || t[2] === 'read') read.includes(url) || read.push(url);
    if (t[2] === undefined || t[2] === 'write') write.includes(url) || write.push(url);
  }
  return { read, write, relays: [...new Set([...read, ...write])], createdAt: best.created_at, id: best.id };
}
