// The public API, shared by every entry point: the lite API plus the protocol layers.
export * from './api.lite.js';
export * as nipxx from './nipxx.js';
export * from './agents/index.js';
export * as agx from './agx/index.js';
export * from './relay/index.js';
export { fromNdkSigner, toNdkSigner, isNdkSigner, NdkSignerAdapter, SignerNdkAdapter } from './ndk.js';
export * from './nip46.js';
