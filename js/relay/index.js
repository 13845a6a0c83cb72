// The relay pool and the NIP-01 frame codec, re-exported by the package entry points.
export { RelayPool } from './pool.js';
export { SimplePool, useWebSocketImplementation } from './simple-pool.js';
export { Relay } from './relay.js';
export { Subscription } from './subscription.js';
export { SubscriptionMachine, relayConstants } from './machine.js';
export { fetchRelayInfo, relayInfoUrl } from './nip11.js';
export {
  decodeRelayMessage,
  decodeClientMessage,
  encodeReq,
  encodeCount,
  encodeClose,
  encodeEvent,
  encodeAuth,
  parseReason,
  normalizeRelayUrl,
  makeAuthEvent,
} from './codec.js';
