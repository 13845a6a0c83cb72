#include "relay/sub_id.hpp"

namespace nostr::relay {

std::size_t utf8_char_count(std::string_view s) {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xc0) != 0x80) ++n;
  return n;
}

bool valid_sub_id(std::string_view sub_id) {
  // Cheap bound first: 64 code points take at most 256 bytes.
  return !sub_id.empty() && sub_id.size() <= 4 * max_sub_id_chars && utf8_char_count(sub_id) <= max_sub_id_chars;
}

}  // namespace nostr::relay
