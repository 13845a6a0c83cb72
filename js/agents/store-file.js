// FileRunStore: the run store of a Node process, one JSON file (`runs.json`) in a directory.
// Every change rewrites the file atomically (a 0600 temporary file, fsync, rename), so a crash
// leaves the previous or the new state, never half of one; changes made while a write is in
// flight are coalesced into the next write. One process at a time per directory.
import { NostrError } from '../errors.js';
import { MemoryRunStore } from './store.js';

const isNode = /* @__PURE__ */ (() => typeof process !== 'undefined' && process.versions != null && process.versions.node != null)();
const FILE = 'runs.json';

// Imported only in Node, by specifiers bundlers do not follow (browser bundles never pull fs).
async function nodeModules() {
  if (!isNode) throw new NostrError('NOT_SUPPORTED', 'FileRunStore needs Node (use IndexedDbRunStore in browsers)');
  // Built at run time: browser bundles must not even mention Node's modules.
  const node = (name) => ['node', name].join(':');
  const fsName = node('fs/promises');
  const pathName = node('path');
  const [fs, path] = await Promise.all([
    import(/* @vite-ignore */ /* webpackIgnore: true */ fsName),
    import(/* @vite-ignore */ /* webpackIgnore: true */ pathName),
  ]);
  return { fs, path };
}

export class FileRunStore extends MemoryRunStore {
  /** `dir`: the store's directory (created 0700 when missing). */
  constructor(dir) {
    super();
    if (typeof dir !== 'string' || dir.length === 0) throw new NostrError('INVALID_ARGUMENT', 'FileRunStore: dir must be a path');
    this.dir = dir;
    this._loaded = null;
    this._writing = null; // the write in flight
    this._dirty = null; // { promise, resolve, reject } of the next write
  }

  _load() {
    if (!this._loaded)
      this._loaded = (async () => {
        const { fs, path } = await nodeModules();
        this._fs = fs;
        this._file = path.join(this.dir, FILE);
        await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
        let text = null;
        try {
          text = await fs.readFile(this._file, 'utf8');
        } catch (err) {
          if (err.code !== 'ENOENT') throw new NostrError('STORE_FAILED', `cannot read ${this._file}`, { cause: err });
        }
        if (text === null) return;
        let data;
        try {
          data = JSON.parse(text);
        } catch (err) {
          throw new NostrError('STORE_CORRUPT', `${this._file} is not JSON`, { cause: err });
        }
        if (!data || data.version !== 1 || typeof data.runs !== 'object')
          throw new NostrError('STORE_CORRUPT', `${this._file} is not a run store (version 1)`);
        for (const [id, { record, events }] of Object.entries(data.runs)) {
          this._runs.set(id, record);
          this._events.set(id, Array.isArray(events) ? events : []);
        }
      })();
    return this._loaded;
  }

  // Resolves once a write that includes every change made so far is on disk.
  _save() {
    if (!this._dirty) {
      let resolve, reject;
      const promise = new Promise((res, rej) => ((resolve = res), (reject = rej)));
      this._dirty = { promise, resolve, reject };
      queueMicrotask(() => this._pump());
    }
    return this._dirty.promise;
  }

  async _pump() {
    if (this._writing || !this._dirty) return;
    const batch = this._dirty;
    this._dirty = null;
    this._writing = this._write().then(batch.resolve, batch.reject);
    await this._writing;
    this._writing = null;
    if (this._dirty) this._pump();
  }

  async _write() {
    const runs = {};
    for (const [id, record] of this._runs) runs[id] = { record, events: this._events.get(id) ?? [] };
    const text = JSON.stringify({ version: 1, runs });
    const tmp = `${this._file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    let fh;
    try {
      fh = await this._fs.open(tmp, 'wx', 0o600);
      await fh.writeFile(text, 'utf8');
      await fh.sync();
      await fh.close();
      fh = null;
      await this._fs.rename(tmp, this._file);
    } catch (err) {
      if (fh) await fh.close().catch(() => {});
      await this._fs.rm(tmp, { force: true }).catch(() => {});
      throw new NostrError('STORE_FAILED', `cannot write ${this._file}`, { cause: err });
    }
  }

  async putRun(record) {
    await this._load();
    await super.putRun(record);
    return this._save();
  }
  async appendEvent(id, entry) {
    await this._load();
    await super.appendEvent(id, entry);
    return this._save();
  }
  async getRun(id) {
    await this._load();
    return super.getRun(id);
  }
  async listRuns() {
    await this._load();
    return super.listRuns();
  }
  async deleteRun(id) {
    await this._load();
    await super.deleteRun(id);
    return this._save();
  }
  /** Resolves once every change is on disk. */
  async flush() {
    await this._load();
    if (this._dirty) await this._dirty.promise;
    if (this._writing) await this._writing;
  }
}
