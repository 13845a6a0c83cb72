// NIP-10 threads with nostr-tools' nip10.parse: root, reply, mentions, quotes and profiles of a
// note, read by the core (src/nips/nip10.cpp). Differences from nostr-tools 2.25, on purpose:
// mentions, quotes and profiles come in tag order (nostr-tools lists them last tag first); a `q`
// tag naming an address ("<kind>:<pubkey>:<d>") is a quote too ({identifier, pubkey, kind,
// relays}), and a `q` tag's pubkey is its quote's `author`.
import { core, checked } from './core.js';
import { NostrError } from './errors.js';
import { tagsJson } from './event.js';

/**
 * { root, reply, mentions, quotes, profiles } of an event (anything with `tags`). Throws NostrError
 * INVALID_EVENT unless tags is an array of arrays of strings.
 */
export function parse(event) {
  if (event === null || typeof event !== 'object' || !Array.isArray(event.tags))
    throw new NostrError('INVALID_EVENT', 'event must have a tags array');
  return checked(core().nip10Parse(tagsJson(event.tags)));
}
