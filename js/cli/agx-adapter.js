// Every AGX call of the CLI, in one place, written against today's createAgxAgent. When the new
// AGX API lands (AgxClient, maxAutoDepth, FileSeenStore, publishAgentCard, fetchAgentCard,
// verifyNip05, publishRelayList, resolveRelayList) this file is what changes; the commands only
// use what it exports. Stand-ins kept here until then:
//   - the seen store (a capped list of wrap ids in <profile>/seen.json) -> FileSeenStore
//   - automated-reply depth: the inbound depth is read by a second unwrap, replies are sent with
//     createMessageRumor({autoDepth}) -> AgxClient with maxAutoDepth
//   - Agent Card and relay list built, published, fetched and checked here in JS (the C++ card
//     and NIP-05 code is not bound yet) -> publishAgentCard, fetchAgentCard, verifyNip05,
//     publishRelayList
import { existsSync, readFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { nostr } from './nostr.js';
import { writePrivate } from './settings.js';

const { agx, RelayPool, verifyEvent, nip19 } = nostr;

export const AgxPublicError = agx.AgxPublicError;
export const CARD_KIND = 11337;
export const RELAY_LIST_KIND = 10002;
export const DEFAULT_MAX_AUTO_DEPTH = 8; // the reference ceiling (src/protocols/agx/constants.hpp)
const SINCE_WINDOW = 172800 + 120; // wraps are backdated up to two days
const SEEN_CAP = 5000;

export function openPool(relays) {
  return new RelayPool({ relays, reconnect: { initialDelay: 200, maxDelay: 2000 } });
}

/** A capped, persisted set of processed wrap ids (stand-in for FileSeenStore). */
export class SeenFile {
  constructor(file) {
    this.file = file;
    this.ids = [];
    if (file && existsSync(file)) {
      try {
        const v = JSON.parse(readFileSync(file, 'utf8'));
        if (Array.isArray(v?.ids)) this.ids = v.ids.filter((x) => typeof x === 'string').slice(-SEEN_CAP);
      } catch {
        this.ids = [];
      }
    }
    this.set = new Set(this.ids);
    this.dirty = false;
  }
  has(id) {
    return this.set.has(id);
  }
  add(id) {
    if (this.set.has(id)) return;
    this.set.add(id);
    this.ids.push(id);
    if (this.ids.length > SEEN_CAP) this.set.delete(this.ids.shift());
    this.dirty = true;
  }
  flush() {
    if (!this.file || !this.dirty) return;
    writePrivate(this.file, JSON.stringify({ ids: this.ids }) + '\n');
    this.dirty = false;
  }
}

/**
 * An AGX endpoint for one command.
 * options: signer, relays, handlers? ({capability: fn}), acceptAll?, allowList? ([{pubkey,
 * capability}]), onMessage?(m) with m.autoDepth, onDenied?({from, capability}), onHandlerError?
 * ({capability, from, error}), onError?, onWarning?, seenFile? (path: persist processed wraps).
 * Returns { publicKey, start(), send(), request(), reply(), close() }.
 */
export function createEndpoint(options) {
  const { signer, relays } = options;
  const pool = openPool(relays);
  const seen = options.seenFile ? new SeenFile(options.seenFile) : null;
  const depths = new Map(); // rumor id -> inbound autoDepth (read before ingest)
  const allowList = options.allowList ?? [];

  const handlers = {};
  for (const [key, fn] of Object.entries(options.handlers ?? {})) {
    handlers[key] = async (payload, ctx) => {
      try {
        return await fn(payload, ctx);
      } catch (error) {
        // A module may import AgxPublicError from another copy of this package (or from
        // @nostr-agx/core): recognized by name, rethrown as ours so its text reaches the peer.
        if (!(error instanceof AgxPublicError) && error?.name === 'AgxPublicError' && typeof error.message === 'string')
          throw new AgxPublicError(error.message);
        if (!(error instanceof AgxPublicError)) options.onHandlerError?.({ capability: ctx.capability, from: ctx.from, error });
        throw error;
      }
    };
  }

  const authorize = ({ from, capability }) => {
    if (options.acceptAll) return true;
    const ok = allowList.some((e) => e.pubkey === from && agx.capabilityMatches(e.capability, capability));
    return ok;
  };

  const agent = agx.createAgxAgent({
    signer,
    pool,
    relays,
    handlers,
    authorize,
    onMessage: (m) => {
      const autoDepth = depths.get(m.rumorId) ?? 0;
      if (m.reason === 'denied' || m.reason === 'denied-unconfigured') {
        options.onDenied?.({ from: m.from, capability: m.task?.capability ?? '', taskId: m.task?.taskId ?? '', reason: denyReason(allowList, m.from) });
        return;
      }
      options.onMessage?.({ ...m, autoDepth });
    },
    onError: (e) => options.onError?.(e),
    onWarning: (w) => options.onWarning?.(w),
  });

  let sub = null;
  let flushTimer = null;
  async function onWrap(wrap) {
    if (seen?.has(wrap.id)) return;
    let rumorId = null;
    try {
      const opened = agx.unwrapAgx(wrap, signer);
      if (opened.message) depths.set((rumorId = opened.rumor.id), opened.message.autoDepth ?? 0);
    } catch {
      // ingest reports it
    }
    try {
      await agent.ingest(wrap);
    } finally {
      if (rumorId !== null) depths.delete(rumorId); // onMessage ran during ingest, if at all
      seen?.add(wrap.id);
      if (seen && !flushTimer) flushTimer = setTimeout(() => ((flushTimer = null), seen.flush()), 1000).unref();
      options.onIngested?.(wrap);
    }
  }

  return {
    publicKey: signer.publicKey,
    pool,
    /** Subscribes to our wraps; resolves after the stored ones were received (EOSE). */
    start() {
      return new Promise((resolve) => {
        const since = Math.floor(Date.now() / 1000) - SINCE_WINDOW;
        sub = pool.subscribe([{ kinds: [agx.GIFT_WRAP_KIND], '#p': [signer.publicKey], since }], {
          relays,
          onevent: (ev) => {
            onWrap(ev).catch((e) => options.onError?.(e));
          },
          oneose: () => resolve(),
          onclose: () => resolve(),
          maxWait: 10000,
        });
      });
    },
    async send(peer, text, { subject, autoDepth = 0, signal } = {}) {
      if (autoDepth === 0) return agent.send(peer, text, { subject, signal });
      const rumor = agx.createMessageRumor(text, signer.publicKey, peer, { subject, autoDepth });
      const wrap = await agx.wrapRumor(rumor, signer, peer, { signal });
      const results = await pool.publish(wrap, { relays, signal });
      if (!results.some((r) => r.status === 'accepted'))
        throw Object.assign(new nostr.NostrError('AGX_PUBLISH_FAILED', 'no relay accepted the wrap'), { results });
      return { rumorId: rumor.id, wrapId: wrap.id, results };
    },
    request(peer, capability, payload, { timeout, signal } = {}) {
      return agent.request(peer, capability, payload, { timeout, signal });
    },
    /** Auto-reply to a plain message at inbound depth + 1; null when over `maxAutoDepth`. */
    async reply(message, text, { maxAutoDepth = DEFAULT_MAX_AUTO_DEPTH } = {}) {
      const depth = Math.min(255, (message.autoDepth ?? 0) + 1);
      if (depth > maxAutoDepth) return null;
      const subject = message.subject ? (message.subject.startsWith('Re: ') ? message.subject : `Re: ${message.subject}`) : undefined;
      return this.send(message.from, text, { subject: subject?.slice(0, 256), autoDepth: depth });
    },
    async close() {
      if (sub) sub.close();
      await agent.close();
      clearTimeout(flushTimer);
      seen?.flush();
      await pool.close();
    },
    flushSeen() {
      seen?.flush();
    },
  };
}

function denyReason(allowList, from) {
  const mine = allowList.filter((e) => e.pubkey === from).map((e) => e.capability);
  if (allowList.length === 0) return 'no peer is allowed (default-deny)';
  if (mine.length === 0) return 'the sender is not in the allow list';
  return `the sender is allowed only ${mine.join(', ')}`;
}

// ---- Agent Card (kind 11337) and relay list (kind 10002), built here until publishAgentCard ----

const CARD_CAPS = { org: 200, capabilities: 64, capability: 200, relays: 10, relay: 512, displayName: 120 };
const NIP05 = /^([A-Za-z0-9._-]+)@([a-z0-9-]+(?:\.[a-z0-9-]+)+)$/;

/** { name, domain } of a NIP-05 identifier, or null (local-only names and IP literals refused). */
export function parseNip05(id) {
  if (typeof id !== 'string' || id.length > 253) return null;
  const at = id.lastIndexOf('@');
  const m = NIP05.exec(at < 0 ? id : id.slice(0, at) + id.slice(at).toLowerCase());
  if (!m) return null;
  const domain = m[2];
  if (domain.split('.').some((l) => l.length === 0 || l.length > 63 || l.startsWith('-') || l.endsWith('-'))) return null;
  if (isIP(domain) || /(^|\.)(localhost|local|internal)$/.test(domain) || domain.endsWith('.home.arpa')) return null;
  return { name: m[1], domain };
}

export function cardContent({ pubkey, org, nip05, relays, capabilities }) {
  return {
    v: 1,
    org: org ?? '',
    npub: nip19.npubEncode(pubkey),
    nip05: nip05 ?? null,
    relays: relays.slice(0, CARD_CAPS.relays),
    capabilities: capabilities.slice(0, CARD_CAPS.capabilities),
    payloadTypes: ['application/a2a+json', 'application/agx-task+json'],
    encryption: ['nip44'],
    version: '1.0.0',
  };
}

/** Publishes our card and NIP-65 relay list. Resolves { card, relayList } (the signed events and results). */
export async function advertise({ signer, pool, relays, capabilities, org, nip05 }) {
  if (nip05 && !parseNip05(nip05)) throw new nostr.NostrError('AGX_NIP05_INVALID', `not a valid NIP-05 identifier: ${nip05}`);
  if (org && org.length > CARD_CAPS.org) throw new nostr.NostrError('AGX_CARD_INVALID', 'org is longer than 200 characters');
  const now = Math.floor(Date.now() / 1000);
  const content = cardContent({ pubkey: signer.publicKey, org, nip05, relays, capabilities });
  const card = await signer.signEvent({ kind: CARD_KIND, created_at: now, tags: nip05 ? [['nip05', nip05]] : [], content: JSON.stringify(content) });
  const list = await signer.signEvent({ kind: RELAY_LIST_KIND, created_at: now, tags: relays.map((r) => ['r', r]), content: '' });
  const [cardResults, listResults] = await Promise.all([pool.publish(card, { relays }), pool.publish(list, { relays })]);
  return { card, cardResults, relayList: list, relayListResults: listResults };
}

const strList = (v, max, each) =>
  v === null || v === undefined ? [] : Array.isArray(v) ? v.filter((x) => typeof x === 'string' && x.length <= each).slice(0, max) : null;

/** A peer's card from its signed event, with the reference's caps; null when invalid. */
export function parseCard(event) {
  if (!event || event.kind !== CARD_KIND || !verifyEvent(event)) return null;
  let c;
  try {
    c = JSON.parse(event.content);
  } catch {
    return null;
  }
  if (!c || typeof c !== 'object' || Array.isArray(c)) return null;
  if (c.org !== undefined && c.org !== null && (typeof c.org !== 'string' || c.org.length > CARD_CAPS.org)) return null;
  if (c.nip05 !== undefined && c.nip05 !== null && (typeof c.nip05 !== 'string' || c.nip05.length > 253)) return null;
  if (c.npub !== undefined && c.npub !== nip19.npubEncode(event.pubkey)) return null;
  const capabilities = strList(c.capabilities, CARD_CAPS.capabilities, CARD_CAPS.capability);
  const relays = strList(c.relays, CARD_CAPS.relays, CARD_CAPS.relay);
  if (capabilities === null || relays === null) return null;
  return {
    pubkey: event.pubkey,
    npub: nip19.npubEncode(event.pubkey),
    createdAt: event.created_at,
    org: c.org ?? null,
    displayName: typeof c.org === 'string' ? c.org.slice(0, CARD_CAPS.displayName) : null,
    nip05: c.nip05 ?? null,
    capabilities,
    relays,
    payloadTypes: strList(c.payloadTypes, 16, 200) ?? [],
    version: typeof c.version === 'string' ? c.version : null,
    eventId: event.id,
  };
}

/** The newest valid card of `pubkey`, or null. */
export async function fetchCard({ pool, relays, pubkey, maxWait = 5000 }) {
  const events = await pool.query({ kinds: [CARD_KIND], authors: [pubkey] }, { relays, maxWait });
  let best = null;
  for (const e of events) {
    if (e.pubkey !== pubkey) continue;
    const card = parseCard(e);
    if (card && (!best || e.created_at > best.createdAt || (e.created_at === best.createdAt && e.id > best.eventId))) best = card;
  }
  return best;
}

/** The relays of a NIP-65 list (kind 10002) of `pubkey`, newest first, or []. */
export async function fetchRelayList({ pool, relays, pubkey, maxWait = 5000 }) {
  const e = await pool.get({ kinds: [RELAY_LIST_KIND], authors: [pubkey] }, { relays, maxWait });
  if (!e) return [];
  return e.tags.filter((t) => t[0] === 'r' && typeof t[1] === 'string' && /^wss?:\/\//.test(t[1])).map((t) => t[1]);
}

/**
 * NIP-05 check of a card: https://<domain>/.well-known/nostr.json?name=<name> must map the name
 * to `pubkey`. https only, a public address by DNS, no redirects, at most 100 000 bytes, 5 s.
 * Resolves { ok, reason }.
 */
export async function verifyNip05(nip05, pubkey, { fetchImpl = fetch, timeout = 5000 } = {}) {
  const a = parseNip05(nip05);
  if (!a) return { ok: false, reason: 'not a valid NIP-05 identifier' };
  try {
    const addrs = await lookup(a.domain, { all: true });
    if (addrs.length === 0 || addrs.some((x) => !isPublicAddress(x.address))) return { ok: false, reason: `${a.domain} does not resolve to public addresses only` };
  } catch (e) {
    return { ok: false, reason: `${a.domain} does not resolve (${e.code ?? e.message})` };
  }
  const url = `https://${a.domain}/.well-known/nostr.json?name=${a.name}`;
  let body;
  try {
    const res = await fetchImpl(url, { redirect: 'manual', signal: AbortSignal.timeout(timeout), headers: { accept: 'application/json' } });
    if (res.status !== 200) return { ok: false, reason: `${url} answered ${res.status}` };
    body = await res.text();
  } catch (e) {
    return { ok: false, reason: `${url}: ${e.name === 'TimeoutError' ? 'timed out' : e.message}` };
  }
  if (body.length > 100000) return { ok: false, reason: 'nostr.json is larger than 100 000 bytes' };
  let doc;
  try {
    doc = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'nostr.json is not JSON' };
  }
  const mapped = doc?.names?.[a.name];
  if (typeof mapped !== 'string' || !/^[0-9a-fA-F]{64}$/.test(mapped)) return { ok: false, reason: `nostr.json has no key for "${a.name}"` };
  if (mapped.toLowerCase() !== pubkey) return { ok: false, reason: `nostr.json maps "${a.name}" to another key` };
  return { ok: true, reason: `${a.name}@${a.domain} maps to this key` };
}

function isPublicAddress(ip) {
  if (isIP(ip) === 4) {
    const [a, b] = ip.split('.').map(Number);
    return !(a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b < 128) || a >= 224);
  }
  const v = ip.toLowerCase();
  return !(v === '::1' || v === '::' || v.startsWith('fe80') || v.startsWith('fc') || v.startsWith('fd') || v.startsWith('::ffff:'));
}
