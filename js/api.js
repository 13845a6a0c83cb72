// The public API, shared by every entry point.
export { init, isReady } from './core.js';
export { NostrError } from './errors.js';
export { bytesToHex, hexToBytes } from './hex.js';
export { generateSecretKey, getPublicKey, isValidPublicKey } from './keys.js';
export {
  serializeEvent,
  getEventHash,
  validateEvent,
  finalizeEvent,
  verifyEvent,
  assertEvent,
  matchFilter,
  matchFilters,
  verifiedSymbol,
} from './event.js';
export * as nip19 from './nip19.js';
export * as nip44 from './nip44.js';
export * as nip59 from './nip59.js';
export * as nip13 from './nip13.js';
export * as nip40 from './nip40.js';
export * from './signer.js';
export * as nipxx from './nipxx.js';
export { AgentError, discover, prompt, Run, serveAgent } from './agents/index.js';
export * as agx from './agx/index.js';
export * from './relay/index.js';
export * from './nip46.js';
