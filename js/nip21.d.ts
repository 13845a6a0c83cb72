// NIP-21 `nostr:` URIs (nostr-tools' names). An nsec is never a URI (NIP-21: "except nsec").
import type { DecodedNaddr, DecodedNevent, DecodedNote, DecodedNprofile, DecodedNpub } from './nip19.js';

/** The shape of a nostr: URI inside text (nostr-tools' regex; group 1 is the bech32 part). */
export declare const NOSTR_URI_REGEX: RegExp;

/** True when `value` is a nostr: URI that parse() accepts (checksum and TLVs included). */
export function test(value: unknown): value is `nostr:${string}`;

/** A parsed URI. */
export interface NostrURI {
  /** The whole URI. */
  uri: `nostr:${string}`;
  /** The bech32 part. */
  value: string;
  /** nip19.decode of it (never an nsec). */
  decoded: DecodedNevent | DecodedNprofile | DecodedNaddr | DecodedNpub | DecodedNote;
}

/**
 * Parses a nostr: URI (the scheme in any case). Throws NostrError NIP21_INVALID (no scheme, or an
 * nsec, refused before it is decoded) or the entity's NIP-19 error (BECH32_*, TLV_INVALID).
 */
export function parse(uri: string): NostrURI;
