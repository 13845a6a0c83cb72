// NIP-19 bech32 entities: the same names and shapes as nostr-tools' nip19 module.

/** An `nprofile1…` string (a ProfilePointer). */
export type NProfile = `nprofile1${string}`;
/** An `nevent1…` string (an EventPointer). */
export type NEvent = `nevent1${string}`;
/** An `naddr1…` string (an AddressPointer). */
export type NAddr = `naddr1${string}`;
/** An `nsec1…` string (a secret key: keep it out of logs). */
export type NSec = `nsec1${string}`;
/** An `npub1…` string (a public key). */
export type NPub = `npub1${string}`;
/** A `note1…` string (an event id). */
export type Note = `note1${string}`;
/** An `ncryptsec1…` string (NIP-49; recognized by NostrTypeGuard). */
export type Ncryptsec = `ncryptsec1${string}`;

/** Type guards (nostr-tools' names): prefix and bech32 characters (and length for npub/nsec), not the checksum. */
export declare const NostrTypeGuard: {
  isNProfile: (value?: string | null) => value is NProfile;
  isNEvent: (value?: string | null) => value is NEvent;
  isNAddr: (value?: string | null) => value is NAddr;
  isNSec: (value?: string | null) => value is NSec;
  isNPub: (value?: string | null) => value is NPub;
  isNote: (value?: string | null) => value is Note;
  isNcryptsec: (value?: string | null) => value is Ncryptsec;
};

/** Longest bech32 string encoded or decoded (nostr-tools' limit; BIP-173 alone allows 90). */
export declare const Bech32MaxSize: 5000;

/** What an nprofile carries. */
export interface ProfilePointer {
  /** 32-byte hex public key. */
  pubkey: string;
  relays?: string[];
}

/** What an nevent carries. */
export interface EventPointer {
  /** 32-byte hex event id. */
  id: string;
  relays?: string[];
  /** 32-byte hex public key of the author. */
  author?: string;
  /** Event kind, an integer from 0 to 2^32-1 (TLV 3 is 32-bit). */
  kind?: number;
}

/** What an naddr carries: an addressable (or replaceable) event by kind, author and `d` tag. */
export interface AddressPointer {
  /** The `d` tag of the addressable event; empty for plain replaceable events. */
  identifier: string;
  /** 32-byte hex public key of the author. */
  pubkey: string;
  kind: number;
  relays?: string[];
}

/** decode() of an nprofile. */
export type DecodedNprofile = { type: 'nprofile'; data: ProfilePointer & { relays: string[] } };
/** decode() of an nevent. */
export type DecodedNevent = {
  type: 'nevent';
  /** `author` and `kind` are present as keys, `undefined` when the string does not carry them. */
  data: EventPointer & { relays: string[] };
};
/** decode() of an naddr. */
export type DecodedNaddr = { type: 'naddr'; data: AddressPointer & { relays: string[] } };
/** decode() of an nsec: the 32-byte secret key. */
export type DecodedNsec = { type: 'nsec'; data: Uint8Array };
/** decode() of an npub: the hex public key. */
export type DecodedNpub = { type: 'npub'; data: string };
/** decode() of a note: the hex event id. */
export type DecodedNote = { type: 'note'; data: string };
/** Anything decode() returns. */
export type DecodedResult = DecodedNevent | DecodedNprofile | DecodedNaddr | DecodedNpub | DecodedNsec | DecodedNote;
/** decodeNostrURI()'s answer for a string that does not decode. */
export type DecodedInvalid = { type: 'invalid'; data: null };

/**
 * Decodes a NIP-19 string. Throws NostrError: BECH32_INVALID, BECH32_CHECKSUM, BECH32_PREFIX,
 * BECH32_LENGTH, TLV_INVALID (or INVALID_ARGUMENT for a non-string).
 */
export declare function decode(nip19: NEvent): DecodedNevent;
export declare function decode(nip19: NProfile): DecodedNprofile;
export declare function decode(nip19: NAddr): DecodedNaddr;
export declare function decode(nip19: NSec): DecodedNsec;
export declare function decode(nip19: NPub): DecodedNpub;
export declare function decode(nip19: Note): DecodedNote;
export declare function decode(code: string): DecodedResult;

/** decode() after stripping `nostr:` (NIP-21); never throws, like nostr-tools. */
export declare function decodeNostrURI(uri: NEvent | `nostr:${NEvent}`): DecodedNevent | DecodedInvalid;
export declare function decodeNostrURI(uri: NProfile | `nostr:${NProfile}`): DecodedNprofile | DecodedInvalid;
export declare function decodeNostrURI(uri: NAddr | `nostr:${NAddr}`): DecodedNaddr | DecodedInvalid;
export declare function decodeNostrURI(uri: NSec | `nostr:${NSec}`): DecodedNsec | DecodedInvalid;
export declare function decodeNostrURI(uri: NPub | `nostr:${NPub}`): DecodedNpub | DecodedInvalid;
export declare function decodeNostrURI(uri: Note | `nostr:${Note}`): DecodedNote | DecodedInvalid;
export declare function decodeNostrURI(uri: string): DecodedResult | DecodedInvalid;

/** Throws NostrError INVALID_ARGUMENT (not a Uint8Array) or INVALID_LENGTH (not 32 bytes). */
export declare function nsecEncode(key: Uint8Array): NSec;
/** Throws NostrError INVALID_HEX or INVALID_LENGTH. */
export declare function npubEncode(hex: string): NPub;
/** Throws NostrError INVALID_HEX or INVALID_LENGTH. */
export declare function noteEncode(hex: string): Note;
/** Bech32 of raw bytes under any prefix (no TLV). Throws NostrError (INVALID_ARGUMENT, BECH32_*). */
export declare function encodeBytes<Prefix extends string>(prefix: Prefix, bytes: Uint8Array): `${Prefix}1${string}`;
/**
 * TLV encoders (spec order). Besides INVALID_HEX / INVALID_LENGTH they throw TLV_INVALID (a relay
 * or identifier over 255 UTF-8 bytes), INVALID_UTF8 (a lone surrogate), BECH32_LENGTH (over
 * 5000 characters) and INVALID_ARGUMENT (wrong types, kind outside 0..2^32-1).
 */
export declare function nprofileEncode(profile: ProfilePointer): NProfile;
/** An nevent of an event pointer (same errors as nprofileEncode). */
export declare function neventEncode(event: EventPointer): NEvent;
/** An naddr of an address pointer (same errors as nprofileEncode). */
export declare function naddrEncode(addr: AddressPointer): NAddr;
