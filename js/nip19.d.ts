// NIP-19 bech32 entities: the same names and shapes as nostr-tools' nip19 module.

export type NProfile = `nprofile1${string}`;
export type NEvent = `nevent1${string}`;
export type NAddr = `naddr1${string}`;
export type NSec = `nsec1${string}`;
export type NPub = `npub1${string}`;
export type Note = `note1${string}`;
export type Ncryptsec = `ncryptsec1${string}`;

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

export interface ProfilePointer {
  /** 32-byte hex public key. */
  pubkey: string;
  relays?: string[];
}

export interface EventPointer {
  /** 32-byte hex event id. */
  id: string;
  relays?: string[];
  /** 32-byte hex public key of the author. */
  author?: string;
  /** Event kind, an integer from 0 to 2^32-1 (TLV 3 is 32-bit). */
  kind?: number;
}

export interface AddressPointer {
  /** The `d` tag of the addressable event; empty for plain replaceable events. */
  identifier: string;
  /** 32-byte hex public key of the author. */
  pubkey: string;
  kind: number;
  relays?: string[];
}

export type DecodedNprofile = { type: 'nprofile'; data: ProfilePointer & { relays: string[] } };
export type DecodedNevent = {
  type: 'nevent';
  /** `author` and `kind` are present as keys, `undefined` when the string does not carry them. */
  data: EventPointer & { relays: string[] };
};
export type DecodedNaddr = { type: 'naddr'; data: AddressPointer & { relays: string[] } };
export type DecodedNsec = { type: 'nsec'; data: Uint8Array };
export type DecodedNpub = { type: 'npub'; data: string };
export type DecodedNote = { type: 'note'; data: string };
export type DecodedResult = DecodedNevent | DecodedNprofile | DecodedNaddr | DecodedNpub | DecodedNsec | DecodedNote;
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
export declare function encodeBytes<Prefix extends string>(prefix: Prefix, bytes: Uint8Array): `${Prefix}1${string}`;
/**
 * TLV encoders (spec order). Besides INVALID_HEX / INVALID_LENGTH they throw TLV_INVALID (a relay
 * or identifier over 255 UTF-8 bytes), INVALID_UTF8 (a lone surrogate), BECH32_LENGTH (over
 * 5000 characters) and INVALID_ARGUMENT (wrong types, kind outside 0..2^32-1).
 */
export declare function nprofileEncode(profile: ProfilePointer): NProfile;
export declare function neventEncode(event: EventPointer): NEvent;
export declare function naddrEncode(addr: AddressPointer): NAddr;
