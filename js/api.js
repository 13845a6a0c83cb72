// The public API, shared by every entry point: the lite API plus the protocol layers.
export * from './api.lite.js';
// NIP-49 (scrypt, XChaCha20-Poly1305) costs ~8 KB gz of WASM: not in the lite entry's budget.
export * as nip49 from './nip49.js';
export * as nipxx from './nipxx.js';
export * from './agents/index.js';
export * as agx from './agx/index.js';
export * from './relay/index.js';
export * from './nip46.js';
