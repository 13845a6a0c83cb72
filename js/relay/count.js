// NIP-45 COUNT on one relay of a pool: sends ["COUNT", id, ...filters] and waits for the relay's
// ["COUNT", id, {count, hll?}] (or its CLOSED). The pool hands COUNT and CLOSED frames of a pending
// count to the wait registered here (pool._countWaits), keyed by relay and sub id.
import { NostrError } from '../errors.js';
import { encodeCount } from './codec.js';
import { CLOSED, TIMEOUT, abortError } from './wait.js';

let nextCount = 0;

/** The key of a pending count in pool._countWaits. */
export const countKey = (conn, subId) => `${conn.idx} ${subId}`;

/**
 * Counts the events matching `filters` on `url`: {count, approximate, hll?} (hll: the NIP-45
 * HyperLogLog registers as 512 hex digits, when the relay sent them). Rejects with
 * RELAY_UNREACHABLE, RELAY_TIMEOUT, RELAY_CLOSED (the relay refused), POOL_CLOSED or ABORTED.
 */
export async function countOn(pool, url, filters, { id, timeout, signal } = {}) {
  pool._ensureOpen();
  timeout ??= pool._opts.publishTimeout; // the core's default, known once the pool is open
  if (signal?.aborted) throw abortError(signal);
  const list = Array.isArray(filters) ? filters : [filters];
  const subId = typeof id === 'string' && id.length > 0 ? id : `count:${(++nextCount).toString(36)}`;
  const frame = encodeCount(subId, list); // INVALID_FILTER, INVALID_ARGUMENT
  const conn = pool._conn(url);
  const clock = pool._clock;
  const deadline = clock.now() + timeout;
  conn.holds++;
  try {
    const open = await conn.whenOpen(deadline, signal);
    if (open === CLOSED) throw new NostrError('POOL_CLOSED', 'the pool was closed');
    if (open !== true) throw new NostrError('RELAY_UNREACHABLE', `${conn.url}: ${conn.lastError ? conn.lastError.message : 'could not connect'}`);
    const waits = (pool._countWaits ??= new Map());
    const key = countKey(conn, subId);
    if (waits.has(key)) throw new NostrError('INVALID_ARGUMENT', `a COUNT with id ${subId} is already pending on ${conn.url}`);
    const w = clock.wait(deadline, signal);
    waits.set(key, w);
    const done = () => waits.delete(key);
    w.promise.then(done, done);
    if (!conn.send(frame)) w.fire({ lost: true });
    const r = await w.promise;
    if (r === CLOSED) throw new NostrError('POOL_CLOSED', 'the pool was closed');
    if (r === TIMEOUT) throw new NostrError('RELAY_TIMEOUT', `${conn.url} did not answer COUNT within the timeout`);
    if (r.lost) throw new NostrError('RELAY_CONNECTION_LOST', `${conn.url}: connection lost before COUNT`);
    if (r.closed) {
      const err = new NostrError('RELAY_CLOSED', `${conn.url} refused COUNT: ${r.closed.message || r.closed.reason}`);
      err.reason = r.closed.reason;
      throw err;
    }
    const out = { count: r.count, approximate: r.approximate };
    const hll = hllOf(r.frame);
    if (hll !== undefined) out.hll = hll;
    return out;
  } finally {
    conn.holds--;
    pool._release(conn);
  }
}

// The core reads count and approximate; the optional NIP-45 `hll` field is read here from the
// (small) COUNT frame, kept only when it has the 256 registers' 512 lowercase hex digits.
function hllOf(frame) {
  try {
    const hll = JSON.parse(frame)[2]?.hll;
    return typeof hll === 'string' && /^[0-9a-f]{512}$/.test(hll) ? hll : undefined;
  } catch {
    return undefined;
  }
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
