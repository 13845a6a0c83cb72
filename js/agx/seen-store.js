// SeenStore: where an AgxClient keeps what it processed (rumor and wrap ids, each with an expiry),
// its inbox cursor, and the tasks it accepted but has not answered yet, so a restart processes
// nothing twice and loses nothing. The replay rules themselves are the core's (an in-memory store
// in wasm); a SeenStore is its durable mirror:
//   load()              -> { entries: [[idHex, expiresAt], ...], cursor: number | null, tasks: [record, ...] }
//   append(entries)     records marks (called before the event is acted on)
//   setCursor(seconds)  records the inbox cursor after a complete poll
//   putTask(record)     records (replaces) a task record, durably, before acting on it
//   deleteTask(id)      forgets a task record (one that can no longer run)
//   close()
// A task record (exactly-once task results across crashes): { id: rumor id, state: 'accepted' |
// 'done', wrap: the task request's gift wrap as received (to run it again: only ciphertext is kept,
// never the payload in the clear), to: the requester, runs, expiresAt, result: the result's gift
// wrap once 'done' (recorded BEFORE it is published, so a crash between the two republishes the
// same event). An 'accepted' record at load means the handler was cut short: the client runs it
// again (ctx.redelivered); a 'done' one means the result may not have gone out: it is republished;
// a 'sent' one (its result went out; `wrap` is then only {id}) is kept until expiresAt, the request
// wrap's expiration, so the request stays a replay for as long as a poll can fetch it.
// A store without putTask still works, at most once (a task cut short by a crash is lost).
// Three implementations: MemorySeenStore (the default; survives a client, not a process),
// FileSeenStore (Node: an fsynced append log plus an atomically replaced snapshot, both 0600) and
// IndexedDbSeenStore (browsers).
import { NostrError } from '../errors.js';

const ID = /^[0-9a-f]{64}$/;

function nowS() {
  return Math.floor(Date.now() / 1000);
}

function checkEntries(entries) {
  if (!Array.isArray(entries)) throw new NostrError('INVALID_ARGUMENT', 'entries must be an array of [id, expiresAt]');
  for (const e of entries)
    if (!Array.isArray(e) || typeof e[0] !== 'string' || !ID.test(e[0]) || !Number.isSafeInteger(e[1]))
      throw new NostrError('INVALID_ARGUMENT', 'each entry must be [64 lowercase hex, integer seconds]');
}

const TASK_STATES = new Set(['accepted', 'done', 'sent']);

function isWrapLike(w) {
  return w !== null && typeof w === 'object' && typeof w.id === 'string' && ID.test(w.id);
}

function validTask(r) {
  return (
    r !== null &&
    typeof r === 'object' &&
    typeof r.id === 'string' &&
    ID.test(r.id) &&
    TASK_STATES.has(r.state) &&
    Number.isSafeInteger(r.expiresAt) &&
    isWrapLike(r.wrap) &&
    typeof r.to === 'string' &&
    ID.test(r.to) &&
    (r.state !== 'done' || isWrapLike(r.result))
  );
}

function checkTask(r) {
  if (!validTask(r))
    throw new NostrError('INVALID_ARGUMENT', "a task record needs id and to (64 hex), state 'accepted', 'done' or 'sent', expiresAt, wrap, and result when done");
}

function checkTaskId(id) {
  if (typeof id !== 'string' || !ID.test(id)) throw new NostrError('INVALID_ARGUMENT', 'a task id is 64 lowercase hex');
}

function countOpen(map) {
  let n = 0;
  for (const r of map.values()) if (r.state !== 'sent') n++;
  return n;
}

/** Live task records (expired ones left out), as plain copies. */
function liveTasks(map, now) {
  const out = [];
  for (const [id, r] of map) {
    if (r.expiresAt <= now) map.delete(id);
    else out.push(structuredClone(r));
  }
  return out;
}

