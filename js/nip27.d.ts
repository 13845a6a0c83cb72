// NIP-27 references in content: nostr-tools' nip27.parse blocks (nostr: references, URLs, relays,
// hashtags, NIP-30 emoji, and the text between them), with UTF-16 start and end offsets.
import type { AddressPointer, EventPointer, ProfilePointer } from './nip19.js';

/** One piece of content; `content.slice(start, end)` is its text. */
export type Block =
  | { type: 'text'; text: string; start: number; end: number }
  | { type: 'reference'; pointer: ProfilePointer | AddressPointer | EventPointer; start: number; end: number }
  | { type: 'url' | 'image' | 'video' | 'audio' | 'relay'; url: string; start: number; end: number }
  | { type: 'emoji'; shortcode: string; url: string; start: number; end: number }
  | { type: 'hashtag'; value: string; start: number; end: number };

/**
 * The blocks of a content string, or of an event's content with its `emoji` tags, in order and
 * covering it. An array (nostr-tools returns a generator; both iterate). Unlike nostr-tools 2.25: an
 * empty `#` is text and a long hashtag is one block, an nsec is never a reference (nor does it hide
 * what follows), a ws:// URL starts at its "w", emoji shortcodes must be NIP-30's, and no empty text
 * block is made. Throws NostrError INVALID_ARGUMENT for anything else.
 */
export function parse(content: string | { content: string; tags: string[][] }): Block[];
