// Shared steps of decoding a NIP-01 message: ["VERB", ...] parsed once, elements checked in place.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"

#include "event/filter.hpp"
#include "util/result.hpp"

namespace nostr::relay::detail {

// Valid JSON, an array, not empty, first element a string. max_bytes 0 means no limit; a larger
// frame is refused before parsing (a hostile relay's 50 MB frame costs nothing).
result<dom::value> parse_frame(std::string_view frame, std::size_t max_bytes);

inline const std::string& verb_of(const dom::value& a) { return a[0].get_ref<const std::string&>(); }

result<void> expect_arity(const dom::value& a, std::size_t n);
result<void> expect_min_arity(const dom::value& a, std::size_t n);

// Element i is a string; the pointer stays valid while `a` lives.
result<const std::string*> string_at(const dom::value& a, std::size_t i, const char* what);
// Element i is a valid subscription id.
result<const std::string*> sub_id_at(const dom::value& a, std::size_t i);
// Elements first.. are filter objects (at least one).
result<std::vector<filter>> filters_from(const dom::value& a, std::size_t first);

}  // namespace nostr::relay::detail
