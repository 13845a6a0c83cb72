// Chooses the event store: SQLite (better-sqlite3, else node:sqlite) by default, memory on request,
// or as the fallback only where no database was asked for.
import { MemoryStore } from './store-memory.js';
import { SqliteStore, loadSqlite, SQLITE_FIX } from './store-sqlite.js';

export { MemoryStore, SqliteStore, SQLITE_FIX };

/**
 * `{memory: true}`: the JS in-memory store. Otherwise SQLite in `db` (a file path; an in-memory
 * SQLite database when omitted). When SQLite cannot be loaded: with a `db` file, throws NostrError
 * RELAY_STORE_UNAVAILABLE (its message names the fix), never silently keeping events in memory;
 * without one, says so through `log` (or console.warn) and returns a MemoryStore.
 */
export function openStore({ db, memory, log } = {}) {
  if (memory) return new MemoryStore();
  try {
    loadSqlite();
  } catch (err) {
    if (db !== undefined && db !== ':memory:') throw err;
    const warn = typeof log === 'function' ? log : (m) => console.warn(m);
    warn(`nostr-agents relay: ${err.message}; events are kept in memory only and nothing persists.`);
    return new MemoryStore();
  }
  return new SqliteStore(db ?? ':memory:');
}
