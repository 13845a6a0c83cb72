// The NIP-05 fetch with the rules every lookup here keeps (nip05.queryProfile and its kin,
// agx.verifyNip05): https only, a public host (by its spelling everywhere, the core's nip05Parse;
// in Node also by every address DNS gives, and again at connect time: nip05-node.js), no
// redirects, at most NIP05_MAX_BYTES, NIP05_TIMEOUT. Breaking one throws NostrError NIP05_*.
import { NostrError } from './errors.js';

export const NIP05_MAX_BYTES = 100000;
export const NIP05_TIMEOUT = 5000;

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

// The defaults in Node, { lookup: DNS, fetch: (lookup, ca) => an https GET that connects only to
// addresses it checked }: nip05-node.js, which the entries that may run in Node (index.node.js,
// index.single.js) import, so browser bundles (index.browser.js) leave them out. In Node without
// them (js/ imported around the entries) there is no default fetch: pass `fetch`.
let nodeDefaults = null;
export function setNip05NodeDefaults(defaults) {
  nodeDefaults = defaults;
}

async function defaultLookup(host) {
  if (!isNode() || !nodeDefaults) return null; // browsers: no DNS API
  return nodeDefaults.lookup(host);
}

/** The addresses DNS gives `host` (Node), or null where there is no DNS (browsers). agx/routes.js checks peer relays with it. */
export const lookupHost = defaultLookup;

async function readCapped(res, cap) {
  const len = Number(res.headers?.get?.('content-length'));
  if (Number.isFinite(len) && len > cap) throw new NostrError('NIP05_TOO_LARGE', `the response is over ${cap} bytes`);
  if (!res.body || typeof res.body.getReader !== 'function') {
    const text = await res.text();
    if (new TextEncoder().encode(text).length > cap) throw new NostrError('NIP05_TOO_LARGE', `the response is over ${cap} bytes`);
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
      throw new NostrError('NIP05_TOO_LARGE', `the response is over ${cap} bytes`);
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
 * The body of `addr.url` (an https nostr.json URL from the core's nip05Parse, for `addr.domain`)
 * under the rules above. options: fetch (default: in Node an https GET that resolves the host
 * again at connect time and connects only to the address it checked; in browsers
 * globalThis.fetch), lookup (host => [ip...]; default DNS in Node, none in browsers), ca (PEM
 * certificate(s) the Node default fetch trusts besides Node's roots), timeout (ms, default 5000),
 * signal (an AbortSignal: NostrError ABORTED). Throws NostrError NIP05_NOT_PUBLIC, NIP05_DNS,
 * NIP05_REDIRECT, NIP05_HTTP, NIP05_TOO_LARGE, NIP05_TIMEOUT.
 */
export async function fetchNostrJson(addr, options = {}) {
  if (!addr.url.startsWith('https://')) throw new NostrError('NIP05_INVALID', 'NIP-05 is fetched over https only');
  const lookup = options.lookup ?? defaultLookup;
  const timeout = options.timeout ?? NIP05_TIMEOUT;
  if (typeof lookup !== 'function') throw new NostrError('INVALID_ARGUMENT', 'lookup must be a function');
  if (!(Number.isFinite(timeout) && timeout > 0)) throw new NostrError('INVALID_ARGUMENT', 'timeout must be a positive number of ms');
  const { signal } = options;
  if (signal?.aborted) throw new NostrError('ABORTED', 'the NIP-05 lookup was aborted', { cause: signal.reason });
  const fetchFn = options.fetch ?? (isNode() ? await nodeDefaults?.fetch(lookup, options.ca) : globalThis.fetch);
  if (typeof fetchFn !== 'function')
    throw new NostrError('NIP05_HTTP', isNode() ? 'no default fetch (import the package, not its js/ files alone, or pass fetch)' : 'no fetch available');
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort('timeout'), timeout);
  const onAbort = () => ac.abort('aborted');
  signal?.addEventListener('abort', onAbort, { once: true });
  const stopped = () =>
    ac.signal.reason === 'aborted'
      ? new NostrError('ABORTED', 'the NIP-05 lookup was aborted', { cause: signal?.reason })
      : new NostrError('NIP05_TIMEOUT', `no answer within ${timeout} ms`);
  // Every step races the deadline, so a fetch (or a body) that ignores the signal cannot hold it.
  const deadline = new Promise((_, reject) => ac.signal.addEventListener('abort', () => reject(stopped()), { once: true }));
  const step = (promise) => Promise.race([promise, deadline]);
  try {
    const addresses = await step(
      Promise.resolve()
        .then(() => lookup(addr.domain))
        .catch((err) => {
          throw new NostrError('NIP05_DNS', `${addr.domain} does not resolve: ${err?.code ?? err?.message ?? err}`, { cause: err });
        }),
    );
    if (addresses !== null && (!Array.isArray(addresses) || addresses.length === 0 || addresses.some(isPrivateAddress)))
      throw new NostrError('NIP05_NOT_PUBLIC', `${addr.domain} does not resolve to public addresses only`);
    let res;
    try {
      res = await step(
        Promise.resolve().then(() =>
          fetchFn(addr.url, { redirect: 'manual', signal: ac.signal, headers: { accept: 'application/json' }, credentials: 'omit' }),
        ),
      );
    } catch (err) {
      if (ac.signal.aborted) throw stopped();
      if (err instanceof NostrError && err.code.startsWith('NIP05_')) throw err; // the Node fetch's connect-time check and cap
      throw new NostrError('NIP05_HTTP', `fetching ${addr.url} failed: ${err?.message ?? err}`, { cause: err });
    }
    if (res === null || typeof res !== 'object') throw new NostrError('NIP05_HTTP', `fetching ${addr.url} gave no response`);
    if (res.type === 'opaqueredirect' || res.redirected || (res.status >= 300 && res.status < 400))
      throw new NostrError('NIP05_REDIRECT', `${addr.url} redirects; NIP-05 answers must not`);
    if (!res.ok) throw new NostrError('NIP05_HTTP', `${addr.url} answered ${res.status}`);
    try {
      return await step(readCapped(res, NIP05_MAX_BYTES));
    } catch (err) {
      if (err instanceof NostrError) throw err;
      if (ac.signal.aborted) throw stopped();
      throw new NostrError('NIP05_HTTP', `reading ${addr.url} failed: ${err?.message ?? err}`, { cause: err });
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
