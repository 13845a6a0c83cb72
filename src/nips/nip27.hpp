// NIP-27 references in content: `nostr:` URIs (NIP-21) inside a note's text, read together with
// what clients show around them the way nostr-tools 2.x reads them: #hashtags, http(s) and ws(s)
// URLs, and NIP-30 :shortcode: emoji named by the event's `emoji` tags.
//
// The scan is nostr-tools' (one pass over ':' and '#'; the same rules for where a reference, a URL
// and a hashtag end), except where that reads wrongly: a hashtag is a non-empty run of [A-Za-z0-9_]
// of any length (nostr-tools takes an empty one, and the rest of the text after 41 characters), an
// `nsec` is never a reference and the character after it is still read, a ws:// URL starts at its
// 'w' (nostr-tools takes the character before it too), an emoji's shortcode must be NIP-30's
// [A-Za-z0-9_]+, and blocks never overlap (in nostr-tools "#nostr:npub1..." is a hashtag and a
// reference over the same "nostr"; here the hashtag, then text). Offsets are bytes of the UTF-8 content. A URL here is a
// candidate: the host's URL parser (WHATWG in JS) decides whether it is one and spells it.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "event/event.hpp"
#include "nips/nip19.hpp"

namespace nostr::nip27 {

struct emoji {
  std::string shortcode;  // [A-Za-z0-9_]+ (NIP-30)
  std::string url;
};

enum class block_kind { reference, http_url, ws_url, hashtag, emoji };

struct block {
  block_kind kind;
  std::size_t start = 0;  // the block is content[start, end)
  std::size_t end = 0;
  nip19::entity entity;    // reference: npub, note, nprofile, nevent or naddr
  std::size_t emoji = 0;   // emoji: its index in the list given to scan()
};

// The `emoji` tags (["emoji", shortcode, url], NIP-30) whose shortcode is valid, in tag order.
std::vector<emoji> emojis_of(const tag_list& tags);

// The non-text blocks of `content`, in order and not overlapping; what lies between them is text.
std::vector<block> scan(std::string_view content, const std::vector<emoji>& emojis);

}  // namespace nostr::nip27
