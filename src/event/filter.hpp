// NIP-01 filters: parse and match. Conditions are ANDed; the values within one condition are ORed.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"

#include "event/event.hpp"

namespace nostr {

struct filter {
  std::optional<std::vector<std::string>> ids;
  std::optional<std::vector<std::string>> authors;
  std::optional<std::vector<std::int64_t>> kinds;
  std::map<std::string, std::vector<std::string>> tags;  // "#e" -> values, keyed by the letter ("e")
  std::optional<std::int64_t> since;
  std::optional<std::int64_t> until;
  std::optional<std::int64_t> limit;  // only for stored queries; never affects matching
};

// A present-but-empty list matches nothing (as nostr-tools does). Unknown keys are ignored.
bool matches(const filter& f, const event& e);

result<filter> filter_from_json(const dom::value& j);
result<filter> parse_filter(std::string_view json);
std::string to_json(const filter& f);

}  // namespace nostr