function checkCursor(cursor) {
  if (!Number.isSafeInteger(cursor) || cursor < 0) throw new NostrError('INVALID_ARGUMENT', 'cursor must be non-negative integer seconds');
}

/** Keeps the later expiry of an id; forgets expired ones. */
function merge(map, entries, now) {
  for (const [id, exp] of entries) {
    if (exp <= now) continue;
    const old = map.get(id);
    if (old === undefined || exp > old) map.set(id, exp);
  }
}

/**
 * In memory: shared by the clients given the same object (a client restart, not a process one).
 * Bounded: at most `cap` ids and `cap` task records (default 200 000 each, the core's default); at
 * the cap, expired entries are dropped, and if that is not enough the write fails with
 * AGX_OVERLOADED (a client reports it to onError; it never forgets an id to make room).
 */
export class MemorySeenStore {
  #map = new Map();
  #tasks = new Map();
  #cursor = null;
  #cap;
  constructor({ cap = 200000 } = {}) {
    if (!Number.isSafeInteger(cap) || cap < 1) throw new NostrError('INVALID_ARGUMENT', 'cap must be an integer >= 1');
    this.#cap = cap;
  }
  #room(map, n) {
    if (map.size + n <= this.#cap) return;
    const now = nowS();
    for (const [id, v] of map) if ((typeof v === 'number' ? v : v.expiresAt) <= now) map.delete(id);
    if (map.size + n > this.#cap) throw new NostrError('AGX_OVERLOADED', `the seen store is full (${this.#cap} entries)`);
  }
  async load() {
    const now = nowS();
    for (const [id, exp] of this.#map) if (exp <= now) this.#map.delete(id);
    return { entries: [...this.#map], cursor: this.#cursor, tasks: liveTasks(this.#tasks, now) };
  }
  async append(entries) {
    checkEntries(entries);
    this.#room(this.#map, entries.filter(([id]) => !this.#map.has(id)).length);
    merge(this.#map, entries, nowS());
  }
  async setCursor(cursor) {
    checkCursor(cursor);
    this.#cursor = cursor;
  }
  async putTask(record) {
    checkTask(record);
    if (!this.#tasks.has(record.id)) this.#room(this.#tasks, 1);
    this.#tasks.set(record.id, structuredClone(record));
  }
  async deleteTask(id) {
    checkTaskId(id);
    this.#tasks.delete(id);
  }
  get size() {
    return this.#map.size;
  }
  /** Task records that still need action (accepted, or done and not yet known to be published). */
  get taskCount() {
    return countOpen(this.#tasks);
  }
  /** Task records kept after their result went out ('sent'), until the request wrap expires. */
  get sentTaskCount() {
    return this.#tasks.size - countOpen(this.#tasks);
  }
  async close() {}
}

// Node-only modules, named at run time: a browser bundle must neither pull them in nor name them
// (FileSeenStore is the one Node-only class of the agx namespace; its load() is what imports them).
const FS = /* @__PURE__ */ ['node', 'fs/promises'].join(':');
const HELD = new Set(); // directories a FileSeenStore of this process holds
const PATH = /* @__PURE__ */ ['node', 'path'].join(':');

/**
 * Node: `<dir>/seen.json` (snapshot: {"v":2,"cursor":n|null,"seen":[[id,exp],...],"tasks":[record,...]};
 * version 1, without tasks, is still read; replaced atomically: written to a temporary file,
 * fsynced, renamed, directory fsynced) and `<dir>/seen.log` (one JSON line per append, cursor move
 * or task record: {"s":[...]}, {"c":n}, {"p":record}, {"d":id}; fsynced before the call resolves,
 * except a deleteTask: losing one only republishes an identical result event). Both mode 0600, the
 * directory 0700. A torn last log line (a crash mid-write) is ignored; the log is folded into the
 * snapshot every `compactEvery` lines. One writer per directory: `seen.lock` (the writer's pid) makes
 * a second live one fail with AGX_SEEN_STORE_LOCKED; the lock of a process that died is taken over.
 */
export class FileSeenStore {
  #dir;
  #compactEvery;
  #map = new Map();
  #tasks = new Map();
  #cursor = null;
  #fs = null;
  #path = null;
  #log = null;
  #lines = 0;
  #queue = Promise.resolve();
  #closed = false;
  #locked = false;

  constructor(dir, { compactEvery = 4096 } = {}) {
    if (typeof dir !== 'string' || dir === '') throw new NostrError('INVALID_ARGUMENT', 'FileSeenStore needs a directory path');
    this.#dir = dir;
    this.#compactEvery = compactEvery;
  }

  get directory() {
    return this.#dir;
  }

  #file(name) {
    return this.#path.join(this.#dir, name);
  }

  // One operation at a time, in order.
  #serial(fn) {
    const run = this.#queue.then(() => {
      if (this.#closed) throw new NostrError('AGX_CLOSED', 'the seen store was closed');
      return fn();
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  async load() {
    return this.#serial(async () => {
      if (!this.#fs) {
        this.#fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ FS);
        this.#path = await import(/* @vite-ignore */ /* webpackIgnore: true */ PATH);
      }
      const fs = this.#fs;
      await fs.mkdir(this.#dir, { recursive: true, mode: 0o700 });
      if (!this.#locked) await this.#lock();
      const now = nowS();
      this.#map.clear();
      this.#tasks.clear();
      this.#cursor = null;
      let snap = null;
      try {
        snap = JSON.parse(await fs.readFile(this.#file('seen.json'), 'utf8'));
      } catch (err) {
        if (err.code !== 'ENOENT') throw new NostrError('AGX_SEEN_STORE', `cannot read ${this.#file('seen.json')}: ${err.message}`, { cause: err });
      }
      if (snap) {
        if ((snap.v !== 1 && snap.v !== 2) || !Array.isArray(snap.seen)) throw new NostrError('AGX_SEEN_STORE', 'seen.json is not a seen-store snapshot');
        merge(this.#map, snap.seen.filter((e) => Array.isArray(e) && ID.test(e[0]) && Number.isSafeInteger(e[1])), now);
        if (Number.isSafeInteger(snap.cursor)) this.#cursor = snap.cursor;
        if (snap.v === 2 && Array.isArray(snap.tasks)) for (const r of snap.tasks) if (validTask(r)) this.#tasks.set(r.id, r);
      }
      let log = '';
      try {
        log = await fs.readFile(this.#file('seen.log'), 'utf8');
      } catch (err) {
        if (err.code !== 'ENOENT') throw new NostrError('AGX_SEEN_STORE', `cannot read the log: ${err.message}`, { cause: err });
      }
      this.#lines = 0;
      for (const line of log.split('\n')) {
        if (!line) continue;
        let rec;
        try {
          rec = JSON.parse(line);
        } catch {
          continue; // a torn write at the end
        }
        this.#lines++;
        if (Array.isArray(rec.s)) merge(this.#map, rec.s.filter((e) => Array.isArray(e) && ID.test(e[0]) && Number.isSafeInteger(e[1])), now);
        if (Number.isSafeInteger(rec.c) && (this.#cursor === null || rec.c > this.#cursor)) this.#cursor = rec.c;
        if (validTask(rec.p)) this.#tasks.set(rec.p.id, rec.p);
        if (typeof rec.d === 'string') this.#tasks.delete(rec.d);
      }
      const tasks = liveTasks(this.#tasks, now);
      await this.#compact(); // starts every run from one snapshot and an empty log
      this.#log = await fs.open(this.#file('seen.log'), 'a', 0o600);
      return { entries: [...this.#map], cursor: this.#cursor, tasks };
    });
  }

  // One writer per directory: seen.lock holds the writer's pid. A lock whose process is gone (a
  // crash, SIGKILL) is taken over; a live one is AGX_SEEN_STORE_LOCKED.
  async #lock() {
    const fs = this.#fs;
    const file = this.#file('seen.lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fh = await fs.open(file, 'wx', 0o600);
        await fh.writeFile(String(process.pid));
        await fh.close();
        this.#locked = true;
        HELD.add(this.#path.resolve(this.#dir));
        return;
      } catch (err) {
        if (err.code !== 'EEXIST') throw new NostrError('AGX_SEEN_STORE', `cannot lock ${file}: ${err.message}`, { cause: err });
      }
      const pid = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
      let alive = pid === process.pid && HELD.has(this.#path.resolve(this.#dir));
      if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid) {
        try {
          process.kill(pid, 0);
          alive = true;
        } catch (err) {
          alive = err.code === 'EPERM';
        }
      }
      if (alive) throw new NostrError('AGX_SEEN_STORE_LOCKED', `${this.#dir} is in use by process ${pid}`);
      await fs.unlink(file).catch(() => {});
    }
    throw new NostrError('AGX_SEEN_STORE_LOCKED', `could not lock ${this.#dir}`);
  }

  async #compact() {
    const fs = this.#fs;
    const now = nowS();
    for (const [id, exp] of this.#map) if (exp <= now) this.#map.delete(id);
    const tasks = liveTasks(this.#tasks, now);
    const tmp = this.#file(`seen.json.${process.pid}.tmp`);
    const fh = await fs.open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(JSON.stringify({ v: 2, cursor: this.#cursor, seen: [...this.#map], tasks }));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.rename(tmp, this.#file('seen.json'));
    await this.#syncDir();
    if (this.#log) {
      await this.#log.truncate(0);
      await this.#log.sync();
    } else {
      const lf = await fs.open(this.#file('seen.log'), 'w', 0o600);
      await lf.sync();
      await lf.close();
    }
    this.#lines = 0;
  }

  async #syncDir() {
    try {
      const d = await this.#fs.open(this.#dir, 'r');
      try {
        await d.sync();
      } finally {
        await d.close();
      }
    } catch {
      // platforms without directory fsync
    }
  }

  async #write(rec, sync = true) {
    if (!this.#log) throw new NostrError('AGX_SEEN_STORE', 'call load() first');
    await this.#log.appendFile(`${JSON.stringify(rec)}\n`);
    if (sync) await this.#log.sync();
    if (++this.#lines >= this.#compactEvery) await this.#compact();
  }

  async append(entries) {
    checkEntries(entries);
    if (entries.length === 0) return;
    return this.#serial(async () => {
      merge(this.#map, entries, nowS());
      await this.#write({ s: entries });
    });
  }

  async setCursor(cursor) {
    checkCursor(cursor);
    return this.#serial(async () => {
      this.#cursor = cursor;
      await this.#write({ c: cursor });
    });
  }

  async putTask(record) {
    checkTask(record);
    const copy = structuredClone(record);
    return this.#serial(async () => {
      this.#tasks.set(copy.id, copy);
      await this.#write({ p: copy });
    });
  }

  async deleteTask(id) {
    checkTaskId(id);
    return this.#serial(async () => {
      if (!this.#tasks.delete(id)) return;
      await this.#write({ d: id }, false);
    });
  }

  get size() {
    return this.#map.size;
  }

  get taskCount() {
    return countOpen(this.#tasks);
  }

  get sentTaskCount() {
    return this.#tasks.size - countOpen(this.#tasks);
  }

  async close() {
    await this.#serial(async () => {
      if (this.#log) await this.#log.close();
      this.#log = null;
      if (this.#locked) {
        await this.#fs.unlink(this.#file('seen.lock')).catch(() => {});
        HELD.delete(this.#path.resolve(this.#dir));
      }
      this.#locked = false;
    }).catch(() => {});
    this.#closed = true;
  }
}

function req(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(new NostrError('AGX_SEEN_STORE', `IndexedDB: ${r.error?.message ?? 'request failed'}`));
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(new NostrError('AGX_SEEN_STORE', `IndexedDB: ${tx.error?.message ?? 'transaction failed'}`));
  });
}

/**
 * Browsers: an IndexedDB database (default name "nostr-agents-agx-seen"; one per identity) with an
 * object store "seen" (key: id, value: expiresAt), "meta" (the cursor) and, from version 2,
 * "tasks" (key: rumor id, value: the task record; a version-1 database is upgraded in place, its
 * entries kept). Each write is one transaction, resolved once committed. options: name, indexedDB
 * (defaults to globalThis.indexedDB).
 */
export class IndexedDbSeenStore {
  #name;
  #idb;
  #db = null;
  constructor({ name = 'nostr-agents-agx-seen', indexedDB } = {}) {
    this.#name = String(name);
    this.#idb = indexedDB ?? globalThis.indexedDB;
    if (!this.#idb) throw new NostrError('AGX_SEEN_STORE', 'IndexedDB is not available here');
  }
  async #open() {
    if (this.#db) return this.#db;
    const r = this.#idb.open(this.#name, 2);
    r.onupgradeneeded = () => {
      const db = r.result;
      if (!db.objectStoreNames.contains('seen')) db.createObjectStore('seen');
      if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta');
      if (!db.objectStoreNames.contains('tasks')) db.createObjectStore('tasks');
    };
    this.#db = await req(r);
    return this.#db;
  }
  async load() {
    const db = await this.#open();
    const now = nowS();
    const tx = db.transaction(['seen', 'meta', 'tasks'], 'readwrite');
    const seen = tx.objectStore('seen');
    const entries = [];
    const tasks = [];
    await new Promise((resolve, reject) => {
      const c = seen.openCursor();
      c.onerror = () => reject(new NostrError('AGX_SEEN_STORE', 'IndexedDB cursor failed'));
      c.onsuccess = () => {
        const cur = c.result;
        if (!cur) return resolve();
        if (typeof cur.value === 'number' && cur.value > now) entries.push([cur.key, cur.value]);
        else cur.delete();
        cur.continue();
      };
    });
    await new Promise((resolve, reject) => {
      const c = tx.objectStore('tasks').openCursor();
      c.onerror = () => reject(new NostrError('AGX_SEEN_STORE', 'IndexedDB cursor failed'));
      c.onsuccess = () => {
        const cur = c.result;
        if (!cur) return resolve();
        if (validTask(cur.value) && cur.value.expiresAt > now) tasks.push(cur.value);
        else cur.delete();
        cur.continue();
      };
    });
    const cursor = await req(tx.objectStore('meta').get('cursor'));
    await done(tx);
    return { entries, cursor: Number.isSafeInteger(cursor) ? cursor : null, tasks };
  }
  async putTask(record) {
    checkTask(record);
    const db = await this.#open();
    const tx = db.transaction('tasks', 'readwrite');
    tx.objectStore('tasks').put(structuredClone(record), record.id);
    await done(tx);
  }
  async deleteTask(id) {
    checkTaskId(id);
    const db = await this.#open();
    const tx = db.transaction('tasks', 'readwrite');
    tx.objectStore('tasks').delete(id);
    await done(tx);
  }
  async append(entries) {
    checkEntries(entries);
    if (entries.length === 0) return;
    const db = await this.#open();
    const tx = db.transaction('seen', 'readwrite');
    const s = tx.objectStore('seen');
    for (const [id, exp] of entries) s.put(exp, id);
    await done(tx);
  }
  async setCursor(cursor) {
    checkCursor(cursor);
    const db = await this.#open();
    const tx = db.transaction('meta', 'readwrite');
    tx.objectStore('meta').put(cursor, 'cursor');
    await done(tx);
  }
  async close() {
    if (this.#db) this.#db.close();
    this.#db = null;
  }
}
