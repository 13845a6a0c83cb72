// The core's AGX endpoint machine (src/protocols/agx/endpoint, bindings/agx.cpp AgxEndpoint) and
// its constants table. The machine decides the exactly-once order, routing, deadlines and the
// cursor; requester.js and serve.js execute its actions.
import { core } from '../core.js';

let table = null;
/** The core's AGX constants (kinds, windows, defaults): js/agx keeps no copy. */
export function constants() {
  return (table ??= Object.freeze(core().agxConstants()));
}

export const endpoints = /* @__PURE__ */ new FinalizationRegistry((native) => native.delete());

/**
 * mode: 'unconfigured' | 'accept-all' | 'host'; seenCap, cacheCap (0: defaults), pollOverlap (s),
 * idlePollMs, pendingPollMs.
 */
export function newEndpoint({ mode, seenCap = 0, cacheCap = 0, pollOverlap, idlePollMs, pendingPollMs }) {
  const c = constants();
  return new (core().AgxEndpoint)(mode, seenCap, cacheCap, pollOverlap ?? c.defaultPollOverlap, idlePollMs ?? c.idlePollMs, pendingPollMs ?? c.pendingPollMs);
}
