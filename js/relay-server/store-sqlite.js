// SQLite event store (synchronous, one connection per relay), through better-sqlite3 when it is
// installed, else Node's built-in node:sqlite (Node >= 22.13 without a flag).
// Contract shared with MemoryStore: put(record) -> 'stored' | 'duplicate' | 'superseded' |
// 'deleted'; applyDeletion(event); query(filter, {limit, now, match}); purgeExpired(now); close().
import { createRequire } from 'node:module';
import { NostrError } from '../errors.js';
import { deletionTargets, isTagKey } from './nips.js';

const require = createRequire(import.meta.url);

/** The command that makes SQLite available where it is not. */
export const SQLITE_FIX = 'npm install better-sqlite3@12';

// node:sqlite's DatabaseSync with the few better-sqlite3 methods the store uses.
class NodeSqliteDatabase {
  #db;
  #open = true;
  constructor(DatabaseSync, file) {
    this.#db = new DatabaseSync(file);
  }
  get open() {
    return this.#open;
  }
  prepare(sql) {
    return this.#db.prepare(sql);
  }
  exec(sql) {
    this.#db.exec(sql);
  }
  pragma(text) {
    this.#db.exec(`PRAGMA ${text}`);
  }
  transaction(fn) {
    return (...args) => {
      this.#db.exec('BEGIN');
      try {
        const out = fn(...args);
        this.#db.exec('COMMIT');
        return out;
      } catch (err) {
        this.#db.exec('ROLLBACK');
        throw err;
      }
    };
  }
  close() {
    if (!this.#open) return;
    this.#open = false;
    this.#db.close();
  }
}

let driver;
let loadError;

/**
 * The SQLite driver: { name: 'better-sqlite3' | 'node:sqlite', open(file) }. Throws a NostrError
 * RELAY_STORE_UNAVAILABLE, with both reasons and the command that fixes it, when neither loads.
 */
export function loadSqlite() {
  if (driver) return driver;
  if (loadError) throw loadError;
  const reasons = [];
  try {
    const Database = require('better-sqlite3');
    driver = { name: 'better-sqlite3', open: (file) => new Database(file) };
    return driver;
  } catch (err) {
    reasons.push(`better-sqlite3 could not be loaded (${String(err?.message).split('\n')[0]})`);
  }
  try {
    const { DatabaseSync } = require('node:sqlite');
    if (typeof DatabaseSync?.prototype?.prepare !== 'function') throw new Error('no DatabaseSync');
    driver = { name: 'node:sqlite', open: (file) => new NodeSqliteDatabase(DatabaseSync, file) };
    return driver;
  } catch (err) {
    reasons.push(`this Node (${process.version}) has no usable node:sqlite, built in from Node 22.13 (${String(err?.message).split('\n')[0]})`);
  }
  loadError = new NostrError('RELAY_STORE_UNAVAILABLE', `SQLite is unavailable: ${reasons.join('; ')}. Fix: \`${SQLITE_FIX}\` (or run on Node >= 22.13)`);
  throw loadError;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  pubkey TEXT NOT NULL,
  kind INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  rkey TEXT,
  json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_created ON events (created_at DESC, id);
CREATE INDEX IF NOT EXISTS events_pubkey ON events (pubkey, created_at DESC);
CREATE INDEX IF NOT EXISTS events_kind ON events (kind, created_at DESC);
CREATE UNIQUE INDEX IF NOT EXISTS events_rkey ON events (rkey) WHERE rkey IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_expires ON events (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS tags (
  rid INTEGER NOT NULL REFERENCES events (rid) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tags_value ON tags (name, value, rid);
CREATE INDEX IF NOT EXISTS tags_rid ON tags (rid);
CREATE TABLE IF NOT EXISTS tombstones (
  id TEXT NOT NULL,
  pubkey TEXT NOT NULL,
  PRIMARY KEY (id, pubkey)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS address_tombstones (
  address TEXT PRIMARY KEY,
  until INTEGER NOT NULL
) WITHOUT ROWID;
`;

export class SqliteStore {
  /** `file`: a path, or ':memory:' for a private in-memory database. */
  constructor(file = ':memory:') {
    const sqlite = loadSqlite();
    this.kind = 'sqlite';
    /** 'better-sqlite3' or 'node:sqlite'. */
    this.driver = sqlite.name;
    this.file = file;
    this.db = sqlite.open(file);
    if (file !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    const db = this.db;
    this.s = {
      tomb: db.prepare('SELECT 1 FROM tombstones WHERE id = ? AND pubkey = ?'),
      addrTomb: db.prepare('SELECT until FROM address_tombstones WHERE address = ?'),
      exists: db.prepare('SELECT 1 FROM events WHERE id = ?'),
      byKey: db.prepare('SELECT rid, id, created_at FROM events WHERE rkey = ?'),
      byId: db.prepare('SELECT rid, pubkey, kind FROM events WHERE id = ?'),
      delete: db.prepare('DELETE FROM events WHERE rid = ?'),
      insert: db.prepare(
        'INSERT INTO events (id, pubkey, kind, created_at, expires_at, rkey, json) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      tag: db.prepare('INSERT INTO tags (rid, name, value) VALUES (?, ?, ?)'),
      addTomb: db.prepare('INSERT OR IGNORE INTO tombstones (id, pubkey) VALUES (?, ?)'),
      addAddrTomb: db.prepare(
        'INSERT INTO address_tombstones (address, until) VALUES (?, ?) ' +
          'ON CONFLICT (address) DO UPDATE SET until = max(until, excluded.until)',
      ),
      purge: db.prepare('DELETE FROM events WHERE expires_at IS NOT NULL AND expires_at <= ?'),
      count: db.prepare('SELECT count(*) AS n FROM events'),
    };
    this.put = db.transaction((rec) => this.#put(rec));
    this.applyDeletion = db.transaction((del) => this.#applyDeletion(del));
    this.queries = new Map(); // SQL text -> prepared statement
  }

  #put(rec) {
    const s = this.s;
    if (s.tomb.get(rec.id, rec.pubkey)) return 'deleted';
    if (rec.key !== undefined) {
      const t = s.addrTomb.get(rec.key);
      if (t && rec.created_at <= t.until) return 'deleted';
    }
    if (s.exists.get(rec.id)) return 'duplicate';
    if (rec.key !== undefined) {
      const old = s.byKey.get(rec.key);
      if (old) {
        const newer = rec.created_at > old.created_at || (rec.created_at === old.created_at && rec.id < old.id);
        if (!newer) return 'superseded';
        s.delete.run(old.rid);
      }
    }
    const { lastInsertRowid: rid } = s.insert.run(
      rec.id,
      rec.pubkey,
      rec.kind,
      rec.created_at,
      rec.expiresAt ?? null,
      rec.key ?? null,
      rec.json,
    );
    const seen = new Set();
    for (const t of rec.tags) {
      if (t.length < 2 || t[0].length !== 1 || t[0].charCodeAt(0) >= 128) continue;
      const k = t[0] + '\u0000' + t[1];
      if (seen.has(k)) continue;
      seen.add(k);
      s.tag.run(rid, t[0], t[1]);
    }
    return 'stored';
  }

  #applyDeletion(del) {
    const s = this.s;
    const { ids, addresses } = deletionTargets(del);
    let removed = 0;
    for (const id of ids) {
      s.addTomb.run(id, del.pubkey);
      const row = s.byId.get(id);
      if (row && row.pubkey === del.pubkey && row.kind !== 5) removed += s.delete.run(row.rid).changes;
    }
    for (const address of addresses) {
      s.addAddrTomb.run(address, del.created_at);
      const row = s.byKey.get(address);
      if (row && row.created_at <= del.created_at) removed += s.delete.run(row.rid).changes;
    }
    return removed;
  }

  query(filter, { limit, now, match }) {
    if (limit <= 0) return [];
    const where = ['(e.expires_at IS NULL OR e.expires_at > ?)'];
    const params = [now];
    const list = (column, values) => {
      where.push(`${column} IN (SELECT value FROM json_each(?))`);
      params.push(JSON.stringify(values));
    };
    for (const [key, v] of Object.entries(filter)) {
      if (key === 'ids' || key === 'authors' || key === 'kinds') {
        if (v.length === 0) return [];
        list(key === 'ids' ? 'e.id' : key === 'authors' ? 'e.pubkey' : 'e.kind', v);
      } else if (key === 'since') {
        where.push('e.created_at >= ?');
        params.push(v);
      } else if (key === 'until') {
        where.push('e.created_at <= ?');
        params.push(v);
      } else if (isTagKey(key)) {
        if (v.length === 0) return [];
        where.push('e.rid IN (SELECT rid FROM tags WHERE name = ? AND value IN (SELECT value FROM json_each(?)))');
        params.push(key[1], JSON.stringify(v));
      }
    }
    const sql = `SELECT e.id, e.created_at, e.json FROM events e WHERE ${where.join(' AND ')} ORDER BY e.created_at DESC, e.id ASC LIMIT ?`;
    params.push(Number.isFinite(limit) ? limit : -1); // -1: no limit (COUNT)
    let stmt = this.queries.get(sql);
    if (!stmt) {
      if (this.queries.size > 200) this.queries.clear();
      stmt = this.db.prepare(sql);
      this.queries.set(sql, stmt);
    }
    const out = [];
    for (const row of stmt.iterate(...params)) if (match(row)) out.push(row);
    return out;
  }

  purgeExpired(now) {
    return this.s.purge.run(now).changes;
  }

  get size() {
    return this.s.count.get().n;
  }

  close() {
    if (this.db.open) this.db.close();
  }
}
