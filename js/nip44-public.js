// The `nip44` namespace of the public API: nostr-tools' names only. The handle-based functions
// of nip44.js are LocalSigner's and stay out of it.
export { getConversationKey, calcPaddedLen, encrypt, decrypt, v2 } from './nip44.js';
