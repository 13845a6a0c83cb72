// nostr-agents/relay-server: the local dev relay, in-process (Node only).
export { startRelay, DEFAULTS } from './relay.js';
export { openStore, MemoryStore, SqliteStore } from './store.js';
export { AGX_DEFAULTS } from './policy.js';
