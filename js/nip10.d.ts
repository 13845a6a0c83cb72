// NIP-10 threads: what a note's `e`, `q` and `p` tags say about its thread (nostr-tools' nip10.parse).
import type { AddressPointer, EventPointer, ProfilePointer } from './nip19.js';

/** A reference from an `e` or `q` tag: the tag's relay hint, then its author's (from the author's p tag). */
export type ThreadPointer = EventPointer & { relays: string[] };

/** What parse() finds. */
export interface Thread {
  /** The root of the thread (the reply's target itself when the note replies to the root). */
  root: ThreadPointer | undefined;
  /** The event this note replies to. */
  reply: ThreadPointer | undefined;
  /** Other events the `e` tags name, in tag order. */
  mentions: ThreadPointer[];
  /** `q` tags: events (with the tag's pubkey as author) or addresses, in tag order. */
  quotes: Array<ThreadPointer | (AddressPointer & { relays: string[] })>;
  /** `p` tags, in tag order, each with its relay hint and those of the references it authored. */
  profiles: Array<ProfilePointer & { relays: string[] }>;
}

/**
 * The thread references of an event (anything with `tags`): marked `e` tags first, positional ones
 * (first the root, last the parent) as the fallback. Unlike nostr-tools 2.25 the lists are in tag
 * order and `q` tags may name addresses. Throws NostrError INVALID_EVENT unless tags is an array of
 * arrays of strings.
 */
export function parse(event: { tags: string[][] }): Thread;
