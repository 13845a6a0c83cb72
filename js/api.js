// The public API, shared by every entry point: the lite API plus the protocol layers.
export * from './api.lite.js';
// NIP-49 (scrypt, XChaCha20-Poly1305) costs ~8 KB gz of WASM: not in the lite entry's budget.
export * as nip49 from './nip49.js';
export * as nipxx from './nipxx.js';
export * from './agents/index.js';
export * as agx from './agx/index.js';
export * from './relay/index.js';
export { fromNdkSigner, toNdkSigner, isNdkSigner, NdkSignerAdapter, SignerNdkAdapter } from './ndk.js';
export * from './nip46.js';
export * as kinds from './kinds.js';
export * as nip05 from './nip05.js';
export * as nip10 from './nip10.js';
export * as nip21 from './nip21.js';
export * as nip27 from './nip27.js';
export * as nip42 from './nip42.js';
export * as nip98 from './nip98.js';
