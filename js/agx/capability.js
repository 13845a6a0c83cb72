// Capability matching: exact keys, "ns.*" namespaces, "*".
import { core } from '../core.js';

/** Whether one advertised pattern covers `requested`. */
export function capabilityMatches(pattern, requested) {
  return core().agxCapabilityMatches(String(pattern), String(requested));
}

/** Whether any advertised entry covers `requested` (non-string entries ignored). */
export function matchesCapability(advertised, requested) {
  return core().agxMatchesCapability(JSON.stringify(advertised ?? null), String(requested));
}

/** The handler key that services `requested`: exact, then the longest "ns.*", then "*"; or null. */
export function findHandler(handlerKeys, requested) {
  return core().agxFindHandler(JSON.stringify(handlerKeys ?? []), String(requested));
}
