#include "nips/nip27.hpp"

#include "nips/nip21.hpp"

namespace nostr::nip27 {
namespace {

// JS's \w: nostr-tools' rules are written with it. Bytes of multi-byte characters are not word.
bool word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool valid_shortcode(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!word(c)) return false;
  return true;
}

bool ends_at(std::string_view s, std::size_t at, std::string_view word_) {
  return at >= word_.size() && s.substr(at - word_.size(), word_.size()) == word_;
}

// Byte length of the UTF-8 character starting at i (1 for a stray byte).
std::size_t char_len(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
  return i + n <= s.size() ? n : 1;
}

// A JS line terminator (where a multiline `$` matches): \n, \r, U+2028, U+2029.
bool line_end(std::string_view s, std::size_t i) {
  if (i >= s.size()) return true;
  if (s[i] == '\n' || s[i] == '\r') return true;
  return s.substr(i, 2) == "\xe2\x80" && i + 2 < s.size() && (s[i + 2] == '\xa8' || s[i + 2] == '\xa9');
}

// Where a URL whose scheme's ':' is at u ends: nostr-tools' /[^\w\/] |[^\w\/]$|$|,| /m searched
// from four characters after the ':'. The URL stops before a space, a comma or a line end, and
// before a last character that is neither a word character nor '/' when a space or a line end
// follows it (the period that ends a sentence).
std::size_t url_end(std::string_view s, std::size_t u) {
  std::size_t p = u;
  for (int k = 0; k < 4 && p < s.size(); ++k) p += char_len(s, p);
  for (; p < s.size(); p += char_len(s, p)) {
    char c = s[p];
    if (c == ' ' || c == ',' || line_end(s, p)) return p;
    if (!word(c) && c != '/') {
      std::size_t next = p + char_len(s, p);
      if (line_end(s, next) || s[next] == ' ') return p;
    }
  }
  return s.size();
}

}  // namespace

std::vector<emoji> emojis_of(const tag_list& tags) {
  std::vector<emoji> out;
  for (const auto& t : tags)
    if (t.size() >= 3 && t[0] == "emoji" && valid_shortcode(t[1])) out.push_back({t[1], t[2]});
  return out;
}

std::vector<block> scan(std::string_view s, const std::vector<emoji>& emojis) {
  std::vector<block> out;
  const std::size_t n = s.size();
  std::size_t i = 0;
  // A "nostr:" or URL scheme that would start inside the previous block ("#nostr:npub1...",
  // "#ws://...") starts nothing: blocks never overlap (nostr-tools' can).
  auto free_from = [&](std::size_t start) { return out.empty() || start >= out.back().end; };
  while (i < n) {
    std::size_t u = s.find(':', i);
    std::size_t h = s.find('#', i);
    if (u == std::string_view::npos && h == std::string_view::npos) break;

    if (u == std::string_view::npos || (h != std::string_view::npos && h < u)) {
      // A hashtag starts the text or follows a character that is not a word character.
      if (h == 0 || !word(s[h - 1])) {
        std::size_t e = h + 1;
        while (e < n && word(s[e])) ++e;
        if (e > h + 1) {
          out.push_back({block_kind::hashtag, h, e, {}, 0});
          i = e;
          continue;
        }
      }
      i = h + 1;
      continue;
    }

    if (ends_at(s, u, "nostr") && free_from(u - 5)) {  // NIP-21 URI: the entity is the word run after it
      std::size_t e = u + 1;
      while (e < n && word(s[e])) ++e;
      std::string_view entity = s.substr(u + 1, e - u - 1);
      if (nip21::is_nsec(entity)) {  // never decoded, never a reference
        i = e;
        continue;
      }
      auto d = nip19::decode(entity);
      if (d) {
        out.push_back({block_kind::reference, u - 5, e, std::move(*d), 0});
        i = e;
      } else {
        i = u + 1;
      }
      continue;
    }

    bool https = ends_at(s, u, "https"), http = https || ends_at(s, u, "http");
    bool wss = ends_at(s, u, "wss"), ws = wss || ends_at(s, u, "ws");
    std::size_t prefix = http ? (https ? 5 : 4) : (wss ? 3 : 2);
    if ((http || ws) && free_from(u - prefix)) {
      std::size_t e = url_end(s, u);
      out.push_back({http ? block_kind::http_url : block_kind::ws_url, u - prefix, e, {}, 0});
      i = e;
      continue;
    }

    bool found = false;  // :shortcode:, the first emoji tag that fits
    for (std::size_t k = 0; k < emojis.size() && !found; ++k) {
      const std::string& code = emojis[k].shortcode;
      std::size_t close = u + code.size() + 1;
      if (close < n && s[close] == ':' && s.compare(u + 1, code.size(), code) == 0) {
        out.push_back({block_kind::emoji, u, close + 1, {}, k});
        i = close + 1;
        found = true;
      }
    }
    if (!found) i = u + 1;
  }
  return out;
}

}  // namespace nostr::nip27
