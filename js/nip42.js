// NIP-42 authentication of clients to relays: nostr-tools' makeAuthEvent, and the relay's checks
// of an AUTH event (validateAuthEvent, for servers). Both from the core (src/relay/nip42.hpp).
import { core, check, checked } from './core.js';
import { NostrError } from './errors.js';
import { eventJson } from './event.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

function str(value, what) {
  if (typeof value !== 'string') throw new NostrError('INVALID_ARGUMENT', `${what} must be a string`);
  return value;
}

/**
 * The unsigned kind 22242 AUTH event for `relayURL` (a ws:// or wss:// URL, kept as written) and
 * the relay's `challenge`: { kind, created_at (now), tags: [["relay", url], ["challenge", c]],
 * content: '' }. Sign it, then send it with the relay's AUTH. Throws NostrError RELAY_URL_INVALID.
 */
export function makeAuthEvent(relayURL, challenge) {
  return checked(core().nip42MakeAuthEvent(str(relayURL, 'relayURL'), str(challenge, 'challenge'), nowSeconds()));
}

/**
 * The relay side: checks an AUTH event against this relay's URL (compared normalized: case, the
 * default port and a trailing slash do not matter) and the challenge it sent, then its id and
 * signature; returns the authenticated pubkey. Throws NostrError RELAY_AUTH_WRONG_KIND,
 * RELAY_AUTH_WRONG_RELAY, RELAY_AUTH_WRONG_CHALLENGE, RELAY_AUTH_STALE (created_at more than
 * `window` seconds from `now`; default 600, NIP-42's "~10 minutes"), INVALID_EVENT, ID_MISMATCH,
 * INVALID_SIGNATURE.
 */
export function validateAuthEvent(event, relayURL, challenge, { now = nowSeconds(), window = 600 } = {}) {
  if (event === null || typeof event !== 'object') throw new NostrError('INVALID_EVENT', 'an AUTH event is an object');
  if (typeof now !== 'number' || typeof window !== 'number') throw new NostrError('INVALID_ARGUMENT', 'now and window are numbers of seconds');
  check(core().nip42ValidateAuthEvent(eventJson(event), str(relayURL, 'relayURL'), str(challenge, 'challenge'), now, window));
  return event.pubkey;
}
