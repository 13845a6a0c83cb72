// NIP-05 internet identifiers ([name@]domain -> pubkey and relays), with nostr-tools' names. Every
// lookup is https only, to a public host (never localhost or a private address, also by DNS in
// Node, again at connect time), without redirects, at most 100 KB, within 5 s by default.
import type { ProfilePointer } from './nip19.js';

/** An identifier's type (nostr-tools' name). */
export type Nip05 = `${string}@${string}`;

/**
 * The syntax of an identifier: groups 1 the name (absent for a bare domain, meaning "_"), 2 the
 * domain, 3 its last label with the dot. Syntax only: isNip05 and the lookups also refuse hosts that
 * are not public (IP literals, localhost, .local, .internal...).
 */
export declare const NIP05_REGEX: RegExp;

/** True when the lookups accept `value` as an identifier (syntax and a public host). */
export function isNip05(value?: string | null): value is Nip05;

/** Options of the lookups. */
export interface Nip05Options {
  /** A fetch to use (default: the one set by useFetchImplementation, else in Node an https GET that connects only to addresses it checked, in browsers globalThis.fetch). */
  fetch?: (url: string, init: any) => Promise<any>;
  /** host => its addresses, all of which must be public (default: DNS in Node, none in browsers). */
  lookup?: (host: string) => Promise<string[] | null>;
  /** PEM certificate(s) the Node default fetch trusts besides Node's roots. */
  ca?: string | Uint8Array | Array<string | Uint8Array>;
  /** Milliseconds for the whole lookup (default 5000): NostrError NIP05_TIMEOUT. */
  timeout?: number;
  /** Aborts the lookup: NostrError ABORTED. */
  signal?: {
    readonly aborted: boolean;
    readonly reason?: unknown;
    addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
    removeEventListener(type: 'abort', listener: () => void): void;
  };
}

/** The fetch the lookups use when given none (nostr-tools' name); null restores the default. */
export function useFetchImplementation(fetchImplementation: unknown): void;

/**
 * The profile an identifier names: { pubkey, relays } (relays: the ws(s) URLs the document lists for
 * the key, [] when none). Rejects with NostrError NIP05_INVALID, NIP05_NOT_FOUND,
 * NIP05_RESPONSE_INVALID, NIP05_NOT_PUBLIC, NIP05_DNS, NIP05_REDIRECT, NIP05_HTTP, NIP05_TOO_LARGE,
 * NIP05_TIMEOUT, ABORTED.
 */
export function lookupProfile(identifier: string, options?: Nip05Options): Promise<ProfilePointer & { relays: string[] }>;

/** lookupProfile's profile, or null when there is none or the lookup fails (nostr-tools' shape). */
export function queryProfile(fullname: string, options?: Nip05Options): Promise<(ProfilePointer & { relays: string[] }) | null>;

/** True when `nip05` names `pubkey` (hex, either case); false when not or when the lookup fails. */
export function isValid(pubkey: string, nip05: Nip05 | string, options?: Nip05Options): Promise<boolean>;

/** name -> pubkey of a domain's nostr.json for `query` (empty: all names it will list); {} when the lookup fails. */
export function searchDomain(domain: string, query?: string, options?: Nip05Options): Promise<{ [name: string]: string }>;
