// NIP-AGX: rumors, the mined gift wrap, unwrap, capability matching, routing and replay,
// AgxRequester (the requesting side alone), AgxClient (both sides; createAgxAgent is its first
// name) and discovery (Agent Cards, NIP-05, NIP-65).
export {
  createMessageRumor,
  createTaskRequestRumor,
  createTaskResultRumor,
  createReceiptRumor,
  createTaskStatusRumor,
  createTaskInputRumor,
} from './rumor.js';
export { wrapRumor } from './wrap.js';
export { unwrapAgx, unwrapAgxAsync, isSignerUnavailable, AgxSignerUnavailableError } from './unwrap.js';
export { capabilityMatches, matchesCapability, findHandler } from './capability.js';
export { AgxRouter } from './router.js';
export { ReplayGuard } from './replay.js';
export { AgxPublicError } from './errors.js';
export { AgxRequester } from './requester.js';
export { AgxClient, createAgxAgent } from './client.js';
export { AutoReplyLimiter, replyDepth } from './serve.js';
export { MemorySeenStore, FileSeenStore, IndexedDbSeenStore } from './seen-store.js';
export { TaskGate, TASK_LIMIT_DEFAULTS } from './task-gate.js';
export {
  publishAgentCard,
  fetchAgentCard,
  parseAgentCard,
  retractAgentCard,
  parseNip05,
  verifyNip05,
  isPrivateAddress,
  publishRelayList,
  resolveRelayList,
  CARD_KIND,
  RELAY_LIST_KIND,
} from './discovery.js';

// Public names that exist before init(), so literals; tests/js/agx-crossings.test.js holds them to
// the core's table (agxConstants), which is what the code of js/agx reads.
export const MESSAGE_KIND = 3838;
export const RECEIPT_KIND = 3839;
export const GIFT_WRAP_KIND = 1059;
export const POW_BITS = 12;
