// NIP-11 relay information documents: GET the relay's URL over http(s) with
// Accept: application/nostr+json.
import { NostrError } from '../errors.js';
import { normalizeRelayUrl } from './codec.js';
import { Clock } from './wait.js';

/** http(s) URL of a relay's NIP-11 document (ws -> http, wss -> https). */
export function relayInfoUrl(url) {
  const u = normalizeRelayUrl(url);
  return u.replace(/^ws(s?):\/\//, 'http$1://');
}

/**
 * Fetches and parses a relay's NIP-11 document. Errors (NostrError): RELAY_INFO_UNAVAILABLE (network
 * error or HTTP status), RELAY_INFO_INVALID (not a JSON object), RELAY_TIMEOUT, ABORTED.
 */
export async function fetchRelayInfo(url, { signal, timeout = 10_000, fetch: fetchFn = globalThis.fetch, clock = new Clock() } = {}) {
  if (typeof fetchFn !== 'function') throw new NostrError('RELAY_INFO_UNAVAILABLE', 'no fetch() in this environment');
  const target = relayInfoUrl(url);
  if (signal?.aborted) throw new NostrError('ABORTED', 'aborted', { cause: signal.reason });
  const ctrl = new AbortController();
  let timedOut = false;
  const timer = clock.set(() => {
    timedOut = true;
    ctrl.abort();
  }, timeout);
  const onAbort = () => ctrl.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let res;
    try {
      res = await fetchFn(target, { headers: { Accept: 'application/nostr+json' }, signal: ctrl.signal });
    } catch (err) {
      throw failure(err, timedOut, signal, target);
    }
    if (!res.ok) {
      await res.body?.cancel?.().catch(() => {});
      throw new NostrError('RELAY_INFO_UNAVAILABLE', `${target} answered HTTP ${res.status}`);
    }
    let text;
    try {
      text = await res.text();
    } catch (err) {
      throw failure(err, timedOut, signal, target);
    }
    let doc;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new NostrError('RELAY_INFO_INVALID', `${target} did not send JSON`);
    }
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
      throw new NostrError('RELAY_INFO_INVALID', `${target} did not send a JSON object`);
    return doc;
  } finally {
    clock.clear(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function failure(err, timedOut, signal, target) {
  if (timedOut) return new NostrError('RELAY_TIMEOUT', `${target} did not answer in time`, { cause: err });
  if (signal?.aborted) return new NostrError('ABORTED', 'aborted', { cause: signal.reason });
  return new NostrError('RELAY_INFO_UNAVAILABLE', `${target}: ${err && err.message}`, { cause: err });
}

/**
 * The limits of a NIP-11 document the pool honors: {maxMessageLength, maxSubscriptions,
 * maxFilters}, each a positive integer or undefined.
 */
export function limitsOf(doc) {
  const l = doc && typeof doc.limitation === 'object' && doc.limitation !== null ? doc.limitation : {};
  const pos = (v) => (Number.isSafeInteger(v) && v > 0 ? v : undefined);
  return {
    maxMessageLength: pos(l.max_message_length),
    maxSubscriptions: pos(l.max_subscriptions),
    maxFilters: pos(l.max_filters),
  };
}
