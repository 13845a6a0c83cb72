// The local run store: what a client saw of its runs (the prompt, every event of the run that
// was applied, the terminal), so a reloaded page or a restarted process can list its sessions
// and resume its runs. Relays do not keep the run's events (kinds 25800-25806 are in NIP-01's
// ephemeral range), so this store is the memory the seed's "Session recovery recipe" needs.
//
// A RunStore is any object with these async methods (records are plain JSON values):
//   putRun(record)            create or replace a run's record (without its events)
//   appendEvent(id, entry)    add { event, plaintext } to run `id`'s events, in arrival order
//   getRun(id)                the record with `events`, or null
//   listRuns()                every record (without events)
//   deleteRun(id)
// MemoryRunStore (here), FileRunStore (Node, store-file.js) and IndexedDbRunStore (browsers,
// store-indexeddb.js) implement it.
import { NostrError } from '../errors.js';

const METHODS = ['putRun', 'appendEvent', 'getRun', 'listRuns', 'deleteRun'];

export function requireStore(store, what) {
  for (const m of METHODS)
    if (!store || typeof store[m] !== 'function')
      throw new NostrError('INVALID_ARGUMENT', `${what}: store must have ${m}() (MemoryRunStore, FileRunStore, IndexedDbRunStore...)`);
}

const clone = (x) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));

/** A RunStore in memory: for tests, and for apps that keep nothing across restarts. */
export class MemoryRunStore {
  constructor() {
    this._runs = new Map(); // id -> record
    this._events = new Map(); // id -> entries
  }
  async putRun(record) {
    this._runs.set(record.id, clone(record));
    if (!this._events.has(record.id)) this._events.set(record.id, []);
  }
  async appendEvent(id, entry) {
    if (!this._runs.has(id)) throw new NostrError('NOT_FOUND', `no run ${id} in the store`);
    this._events.get(id).push(clone(entry));
  }
  async getRun(id) {
    const r = this._runs.get(id);
    return r ? { ...clone(r), events: clone(this._events.get(id)) } : null;
  }
  async listRuns() {
    return [...this._runs.values()].map(clone);
  }
  async deleteRun(id) {
    this._runs.delete(id);
    this._events.delete(id);
  }
}

const sessionKey = (agent, session) => `${agent}\u0000${session}`;

/**
 * The sessions in `store`, most recently active first: one entry per (agent, session) with
 * `{ id, agent, client, runs, createdAt, updatedAt, title, lastRun }` (title: the first prompt's
 * message; lastRun: the newest run's record). `agent` narrows to one agent.
 */
export async function listSessions(store, { agent } = {}) {
  requireStore(store, 'listSessions');
  const sessions = new Map();
  const runs = (await store.listRuns()).sort(byCreated);
  for (const r of runs) {
    if (agent !== undefined && r.agent !== agent) continue;
    const key = sessionKey(r.agent, r.session);
    let s = sessions.get(key);
    if (!s) {
      s = { id: r.session, agent: r.agent, client: r.client, runs: 0, createdAt: r.created_at, updatedAt: 0, title: r.message, lastRun: null };
      sessions.set(key, s);
    }
    s.runs++;
    s.updatedAt = Math.max(s.updatedAt, r.updatedAt ?? r.created_at);
    s.lastRun = r;
  }
  // Newest activity first; within one second, the session whose last run was created last.
  return [...sessions.values()].sort((a, b) => b.updatedAt - a.updatedAt || -byCreated(a.lastRun, b.lastRun));
}

/**
 * The runs of one session, oldest first. `session`: a session id (with `{ agent }` to pick one
 * agent's) or an entry of listSessions.
 */
export async function listRuns(store, session, { agent } = {}) {
  requireStore(store, 'listRuns');
  let id = session;
  let who = agent;
  if (session && typeof session === 'object') {
    id = session.id;
    who = who ?? session.agent;
  }
  if (typeof id !== 'string' || id.length === 0) throw new NostrError('INVALID_ARGUMENT', 'listRuns: session must be a session id or a listSessions entry');
  return (await store.listRuns()).filter((r) => r.session === id && (who === undefined || r.agent === who)).sort(byCreated);
}

function byCreated(a, b) {
  return a.created_at - b.created_at || (a.createdMs ?? 0) - (b.createdMs ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
