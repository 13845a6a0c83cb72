// `nostr-agents/lite`: the same functions and types as the main entry, without the relay pool and
// the NIP-XX/AGX protocol layers (js/api.lite.js).
export type { EventTemplate, UnsignedEvent, NostrEvent, Filter } from './index.js';
export {
  NostrError,
  init,
  isReady,
  bytesToHex,
  hexToBytes,
  generateSecretKey,
  getPublicKey,
  isValidPublicKey,
  serializeEvent,
  getEventHash,
  validateEvent,
  finalizeEvent,
  verifyEvent,
  assertEvent,
  matchFilter,
  matchFilters,
  verifiedSymbol,
  nip19,
  nip44,
  nip59,
  nip17,
  nip13,
  nip40,
} from './index.js';
export * from './signer.js';
