// The lite API (`nostr-agents/lite`): keys, events, NIP-19/44/59/13/40/04 and the signers, without
// the relay pool, the other nostr-tools modules (kinds, NIP-05/10/21/27/42/98) and the NIP-XX/AGX
// protocol layers. Its entries load the smaller dist/core-lite.wasm.
export { isReady } from './core.js'; // init(): each entry's own, with its platform's loader
export { NostrError } from './errors.js';
export { bytesToHex, hexToBytes } from './hex.js';
export { generateSecretKey, getPublicKey, isValidPublicKey } from './keys.js';
export {
  serializeEvent,
  getEventHash,
  validateEvent,
  finalizeEvent,
  verifyEvent,
  verifyEvents,
  assertEvent,
  matchFilter,
  matchFilters,
  verifiedSymbol,
} from './event.js';
export * as nip19 from './nip19.js';
export * as nip44 from './nip44-public.js';
export * as nip59 from './nip59.js';
export * as nip17 from './nip17.js';
export * as nip13 from './nip13.js';
export * as nip40 from './nip40.js';
export * as nip04 from './nip04.js';
export * from './signer.js';
