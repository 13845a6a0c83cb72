// NIP-01 subscription ids: "an arbitrary, non-empty string of max length 64 chars".
#pragma once
#include <cstddef>
#include <string_view>

namespace nostr::relay {

constexpr std::size_t max_sub_id_chars = 64;

// Characters are Unicode code points (a UTF-8 continuation byte does not start one), so a
// 64-character id in a non-Latin script is accepted although it is longer than 64 bytes.
std::size_t utf8_char_count(std::string_view s);

bool valid_sub_id(std::string_view sub_id);

}  // namespace nostr::relay
