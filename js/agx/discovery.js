// Discovery: Agent Cards (kind 11337: publish, fetch, validate with the reference's caps, retract
// with NIP-09), NIP-05 verification of a card's handle, and NIP-65 relay lists (kind 10002). The
// core builds and checks every event; this file signs through the Signer and does the I/O.
import { core, checked } from '../core.js';
import { NostrError } from '../errors.js';
import { normalizeRelayUrl } from '../relay/codec.js';
import { isSigner } from '../signer.js';
import { peerHex } from './util.js';

export const CARD_KIND = 11337;
export const RELAY_LIST_KIND = 10002;
export const NIP05_MAX_BYTES = 100000;
export const NIP05_TIMEOUT = 5000;

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

// Addresses no public NIP-05 host has: loopback, private, link-local, CGNAT, unspecified,
// multicast/reserved, unique-local and site-local, documentation, discard, and IPv4 carried in
// IPv6 (mapped, compatible, NAT64, 6to4) when the IPv4 inside is one of these. Anything that does
// not parse as an address counts as private.
export function isPrivateAddress(ip) {
  const s = String(ip).toLowerCase();
  if (s.includes(':')) {
    const h = ipv6Hextets(s);
    if (!h) return true;
    const v4 = (hi, lo) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
    const zero5 = h.slice(0, 5).every((x) => x === 0);
    if (zero5 && h[5] === 0xffff) return isPrivateAddress(v4(h[6], h[7])); // ::ffff:a.b.c.d
    if (h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return isPrivateAddress(v4(h[6], h[7])); // NAT64
    if (h[0] === 0x2002) return isPrivateAddress(v4(h[1], h[2])); // 6to4
    return (
      h[0] === 0 || // ::/8 (unspecified, loopback, IPv4-compatible) is reserved
      (h[0] === 0x100 && h.slice(1, 4).every((x) => x === 0)) || // discard-only 100::/64
      (h[0] === 0x2001 && h[1] === 0xdb8) || // documentation
      (h[0] & 0xfe00) === 0xfc00 || // unique local
      (h[0] & 0xffc0) === 0xfe80 || // link-local
      (h[0] & 0xffc0) === 0xfec0 || // site-local (deprecated)
      (h[0] & 0xff00) === 0xff00 // multicast
    );
  }
  const p = s.split('.').map((x) => (/^\d{1,3}$/.test(x) ? Number(x) : NaN));
  if (p.length !== 4 || p.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return true;
  const [a, b] = p;
  return (
    a === 0 || a === 10 || a === 127 || a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

// An IPv6 address as its 8 hextets (a trailing dotted IPv4 and :: expanded), or null.
function ipv6Hextets(s) {
  let text = s.replace(/%.*$/, ''); // zone id
  const dotted = text.match(/^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/);
  if (dotted) {
    const q = dotted[2].split('.').map(Number);
    if (q.some((n) => n > 255)) return null;
    text = `${dotted[1]}${((q[0] << 8) | q[1]).toString(16)}:${((q[2] << 8) | q[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (x) => (x === '' ? [] : x.split(':'));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const all = [...head, ...Array(halves.length === 2 ? fill : 0).fill('0'), ...tail];
  if (!all.every((x) => /^[0-9a-f]{1,4}$/.test(x))) return null;
  return all.map((x) => parseInt(x, 16));
}

function isNode() {
  return typeof process !== 'undefined' && !!process.versions?.node;
}

// verifyNip05's defaults in Node, { lookup: DNS, fetch: (lookup, ca) => an https GET that connects
// only to addresses it checked }: nip05-node.js, which the entries that may run in Node
// (index.node.js, index.single.js) import, so browser bundles (index.browser.js) leave them out.
// In Node without them (js/ imported around the entries) there is no default fetch: pass `fetch`.
let nodeDefaults = null;
export function setNip05NodeDefaults(defaults) {
  nodeDefaults = defaults;
}

async function defaultLookup(host) {
  if (!isNode() || !nodeDefaults) return null; // browsers: no DNS API
  return nodeDefaults.lookup(host);
}

/** The addresses DNS gives `host` (Node), or null where there is no DNS (browsers). routes.js checks peer relays with it. */
export const lookupHost = defaultLookup;

async function readCapped(res, cap) {
  const len = Number(res.headers?.get?.('content-length'));
  if (Number.isFinite(len) && len > cap) throw new NostrError('AGX_NIP05_TOO_LARGE', `the response is over ${cap} bytes`);
  if (!res.body || typeof res.body.getReader !== 'function') {
    const text = await res.text();
    if (new TextEncoder().encode(text).length > cap) throw new NostrError('AGX_NIP05_TOO_LARGE', `the response is over ${cap} bytes`);
    return text;
  }
  const reader = res.body.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      reader.cancel().catch(() => {});
      throw new NostrError('AGX_NIP05_TOO_LARGE', `the response is over ${cap} bytes`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(all);
}

/**
 * Whether `identifier` (name@domain) maps to `pubkey` by https://<domain>/.well-known/nostr.json:
 * true, or false when the document names another key. The rules: https only, a public host (by
 * its spelling everywhere, and in Node also by every address DNS gives), no redirects, at most
 * 100 KB, 5 s. Breaking one throws NostrError: AGX_NIP05_INVALID, AGX_NIP05_NOT_PUBLIC,
 * AGX_NIP05_DNS, AGX_NIP05_REDIRECT, AGX_NIP05_HTTP, AGX_NIP05_TOO_LARGE, AGX_NIP05_TIMEOUT,
 * AGX_NIP05_RESPONSE_INVALID. options: fetch (default: in Node an https GET that resolves the
 * host again at connect time and connects only to the address it checked, so a host cannot switch
 * its DNS to a private address between the check and the request; in browsers globalThis.fetch),
 * lookup (host => [ip...]; default DNS in Node, none in browsers; the Node default fetch connects
 * through it too), ca (PEM certificate(s) the Node default fetch trusts besides Node's roots, e.g.
 * a private CA), timeout (ms, default 5000).
 */
export async function verifyNip05(identifier, pubkey, options = {}) {
  const pk = peerHex(pubkey);
  const addr = parseNip05(identifier);
  if (!addr.url.startsWith('https://')) throw new NostrError('AGX_NIP05_INVALID', 'NIP-05 is fetched over https only');
  const lookup = options.lookup ?? defaultLookup;
  const timeout = options.timeout ?? NIP05_TIMEOUT;
  const fetchFn = options.fetch ?? (isNode() ? await nodeDefaults?.fetch(lookup, options.ca) : globalThis.fetch);
  if (typeof fetchFn !== 'function') throw new NostrError('AGX_NIP05_HTTP', isNode() ? 'no default fetch (import the package, not js/agx/discovery.js alone, or pass fetch)' : 'no fetch available');
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeout);
  try {
    const addresses = await Promise.race([
      Promise.resolve()
        .then(() => lookup(addr.domain))
        .catch((err) => {
          throw new NostrError('AGX_NIP05_DNS', `${addr.domain} does not resolve: ${err?.code ?? err?.message ?? err}`, { cause: err });
        }),
      new Promise((_, reject) => ac.signal.addEventListener('abort', () => reject(new NostrError('AGX_NIP05_TIMEOUT', `no answer within ${timeout} ms`)), { once: true })),
    ]);
    if (addresses !== null && (!Array.isArray(addresses) || addresses.length === 0 || addresses.some(isPrivateAddress)))
      throw new NostrError('AGX_NIP05_NOT_PUBLIC', `${addr.domain} does not resolve to public addresses only`);
    let res;
    try {
      res = await fetchFn(addr.url, { redirect: 'manual', signal: ac.signal, headers: { accept: 'application/json' }, credentials: 'omit' });
    } catch (err) {
      if (ac.signal.aborted) throw new NostrError('AGX_NIP05_TIMEOUT', `no answer within ${timeout} ms`, { cause: err });
      if (err instanceof NostrError && err.code.startsWith('AGX_NIP05_')) throw err; // the Node fetch's connect-time check and cap
      throw new NostrError('AGX_NIP05_HTTP', `fetching ${addr.url} failed: ${err?.message ?? err}`, { cause: err });
    }
    if (res.type === 'opaqueredirect' || res.redirected || (res.status >= 300 && res.status < 400))
      throw new NostrError('AGX_NIP05_REDIRECT', `${addr.url} redirects; NIP-05 answers must not`);
    if (!res.ok) throw new NostrError('AGX_NIP05_HTTP', `${addr.url} answered ${res.status}`);
    let body;
    try {
      body = await readCapped(res, NIP05_MAX_BYTES);
    } catch (err) {
      if (err instanceof NostrError) throw err;
      if (ac.signal.aborted) throw new NostrError('AGX_NIP05_TIMEOUT', `no answer within ${timeout} ms`, { cause: err });
      throw new NostrError('AGX_NIP05_HTTP', `reading ${addr.url} failed: ${err?.message ?? err}`, { cause: err });
    }
    const mapped = checked(core().agxNip05Pubkey(body, addr.name));
    return mapped === pk;
  } finally {
    clearTimeout(timer);
  }
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
