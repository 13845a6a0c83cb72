// NIP-05 internet identifiers with nostr-tools' names (NIP05_REGEX, isNip05,
// useFetchImplementation, searchDomain, queryProfile, isValid), plus lookupProfile, which says why
// a lookup failed. The core parses identifiers and reads nostr.json; every fetch keeps the rules
// of nip05-fetch.js (https only, a public host, no redirects, 100 KB, 5 s), which nostr-tools does
// not: an identifier naming localhost or a private address is not fetched at all.
import { core, checked } from './core.js';
import { NostrError } from './errors.js';
import { fetchNostrJson } from './nip05-fetch.js';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/**
 * The syntax of an identifier: [name@]domain; groups 1 the name (absent for a bare domain, which
 * means "_"), 2 the domain, 3 its last label with the dot (as nostr-tools' regex). Syntax only:
 * isNip05 and the lookups also refuse hosts that are not public (IP literals, localhost, .local...).
 */
export const NIP05_REGEX = /* @__PURE__ */ new RegExp(`^(?:([A-Za-z0-9._-]+)@)?(${LABEL}(\\.${LABEL})+)$`);

/** True when `value` is an identifier the lookups accept (the core's parse: syntax and a public host). */
export function isNip05(value) {
  if (typeof value !== 'string') return false;
  return core().nip05Parse(value) !== undefined;
}

let defaultFetch = null;

/** The fetch the lookups use when not given one (nostr-tools' name); null restores the default. */
export function useFetchImplementation(fetchImplementation) {
  if (fetchImplementation !== null && fetchImplementation !== undefined && typeof fetchImplementation !== 'function')
    throw new NostrError('INVALID_ARGUMENT', 'the fetch implementation must be a function');
  defaultFetch = fetchImplementation ?? null;
}

function fetchOptions(options) {
  if (options === null || typeof options !== 'object') throw new NostrError('INVALID_ARGUMENT', 'options must be an object');
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new NostrError('INVALID_ARGUMENT', 'fetch must be a function');
  return options.fetch || !defaultFetch ? options : { ...options, fetch: defaultFetch };
}

function parse(identifier) {
  if (typeof identifier !== 'string') throw new NostrError('INVALID_ARGUMENT', 'a NIP-05 identifier is a string');
  return checked(core().nip05Parse(identifier));
}

/**
 * The profile `identifier` ([name@]domain) names: { pubkey, relays } (relays: the ws(s) URLs the
 * document lists for that key, [] when none). Rejects with NostrError: NIP05_INVALID, NIP05_NOT_FOUND
 * (the document does not name it), NIP05_RESPONSE_INVALID, and the fetch's NIP05_NOT_PUBLIC,
 * NIP05_DNS, NIP05_REDIRECT, NIP05_HTTP, NIP05_TOO_LARGE, NIP05_TIMEOUT, ABORTED. options: fetch,
 * lookup, ca, timeout (ms, default 5000), signal.
 */
export async function lookupProfile(identifier, options = {}) {
  const addr = parse(identifier);
  const body = await fetchNostrJson(addr, fetchOptions(options));
  return checked(core().nip05ReadResponse(body, addr.name));
}

/**
 * nostr-tools' queryProfile: lookupProfile's { pubkey, relays }, or null when the identifier is not
 * one, is not found, or the lookup fails. Only a non-string or bad options reject (INVALID_ARGUMENT).
 */
export async function queryProfile(fullname, options = {}) {
  if (typeof fullname !== 'string') throw new NostrError('INVALID_ARGUMENT', 'a NIP-05 identifier is a string');
  const opts = fetchOptions(options);
  try {
    return await lookupProfile(fullname, opts);
  } catch (err) {
    if (err instanceof NostrError && err.code !== 'INVALID_ARGUMENT') return null;
    throw err;
  }
}

/**
 * True when `nip05` names `pubkey` (hex, either case), false otherwise, including when the lookup
 * fails. Throws NostrError INVALID_PUBLIC_KEY unless pubkey is 64 hex characters.
 */
export async function isValid(pubkey, nip05, options = {}) {
  if (typeof pubkey !== 'string' || !/^[0-9a-fA-F]{64}$/.test(pubkey))
    throw new NostrError('INVALID_PUBLIC_KEY', 'pubkey must be 64 hex characters');
  const profile = await queryProfile(nip05, options);
  return profile !== null && profile.pubkey === pubkey.toLowerCase();
}

/**
 * Every name -> pubkey a domain's nostr.json lists (`?name=<query>`; an empty query asks for all,
 * which servers may or may not honour), pubkeys lowercased, entries that are not a pubkey left out.
 * {} when the lookup fails, as in nostr-tools; a non-string domain or query rejects INVALID_ARGUMENT.
 */
export async function searchDomain(domain, query = '', options = {}) {
  if (typeof domain !== 'string' || typeof query !== 'string')
    throw new NostrError('INVALID_ARGUMENT', 'domain and query are strings');
  const opts = fetchOptions(options);
  try {
    if (domain.includes('@')) throw new NostrError('NIP05_INVALID', 'a domain has no @');
    const base = parse(domain);
    const addr = query === '' ? { ...base, url: base.url.slice(0, -base.name.length) } : parse(`${query}@${domain}`);
    const body = await fetchNostrJson(addr, opts);
    return Object.fromEntries(checked(core().nip05ReadNames(body)));
  } catch (err) {
    if (err instanceof NostrError && err.code !== 'INVALID_ARGUMENT') return {};
    throw err;
  }
}
