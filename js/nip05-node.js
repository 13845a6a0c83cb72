// The NIP-05 fetch's defaults in Node (nip05-fetch.js): DNS lookup, and the https GET of nip05-https.js,
// which resolves the host again at connect time through `lookup` (falling back to DNS when it
// answers null) and connects only to an address it checked. Set by the init() of the entries that
// may run in Node (index.node.js, index.single.js); browser bundles never include it.
import { NostrError } from './errors.js';
import { NIP05_MAX_BYTES, isPrivateAddress, setNip05NodeDefaults } from './nip05-fetch.js';
import { checkedLookup, httpsGet } from './nip05-https.js';

// Named at run time: bundles leave them alone (and never load them outside Node).
const DNS = /* @__PURE__ */ ['node', 'dns'].join(':');
const HTTPS = /* @__PURE__ */ ['node', 'https'].join(':');
const TLS = /* @__PURE__ */ ['node', 'tls'].join(':');

async function dnsLookup(host) {
  const dns = await import(/* @vite-ignore */ /* webpackIgnore: true */ DNS);
  return (await dns.promises.lookup(host, { all: true })).map((r) => r.address);
}

async function nodeFetch(lookup, ca) {
  const [https, tls] = await Promise.all([import(/* @vite-ignore */ /* webpackIgnore: true */ HTTPS), import(/* @vite-ignore */ /* webpackIgnore: true */ TLS)]);
  const extra = ca === undefined || ca === null ? [] : [].concat(ca);
  if (!extra.every((c) => typeof c === 'string' || c instanceof Uint8Array))
    throw new NostrError('INVALID_ARGUMENT', 'ca must be a PEM certificate or an array of them');
  const trusted = extra.length ? [...tls.rootCertificates, ...extra] : undefined;
  const resolve = async (host) => (await lookup(host)) ?? dnsLookup(host);
  const connectLookup = checkedLookup(resolve, (ip) => !isPrivateAddress(ip));
  return (url, init) => httpsGet(https, url, { lookup: connectLookup, ca: trusted, signal: init.signal, headers: init.headers, maxBytes: NIP05_MAX_BYTES });
}

/** Makes DNS and this https GET the NIP-05 fetch's defaults (called by the entries' init()). */
export function useNodeNip05Defaults() {
  setNip05NodeDefaults({ lookup: dnsLookup, fetch: nodeFetch });
}
