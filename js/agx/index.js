// NIP-AGX: rumors, the mined gift wrap, unwrap, capability matching, routing and replay, and
// createAgxAgent on top of them.
export { createMessageRumor, createTaskRequestRumor, createTaskResultRumor, createReceiptRumor } from './rumor.js';
export { wrapRumor } from './wrap.js';
export { unwrapAgx } from './unwrap.js';
export { capabilityMatches, matchesCapability, findHandler } from './capability.js';
export { AgxRouter } from './router.js';
export { ReplayGuard } from './replay.js';
export { AgxPublicError } from './errors.js';
export { createAgxAgent } from './agent.js';

export const MESSAGE_KIND = 3838;
export const RECEIPT_KIND = 3839;
export const GIFT_WRAP_KIND = 1059;
export const POW_BITS = 12;
