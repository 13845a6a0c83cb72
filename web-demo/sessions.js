// The page's local run store: one record per run (prompt), grouped by session, kept in
// localStorage so a reload restores the sidebar and the conversations. Same shape as the
// package's coming run store (put/get/all + listSessions(store) / listRuns(store, session)), so
// the page can switch to IndexedDbRunStore by changing `createRunStore` alone.
//
// A run record: { id, session, agent, message, model?, thinking?, createdAt, updatedAt,
//   status: 'running' | 'done' | 'error' | 'cancelled', text, degraded, toolCalls: [...],
//   error?: { code, message, retryAfter? }, usage? }

const MAX_RUNS = 500; // oldest dropped beyond this

export class LocalStorageRunStore {
  constructor(storage = globalThis.localStorage, key = 'nostr-agents-demo:runs') {
    this.storage = storage;
    this.key = key;
    this.runs = new Map();
    try {
      const saved = JSON.parse(storage.getItem(key) ?? '[]');
      if (Array.isArray(saved)) for (const r of saved) if (r && typeof r.id === 'string') this.runs.set(r.id, r);
    } catch {
      // a corrupt store starts empty
    }
  }

  async put(record) {
    this.runs.delete(record.id);
    this.runs.set(record.id, { ...record, updatedAt: Date.now() });
    while (this.runs.size > MAX_RUNS) this.runs.delete(this.runs.keys().next().value);
    this.#save();
  }

  async get(id) {
    return this.runs.get(id) ?? null;
  }

  async all() {
    return [...this.runs.values()];
  }

  async deleteSession(session) {
    for (const [id, r] of this.runs) if (r.session === session) this.runs.delete(id);
    this.#save();
  }

  #save() {
    try {
      this.storage.setItem(this.key, JSON.stringify([...this.runs.values()]));
    } catch {
      // storage full or disabled: the page keeps working from memory
    }
  }
}

/** The store the page uses. */
export function createRunStore() {
  return new LocalStorageRunStore();
}

/** Sessions, newest activity first: { session, agent, title, runs, updatedAt }. */
export async function listSessions(store) {
  const by = new Map();
  for (const r of (await store.all()).sort((a, b) => a.createdAt - b.createdAt)) {
    const s = by.get(r.session) ?? { session: r.session, agent: r.agent, title: r.message.slice(0, 60), runs: 0, updatedAt: 0 };
    s.runs++;
    s.updatedAt = Math.max(s.updatedAt, r.updatedAt ?? r.createdAt);
    by.set(r.session, s);
  }
  return [...by.values()].sort((a, b) => b.updatedAt - a.updatedAt);
}

/** The runs of one session, oldest first. */
export async function listRuns(store, session) {
  return (await store.all()).filter((r) => r.session === session).sort((a, b) => a.createdAt - b.createdAt);
}

/** A new session id (the prompt's `s` tag). */
export function newSessionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `demo-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}
