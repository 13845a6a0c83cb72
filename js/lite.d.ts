// `nostr-agents/lite`: the same functions and types as the main entry, without the relay pool, the
// other nostr-tools modules (kinds, NIP-05/10/21/27/42/98) and the NIP-XX/AGX layers (js/api.lite.js).
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
  verifyEvents,
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
  nip04,
} from './index.js';
export * from './signer.js';
