// Write policy for agent exchange traffic (--agx-policy): gift wraps (kind 1059) must expire
// within 31 days and carry at least 12 bits of proof of work, and pass the core's relay_accepts
// (src/protocols/agx/unwrap.hpp: exactly one p tag, created_at not more than 300 s ahead, an
// expiration that has not passed, PoW committed in a nonce tag): the relay refuses what every
// AGX recipient would discard anyway. The options can make the policy stricter, never looser
// than the core's.
import { core } from '../core.js';
import { expirationOf, leadingZeroBits } from './nips.js';

export const AGX_DEFAULTS = Object.freeze({ minPow: 12, maxExpirationSeconds: 31 * 24 * 3600 });

/** Resolves the `agxPolicy` option (true, or an object overriding the defaults) or null. */
export function agxPolicy(opt) {
  if (!opt) return null;
  return { ...AGX_DEFAULTS, ...(typeof opt === 'object' ? opt : {}) };
}

/** The rejection reason (with its NIP-01 prefix) of an event under the policy, or undefined. */
export function checkAgx(policy, evt, nowSeconds) {
  if (!policy || evt.kind !== 1059) return undefined;
  const exp = expirationOf(evt);
  if (exp === undefined)
    return 'invalid: gift wraps (kind 1059) must carry a NIP-40 expiration tag on this relay';
  if (exp > nowSeconds + policy.maxExpirationSeconds)
    return `invalid: gift wrap expiration is more than ${Math.round(policy.maxExpirationSeconds / 86400)} days ahead`;
  for (const t of evt.tags) {
    if (t[0] !== 'nonce' || t.length < 3) continue;
    const target = /^\d{1,4}$/.test(t[2]) ? Number(t[2]) : NaN;
    if (!(target >= policy.minPow))
      return `pow: nonce tag commits to difficulty ${t[2]}, at least ${policy.minPow} is required`;
  }
  const bits = leadingZeroBits(evt.id);
  if (bits < policy.minPow) return `pow: difficulty ${bits} is less than ${policy.minPow}`;
  return coreRejects(evt, nowSeconds);
}

// The core's verdict, as a NIP-01 OK reason (undefined: accepted).
function coreRejects(evt, nowSeconds) {
  const c = core();
  if (c.agxRelayAccepts(JSON.stringify(evt), nowSeconds) === true) return undefined;
  const { code, message } = c.lastError();
  return `${code === 'AGX_WRAP_POW' ? 'pow' : 'invalid'}: ${message} (${code})`;
}
