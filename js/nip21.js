// NIP-21 `nostr:` URIs with nostr-tools' names (NOSTR_URI_REGEX, test, parse). The core decodes
// (src/nips/nip21.cpp). Unlike nostr-tools 2.25: test() is true only for a URI that decodes (its
// checksum and TLVs too, not the bech32 shape alone), the scheme may be in any case, and an nsec
// is never a URI (NIP-21: "except nsec"): parse throws NIP21_INVALID before decoding it.
import { core, checked } from './core.js';
import { NostrError } from './errors.js';

/** The shape of a nostr: URI inside text, as nostr-tools' (its group 1 is the bech32 part). */
export const NOSTR_URI_REGEX = /nostr:([\x21-\x7E]{1,83}1[023456789acdefghjklmnpqrstuvwxyz]{6,})/;

/** True when `value` is a nostr: URI that parse() accepts. */
export function test(value) {
  return typeof value === 'string' && value.length <= 5006 && core().nip21Parse(value) !== undefined;
}

/**
 * { uri, value, decoded }: the URI, its bech32 part and nip19.decode's { type, data } of it.
 * Throws NostrError NIP21_INVALID (no nostr: scheme, or an nsec) or the entity's NIP-19 error
 * (BECH32_CHECKSUM, BECH32_PREFIX, TLV_INVALID...).
 */
export function parse(uri) {
  if (typeof uri !== 'string') throw new NostrError('NIP21_INVALID', 'a nostr: URI is a string');
  if (uri.length > 5006) throw new NostrError('BECH32_LENGTH', 'longer than 5000 characters after nostr:');
  const decoded = checked(core().nip21Parse(uri));
  return { uri, value: uri.slice(6), decoded };
}
