// The lite API (`nostr-agents/lite`): keys, events, NIP-19/44/59/13/40, kinds, NIP-04/10/21/42/98
// and the signers, without the relay pool, NIP-05 and NIP-27 (I/O and content display) and the
// NIP-XX/AGX protocol layers. Its entries load the smaller dist/core-lite.wasm.
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
export * as nip44 from './nip44-public.js';
export * as nip59 from './nip59.js';
export * as nip13 from './nip13.js';
export * as nip40 from './nip40.js';
export * as kinds from './kinds.js';
export * as nip04 from './nip04.js';
export * as nip10 from './nip10.js';
export * as nip21 from './nip21.js';
export * as nip42 from './nip42.js';
export * as nip98 from './nip98.js';
export * from './signer.js';
