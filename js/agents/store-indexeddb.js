// IndexedDbRunStore: the run store of a web page. Two object stores in one database: `runs`
// (records by id) and `events` (entries in arrival order, indexed by run id). Each method is one
// transaction, so a reload never sees half a change.
import { NostrError } from '../errors.js';

const VERSION = 1;

function req(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(new NostrError('STORE_FAILED', String(r.error?.message ?? r.error)));
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(new NostrError('STORE_FAILED', String(tx.error?.message ?? tx.error ?? 'transaction aborted')));
  });
}

export class IndexedDbRunStore {
  /** `name`: the database name. `indexedDB`: the factory (default: globalThis.indexedDB). */
  constructor(name = 'nostr-agents-runs', { indexedDB } = {}) {
    const factory = indexedDB ?? globalThis.indexedDB;
    if (!factory) throw new NostrError('NOT_SUPPORTED', 'IndexedDbRunStore: no indexedDB here (use FileRunStore in Node)');
    if (typeof name !== 'string' || name.length === 0) throw new NostrError('INVALID_ARGUMENT', 'IndexedDbRunStore: name must be a non-empty string');
    this.name = name;
    this._factory = factory;
    this._db = null;
  }

  _open() {
    if (!this._db) {
      const r = this._factory.open(this.name, VERSION);
      r.onupgradeneeded = () => {
        const db = r.result;
        if (!db.objectStoreNames.contains('runs')) db.createObjectStore('runs', { keyPath: 'id' });
        if (!db.objectStoreNames.contains('events')) db.createObjectStore('events', { autoIncrement: true }).createIndex('run', 'run');
      };
      this._db = req(r);
      this._db.catch(() => (this._db = null));
    }
    return this._db;
  }

  async _tx(stores, mode, fn) {
    const db = await this._open();
    const tx = db.transaction(stores, mode);
    const finished = done(tx);
    finished.catch(() => {}); // awaited below unless fn fails first
    let value;
    try {
      value = await fn(tx);
    } catch (err) {
      try {
        tx.abort();
      } catch {
        // already finished or aborted
      }
      throw err;
    }
    await finished;
    return value;
  }

  putRun(record) {
    return this._tx(['runs'], 'readwrite', (tx) => {
      tx.objectStore('runs').put(JSON.parse(JSON.stringify(record)));
    });
  }

  appendEvent(id, entry) {
    return this._tx(['runs', 'events'], 'readwrite', async (tx) => {
      const found = await req(tx.objectStore('runs').getKey(id));
      if (found === undefined) throw new NostrError('NOT_FOUND', `no run ${id} in the store`);
      tx.objectStore('events').add({ run: id, entry: JSON.parse(JSON.stringify(entry)) });
    });
  }

  getRun(id) {
    return this._tx(['runs', 'events'], 'readonly', async (tx) => {
      const record = await req(tx.objectStore('runs').get(id));
      if (!record) return null;
      const rows = await req(tx.objectStore('events').index('run').getAll(id));
      return { ...record, events: rows.map((r) => r.entry) };
    });
  }

  listRuns() {
    return this._tx(['runs'], 'readonly', (tx) => req(tx.objectStore('runs').getAll()));
  }

  deleteRun(id) {
    return this._tx(['runs', 'events'], 'readwrite', async (tx) => {
      tx.objectStore('runs').delete(id);
      const keys = await req(tx.objectStore('events').index('run').getAllKeys(id));
      for (const k of keys) tx.objectStore('events').delete(k);
    });
  }

  /** Closes the database connection (a later call opens it again). */
  async close() {
    const db = this._db ? await this._db.catch(() => null) : null;
    this._db = null;
    if (db) db.close();
  }
}
