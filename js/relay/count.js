// NIP-45 COUNT on one relay of a pool. The core's relay machine decides every step
// (src/relay/subscriptions_count.cpp: connect, send, the relay's COUNT or CLOSED, AUTH, the
// deadline); the pool runs its actions, and its count-done action settles the promise here.
import { NostrError } from '../errors.js';
import { abortError } from './wait.js';

let nextCount = 0;

/**
 * Counts the events matching `filters` on `url`: {count, approximate, hll?} (hll: the NIP-45
 * HyperLogLog registers as 512 hex digits, when the relay sent them). Rejects with
 * RELAY_UNREACHABLE, RELAY_CONNECTION_LOST, RELAY_TIMEOUT, RELAY_CLOSED (the relay refused; `reason`
 * names why), POOL_CLOSED or ABORTED.
 */
export async function countOn(pool, url, filters, { id, timeout, signal } = {}) {
  pool._ensureOpen();
  timeout ??= pool._opts.publishTimeout; // the core's default, known once the pool is open
  if (signal?.aborted) throw abortError(signal);
  const list = Array.isArray(filters) ? filters : [filters];
  const n = ++nextCount;
  const subId = typeof id === 'string' && id.length > 0 ? id : `count:${n.toString(36)}`;
  const conn = pool._conn(url);
  const now = pool._clock.now();
  const waits = (pool._counts ??= new Map());
  const entry = { conn, signal, onAbort: null, resolve: null, reject: null };
  const done = new Promise((resolve, reject) => Object.assign(entry, { resolve, reject }));
  waits.set(n, entry);
  try {
    // INVALID_FILTER, RELAY_SUB_ID_INVALID, INVALID_ARGUMENT (a COUNT with this id already waits there)
    pool._machine.count(n, conn.idx, subId, list, now, timeout === Infinity ? -1 : now + timeout);
  } catch (err) {
    waits.delete(n);
    pool._release(conn);
    throw err;
  }
  if (signal) {
    entry.onAbort = () => {
      if (pool._closed || !waits.has(n)) return;
      pool._machine.abortCount(n);
      pool._run();
    };
    signal.addEventListener('abort', entry.onAbort, { once: true });
  }
  pool._run();
  return done;
}

/** The pool's count-done action: the COUNT's result, or its error. */
export function countDone(pool, a) {
  const entry = pool._counts?.get(a.countId);
  if (!entry) return;
  pool._counts.delete(a.countId);
  entry.signal?.removeEventListener('abort', entry.onAbort);
  const { conn } = entry;
  if (a.code === undefined) {
    const out = { count: a.count, approximate: a.approximate };
    if (a.hll !== undefined) out.hll = a.hll;
    entry.resolve(out);
  } else if (a.code === 'ABORTED') {
    entry.reject(abortError(entry.signal));
  } else {
    const detail = a.detail || `${conn.url}: ${conn.lastError ? conn.lastError.message : 'could not connect'}`;
    const err = new NostrError(a.code, detail);
    if (a.reason !== undefined) err.reason = a.reason;
    entry.reject(err);
  }
  if (!pool._closed) pool._release(conn);
}

/** Merges NIP-45 HyperLogLog registers (hex): the maximum of each register. */
export function mergeHllHex(a, b) {
  if (a === undefined) return b;
  let out = '';
  for (let i = 0; i < 512; i += 2) {
    const x = parseInt(a.slice(i, i + 2), 16);
    const y = parseInt(b.slice(i, i + 2), 16);
    out += (x >= y ? a : b).slice(i, i + 2);
  }
  return out;
}
