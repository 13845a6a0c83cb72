// NIP-42 authentication of clients to relays.
import type { EventTemplate, NostrEvent } from './index.js';

/**
 * The unsigned kind 22242 AUTH event for a relay (a ws(s) URL, kept as written) and its challenge,
 * created now (nostr-tools' name). Sign it and send it with the relay's AUTH. NostrError RELAY_URL_INVALID.
 */
export function makeAuthEvent(relayURL: string, challenge: string): EventTemplate;

/**
 * The relay's checks of an AUTH event: its relay tag names this relay (normalized), its challenge
 * is the one sent, created_at is within `window` seconds of `now` (default 600, NIP-42's ~10
 * minutes), then its id and signature. Returns the authenticated pubkey. NostrError
 * RELAY_AUTH_WRONG_KIND, RELAY_AUTH_WRONG_RELAY, RELAY_AUTH_WRONG_CHALLENGE, RELAY_AUTH_STALE,
 * INVALID_EVENT, ID_MISMATCH, INVALID_SIGNATURE.
 */
export function validateAuthEvent(
  event: NostrEvent,
  relayURL: string,
  challenge: string,
  options?: { now?: number; window?: number },
): string;
