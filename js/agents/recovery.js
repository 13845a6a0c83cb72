// Relay-side session discovery: the seed's "Session recovery recipe" (find a session's prompts by
// `#s`, then each run's terminal by `#e` root), combined with the local run store.
//
// The seed makes prompts (25802) and terminals (25803, 25805) durable, but those kinds sit in
// NIP-01's ephemeral range (20000-29999), so ordinary relays drop them: what the relays return is
// whatever a relay that honours the seed kept (the dev relay with `storeKinds`). Status, deltas and
// tool calls are ephemeral by the seed itself: a run found only on relays has its prompt and its
// terminal, never its stream. Privacy-first (NIP-59) runs are not found this way: their prompt is
// a gift wrap only the agent can open, and the `s` tag is inside it; the local store keeps them.
import { NostrError } from '../errors.js';
import { isValidPublicKey } from '../keys.js';
import { ClientRun, validatePayload } from '../nipxx.js';
import { terminalSummary } from './client.js';
import { constants, sessionPromptFilters, sessionTerminalFilters } from './machines.js';
import { agentHex, requireSigner, tagValue } from './shared.js';
import { listRuns, requireStore } from './store.js';


const byCreated = (a, b) => a.created_at - b.created_at || (a.createdMs ?? 0) - (b.createdMs ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The payload of our prompt event `e` to `agent` (NIP-44, a valid prompt), or null: what we cannot
 * read (or is no prompt) is a relay's junk, not a run.
 */
async function promptPayload(signer, agent, e) {
  if (tagValue(e, 'encryption') !== 'nip44') return null;
  try {
    const text = await signer.nip44Decrypt(agent, e.content);
    return validatePayload(constants().kinds.prompt, text).ok ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/**
 * The runs of one session with `agent`, from the relays and from `store` (when given), oldest
 * first. options: pool, signer (the client), agent, session (default `sender:<client pubkey>`),
 * store, relays, maxWait (ms per query; the core's discover wait, 5000), signal.
 *
 * Each entry is a run record (as listRuns returns them) plus `source`: 'store', 'relay' or
 * 'both'. A run's state is its terminal of highest (created_at, id) among the stored copy and the
 * relays' ("Latest terminal event should be taken as the current run state"). With a store, the
 * runs found only on relays are added to it, and a stored open run whose terminal a relay has is
 * closed with it, so resumeRun() and listSessions() see them.
 */
export async function fetchSessionRuns({ pool, signer, agent, session, store, relays, maxWait, signal } = {}) {
  maxWait ??= constants().discoverWaitMs;
  const { kinds } = constants();
  if (!pool || typeof pool.query !== 'function') throw new NostrError('INVALID_ARGUMENT', 'fetchSessionRuns: pool is required');
  requireSigner(signer, 'fetchSessionRuns');
  agent = agentHex(agent, 'fetchSessionRuns');
  if (session !== undefined && (typeof session !== 'string' || session.length === 0))
    throw new NostrError('INVALID_ARGUMENT', 'fetchSessionRuns: session must be a non-empty string');
  if (store !== undefined && store !== null) requireStore(store, 'fetchSessionRuns');
  const me = await signer.getPublicKey();
  const sessionId = session ?? `sender:${me}`;
  const isDefault = sessionId === `sender:${me}`;
  const opts = { relays, maxWait, signal };

  // 1. Find the session: the seed's {"kinds":[25802],"#s":[..],"#p":[agent]} (our prompts only).
  // The default session is also every prompt of ours without an `s` tag.
  const promptFilters = sessionPromptFilters(agent, me, sessionId);
  const prompts = new Map();
  for (const e of await pool.query(promptFilters, opts)) {
    if (prompts.has(e.id) || e.kind !== kinds.prompt || e.pubkey !== me || tagValue(e, 'p') !== agent) continue;
    const s = tagValue(e, 's');
    if (!(s === sessionId || (s === undefined && isDefault))) continue;
    const payload = await promptPayload(signer, agent, e);
    if (!payload) continue;
    prompts.set(e.id, { event: e, payload, session: s });
  }

  // 2. Resume each run: {"#e":[prompt ids],"authors":[agent],"kinds":[terminals]} plus the
  // session's terminals by #s (an agent may tag them while the prompt is not found).
  const ids = [...prompts.keys()];
  // One REQ per filter (the core chunks the ids): relays cap the filters per REQ (ours: 10) and the ids per filter.
  const queries = sessionTerminalFilters(agent, me, sessionId, ids).map((f) => [f]);
  const found = (await Promise.all(queries.map((q) => pool.query(q, opts)))).flat();
  const terminals = new Map(); // prompt id -> events
  for (const e of found) {
    if (e.pubkey !== agent || (e.kind !== kinds.response && e.kind !== kinds.error)) continue;
    for (const t of e.tags) {
      if (t[0] !== 'e' || t[3] !== 'root' || !prompts.has(t[1])) continue;
      const list = terminals.get(t[1]) ?? [];
      if (!list.some((x) => x.id === e.id)) list.push(e);
      terminals.set(t[1], list);
    }
  }

  const local = store ? await listRuns(store, sessionId, { agent }) : [];
  const localById = new Map(local.map((r) => [r.id, r]));
  const out = new Map(local.map((r) => [r.id, { ...r, source: 'store' }]));

  for (const [id, { event, payload, session: sTag }] of prompts) {
    // The core's reconciliation decides the terminal: tags (e root, p, encryption), payload
    // schema, and of several the highest (created_at, id).
    const machine = new ClientRun({ promptId: id, agentPubkey: agent, clientPubkey: me });
    const applied = [];
    let terminal = null;
    try {
      for (const e of terminals.get(id) ?? []) {
        let plaintext;
        try {
          plaintext = await signer.nip44Decrypt(agent, e.content);
        } catch {
          continue;
        }
        let u;
        try {
          u = machine.onEvent(e, plaintext);
        } catch {
          continue;
        }
        if (u.type === 'terminal') applied.push({ event: e, plaintext });
      }
      terminal = machine.terminal;
    } finally {
      machine.dispose();
    }
    const stored = localById.get(id);
    if (stored) {
      const entry = out.get(id);
      entry.source = 'both';
      const storedNewer = stored.terminal && stored.state === 'done' && !beats(terminal, stored.terminal);
      if (terminal && !storedNewer) {
        Object.assign(entry, { state: 'done', terminal: terminalSummary(terminal), updatedAt: Math.max(entry.updatedAt ?? 0, terminal.createdAt) });
        if (store) {
          const winner = applied.find((a) => a.event.id === terminal.eventId);
          if (winner) await store.appendEvent(id, winner);
          const { source, ...record } = entry;
          await store.putRun(record);
        }
      }
      continue;
    }
    const record = {
      id,
      agent,
      client: me,
      session: sessionId,
      sessionTag: sTag === undefined || sTag === `sender:${me}` ? null : sTag, // null: the default session, as prompt() records it
      message: payload.message,
      ...(payload.model !== undefined && { model: payload.model }),
      ...(payload.thinking !== undefined && { thinking: payload.thinking }),
      created_at: event.created_at,
      createdMs: event.created_at * 1000,
      updatedAt: terminal ? Math.max(event.created_at, terminal.createdAt) : event.created_at,
      state: terminal ? 'done' : 'open',
      terminal: terminal ? terminalSummary(terminal) : null,
      privacy: 'default',
      prompt: event,
    };
    if (store) {
      await store.putRun(record);
      const winner = terminal && applied.find((a) => a.event.id === terminal.eventId);
      if (winner) await store.appendEvent(id, winner);
    }
    out.set(id, { ...record, source: 'relay' });
  }
  return [...out.values()].sort(byCreated);
}

/**
 * The sessions of this client (with `agent`, or with every agent), from the relays' prompts
 * (kind 25802 by this author) and from `store` (when given), most recently active first: one
 * entry per (agent, session) with `{ id, agent, client, runs, createdAt, updatedAt, title, source }`
 * (title: the first prompt's message; source: 'store', 'relay' or 'both'). Pick one and pass its
 * id to fetchSessionRuns. options: pool, signer, agent?, store?, relays, maxWait (the core's discover wait, 5000), signal.
 */
export async function fetchSessions({ pool, signer, agent, store, relays, maxWait, signal } = {}) {
  maxWait ??= constants().discoverWaitMs;
  const { kinds } = constants();
  if (!pool || typeof pool.query !== 'function') throw new NostrError('INVALID_ARGUMENT', 'fetchSessions: pool is required');
  requireSigner(signer, 'fetchSessions');
  if (agent !== undefined) agent = agentHex(agent, 'fetchSessions');
  if (store !== undefined && store !== null) requireStore(store, 'fetchSessions');
  const me = await signer.getPublicKey();
  const sessions = new Map();
  const add = (run, where) => {
    const key = `${run.agent}\u0000${run.session}`;
    let s = sessions.get(key);
    if (!s) {
      s = { id: run.session, agent: run.agent, client: me, ids: new Map(), createdAt: run.created_at, updatedAt: 0, title: run.message, firstAt: Infinity };
      sessions.set(key, s);
    }
    const seen = s.ids.get(run.id);
    s.ids.set(run.id, seen && seen !== where ? 'both' : where);
    s.createdAt = Math.min(s.createdAt, run.created_at);
    s.updatedAt = Math.max(s.updatedAt, run.updatedAt ?? run.created_at);
    if (run.created_at < s.firstAt) {
      s.firstAt = run.created_at;
      s.title = run.message;
    }
  };
  const filter = { kinds: [kinds.prompt], authors: [me], ...(agent !== undefined && { '#p': [agent] }) };
  for (const e of await pool.query([filter], { relays, maxWait, signal })) {
    const to = tagValue(e, 'p');
    if (e.kind !== kinds.prompt || e.pubkey !== me || !to || !isValidPublicKey(to) || (agent !== undefined && to !== agent)) continue;
    const payload = await promptPayload(signer, to, e);
    if (!payload) continue;
    add({ id: e.id, agent: to, session: tagValue(e, 's') ?? `sender:${me}`, created_at: e.created_at, message: payload.message }, 'relay');
  }
  if (store) for (const r of await store.listRuns()) if (r.client === me && (agent === undefined || r.agent === agent)) add(r, 'store');
  return [...sessions.values()]
    .map(({ ids, firstAt, ...s }) => {
      const kinds = new Set(ids.values());
      return { ...s, runs: ids.size, source: kinds.size === 1 ? [...kinds][0] : 'both' };
    })
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1));
}

// True when the relay's terminal `t` (ClientRun form) beats the stored summary `s` by (created_at, id).
function beats(t, s) {
  if (!t || t.eventId === s.eventId) return false;
  const sAt = s.createdAt;
  if (typeof sAt !== 'number') return false; // a record written before createdAt was kept: it stays
  return t.createdAt > sAt || (t.createdAt === sAt && t.eventId > s.eventId);
}
