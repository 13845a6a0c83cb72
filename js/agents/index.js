// NIP-XX AI Agent Messages over relays: the client (discover, prompt, resumeRun), the local run
// stores and the agent runtime (serveAgent).
export { AgentError } from './errors.js';
export { discover, prompt, resumeRun, Run, CANCEL_RACE_GRACE, TERMINAL_GRACE, DEFAULT_IDLE_TIMEOUT } from './client.js';
export { fetchSessionRuns, fetchSessions } from './recovery.js';
export { MemoryRunStore, listSessions, listRuns } from './store.js';
export { FileRunStore } from './store-file.js';
export { IndexedDbRunStore } from './store-indexeddb.js';
export { serveAgent } from './runtime.js';
