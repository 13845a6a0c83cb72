// AGX Agent Cards (kind 11337) in JS, for the demo only: the package's card code is C++
// (src/protocols/agx/card.hpp) with no JS binding yet. The content and caps follow it:
// {"v":1,"org","npub","nip05","relays","capabilities","payloadTypes","encryption","version"}.
// Shared by the demo agent (build) and the page (parse); a peer's card is untrusted input.
export const CARD_KIND = 11337;
const MAX = { org: 200, capabilities: 64, capability: 200, relays: 10, relay: 512, displayName: 120 };

/** The card's content JSON for our own agent. */
export function cardContent({ org, npub, relays, capabilities }) {
  return JSON.stringify({
    v: 1,
    org,
    npub,
    nip05: null,
    relays,
    capabilities,
    payloadTypes: ['application/a2a+json', 'application/agx-task+json'],
    encryption: ['nip44'],
    version: '1.0.0',
  });
}

const strings = (v, maxCount, maxLen) =>
  v === null || v === undefined
    ? []
    : Array.isArray(v) && v.length <= maxCount && v.every((s) => typeof s === 'string' && s.length > 0 && s.length <= maxLen)
      ? v
      : null;

/**
 * A peer's card from a verified kind 11337 event: `{ pubkey, created_at, org, displayName,
 * capabilities, relays, payloadTypes }`, or null when it breaks the caps. `npubOf(hex)` encodes
 * the signer, to check the card's npub claim.
 */
export function parseCard(event, npubOf) {
  if (!event || event.kind !== CARD_KIND || typeof event.content !== 'string') return null;
  let c;
  try {
    c = JSON.parse(event.content);
  } catch {
    return null;
  }
  if (!c || typeof c !== 'object' || Array.isArray(c)) return null;
  if (c.org != null && (typeof c.org !== 'string' || c.org.length > MAX.org)) return null;
  if (c.npub != null && c.npub !== npubOf(event.pubkey)) return null; // a card speaks for its signer only
  const capabilities = strings(c.capabilities, MAX.capabilities, MAX.capability);
  const relays = strings(c.relays, MAX.relays, MAX.relay);
  if (capabilities === null || relays === null || relays.some((r) => !/^wss?:\/\//.test(r))) return null;
  const payloadTypes = Array.isArray(c.payloadTypes) ? c.payloadTypes.filter((s) => typeof s === 'string') : [];
  return {
    pubkey: event.pubkey,
    created_at: event.created_at,
    org: c.org ?? null,
    displayName: c.org ? c.org.slice(0, MAX.displayName) : null,
    capabilities,
    relays,
    payloadTypes,
  };
}
