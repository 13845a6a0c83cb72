// NIP-27 references in content, with nostr-tools' nip27.parse and its blocks: text, `nostr:`
// references (with nip19's pointers), http(s) URLs (image, video and audio by their path's
// extension), ws(s) relay URLs, #hashtags and NIP-30 :emoji: from the event's `emoji` tags. The
// core scans (src/nips/nip27.cpp, where its few differences from nostr-tools are listed); the
// platform's URL parser decides which URL candidates are URLs and spells them, as nostr-tools does.
import { core, checked } from './core.js';
import { NostrError } from './errors.js';
import { tagsJson } from './event.js';

const REFERENCE = 0;
const HTTP_URL = 1;
const WS_URL = 2;
const HASHTAG = 3;

const IMAGE = /\.(png|jpe?g|gif|webp|heic|svg)$/i;
const VIDEO = /\.(mp4|avi|webm|mkv|mov)$/i;
const AUDIO = /\.(mp3|aac|ogg|opus|wav|flac)$/i;

// The block of a URL candidate, or null when it is not a URL with a dotted host.
function urlBlock(kind, text, start, end) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (!url.hostname.includes('.')) return null;
  if (kind === WS_URL) return { type: 'relay', url: url.toString(), start, end };
  const type = IMAGE.test(url.pathname) ? 'image' : VIDEO.test(url.pathname) ? 'video' : AUDIO.test(url.pathname) ? 'audio' : 'url';
  return { type, url: url.toString(), start, end };
}

/**
 * The blocks of `content` (a string, or an event: its content, with its `emoji` tags), in order,
 * covering it: { type: 'text', text } | { type: 'reference', pointer } | { type: 'url' | 'image' |
 * 'video' | 'audio' | 'relay', url } | { type: 'hashtag', value } | { type: 'emoji', shortcode, url },
 * each with start and end (UTF-16 offsets, as String.prototype.slice takes them). An array (nostr-tools
 * returns a generator; both iterate). Throws NostrError INVALID_ARGUMENT for anything else.
 */
export function parse(content) {
  let text = content;
  let emojiTags = '';
  if (content !== null && typeof content === 'object') {
    text = content.content;
    const tags = Array.isArray(content.tags) ? content.tags : [];
    const emoji = tags.filter((t) => Array.isArray(t) && t[0] === 'emoji' && t.every((x) => typeof x === 'string'));
    emojiTags = tagsJson(emoji);
  }
  if (typeof text !== 'string') throw new NostrError('INVALID_ARGUMENT', 'content must be a string or an event with content');
  const found = checked(core().nip27Scan(text, emojiTags));
  const blocks = [];
  let at = 0; // where the pending text starts
  for (const [kind, start, end, data] of found) {
    let block;
    if (kind === REFERENCE) block = { type: 'reference', pointer: data, start, end };
    else if (kind === HASHTAG) block = { type: 'hashtag', value: text.slice(start + 1, end), start, end };
    else if (kind === HTTP_URL || kind === WS_URL) block = urlBlock(kind, text.slice(start, end), start, end);
    else block = { type: 'emoji', shortcode: data.shortcode, url: data.url, start, end };
    if (block === null) continue; // not a URL: it stays text
    if (at < start) blocks.push({ type: 'text', text: text.slice(at, start), start: at, end: start });
    blocks.push(block);
    at = end;
  }
  if (at < text.length) blocks.push({ type: 'text', text: text.slice(at), start: at, end: text.length });
  return blocks;
}
