// In-memory event store: for tests, and the fallback when SQLite cannot be loaded.
// Same contract as the SQLite store (see store-sqlite.js): every method is synchronous.
import { deletionTargets } from './nips.js';

// Sort order of query results: newest first, then lowest id.
function before(a, b) {
  return a.created_at > b.created_at || (a.created_at === b.created_at && a.id < b.id);
}

export class MemoryStore {
  constructor() {
    this.kind = 'memory';
    this.byId = new Map(); // id -> record
    this.sorted = []; // records, newest first
    this.byKey = new Map(); // replacement key -> record
    this.tombstones = new Map(); // deleted id -> Set of pubkeys that asked
    this.addressTombstones = new Map(); // address -> created_at of the latest deletion request
  }

  /** Record: { id, pubkey, kind, created_at, json, key?, expiresAt? }. */
  put(rec) {
    if (this.#isDeleted(rec)) return 'deleted';
    if (this.byId.has(rec.id)) return 'duplicate';
    if (rec.key !== undefined) {
      const old = this.byKey.get(rec.key);
      if (old) {
        if (!before(rec, old)) return 'superseded';
        this.#remove(old);
      }
      this.byKey.set(rec.key, rec);
    }
    this.byId.set(rec.id, rec);
    this.sorted.splice(this.#position(rec), 0, rec);
    return 'stored';
  }

  #isDeleted(rec) {
    if (this.tombstones.get(rec.id)?.has(rec.pubkey)) return true;
    if (rec.key !== undefined) {
      const until = this.addressTombstones.get(rec.key);
      if (until !== undefined && rec.created_at <= until) return true;
    }
    return false;
  }

  #position(rec) {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.sorted[mid], rec)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #remove(rec) {
    this.byId.delete(rec.id);
    if (rec.key !== undefined && this.byKey.get(rec.key) === rec) this.byKey.delete(rec.key);
    const i = this.#position(rec);
    if (this.sorted[i] === rec) this.sorted.splice(i, 1);
  }

  /** NIP-09: removes the author's events the request names; returns how many were removed. */
  applyDeletion(del) {
    const { ids, addresses } = deletionTargets(del);
    let removed = 0;
    for (const id of ids) {
      let who = this.tombstones.get(id);
      if (!who) this.tombstones.set(id, (who = new Set()));
      who.add(del.pubkey);
      const rec = this.byId.get(id);
      if (rec && rec.pubkey === del.pubkey && rec.kind !== 5) {
        this.#remove(rec);
        removed++;
      }
    }
    for (const address of addresses) {
      const prev = this.addressTombstones.get(address);
      if (prev === undefined || prev < del.created_at) this.addressTombstones.set(address, del.created_at);
      const rec = this.byKey.get(address);
      if (rec && rec.created_at <= del.created_at) {
        this.#remove(rec);
        removed++;
      }
    }
    return removed;
  }

  /**
   * Stored events matching `filter`, newest first, at most `limit`, skipping those expired at
   * `now`. `match(record)` is the authoritative check (the core's filter matching).
   */
  query(filter, { limit, now, match }) {
    const out = [];
    if (limit <= 0) return out;
    const live = (r) => r.expiresAt === undefined || r.expiresAt > now;
    if (Array.isArray(filter.ids)) {
      for (const id of new Set(filter.ids)) {
        const r = this.byId.get(id);
        if (r && live(r) && match(r)) out.push(r);
      }
      out.sort((a, b) => (before(a, b) ? -1 : 1));
      return out.slice(0, limit);
    }
    const until = Number.isInteger(filter.until) ? filter.until : Infinity;
    const since = Number.isInteger(filter.since) ? filter.since : -Infinity;
    // Skip straight past events newer than `until`.
    let i = 0;
    if (until !== Infinity) {
      let lo = 0;
      let hi = this.sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.sorted[mid].created_at > until) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    for (; i < this.sorted.length && out.length < limit; i++) {
      const r = this.sorted[i];
      if (r.created_at < since) break;
      if (live(r) && match(r)) out.push(r);
    }
    return out;
  }

  purgeExpired(now) {
    let n = 0;
    for (const r of [...this.byId.values()]) {
      if (r.expiresAt !== undefined && r.expiresAt <= now) {
        this.#remove(r);
        n++;
      }
    }
    return n;
  }

  get size() {
    return this.byId.size;
  }

  close() {}
}
