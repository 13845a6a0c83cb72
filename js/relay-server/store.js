// Chooses the event store: SQLite (better-sqlite3) by default, memory on request or as a fallback.
import { MemoryStore } from './store-memory.js';
import { SqliteStore, loadSqlite } from './store-sqlite.js';

export { MemoryStore, SqliteStore };

/**
 * `{memory: true}`: the JS in-memory store. Otherwise SQLite in `db` (a file path; an in-memory
 * SQLite database when omitted). When better-sqlite3 cannot be loaded, warns once through `log`
 * (or console.warn) and returns a MemoryStore.
 */
export function openStore({ db, memory, log } = {}) {
  if (memory) return new MemoryStore();
  try {
    loadSqlite();
  } catch (err) {
    const warn = typeof log === 'function' ? log : (m) => console.warn(m);
    warn(
      `nostr-agents relay: SQLite is unavailable (better-sqlite3 could not be loaded: ${String(err && err.message).split('\n')[0]}); ` +
        'falling back to the in-memory store, events will not persist. Install it with `npm install better-sqlite3@12`.',
    );
    return new MemoryStore();
  }
  return new SqliteStore(db ?? ':memory:');
}
