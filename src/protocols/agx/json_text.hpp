// Text helpers shared by the AGX modules: UTF-8 checks, lengths counted the way the reference's
// schema counts them (JS string length = UTF-16 code units), and peer-JSON parsing with a depth
// bound. Internal to the AGX modules.
#pragma once
#include "util/utf8.hpp"
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "json/value.hpp"

namespace nostr::agx::detail {

inline bool valid_utf8(std::string_view s) { return utf8::valid(s); }

// Length in UTF-16 code units of valid UTF-8 text (a 4-byte sequence counts 2).
std::size_t utf16_length(std::string_view s);

// The longest prefix of valid UTF-8 text whose UTF-16 length is at most max_units, cut at a code
// point boundary (JS slice would keep half a surrogate pair; we keep neither half).
std::string_view utf16_prefix(std::string_view s, std::size_t max_units);

// True when no array or object in the JSON text nests deeper than max_depth. Scans bytes only
// (strings skipped); malformed text is left for the parser to reject.
bool json_depth_ok(std::string_view text, std::size_t max_depth);

// Parses peer-supplied JSON: discarded when malformed, not UTF-8, or nested beyond kMaxJsonDepth.
dom::value parse_peer_json(std::string_view text);

// Compact JSON text of a value (invalid UTF-8 replaced, never thrown on).
std::string dump_json(const dom::value& j);

// The string member `key` of an object, or nothing when absent or not a string.
const std::string* find_string(const dom::value& obj, const char* key);

// True when j is a JSON number equal to an integer in [lo, hi] (3.0 counts, as Number.isInteger).
bool integer_in_range(const dom::value& j, long long lo, long long hi, long long& out);

// A string whose UTF-16 length is within [min_units, max_units].
bool string_len_ok(const std::string& s, std::size_t min_units, std::size_t max_units);

}  // namespace nostr::agx::detail
