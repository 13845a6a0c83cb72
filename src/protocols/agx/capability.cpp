#include "protocols/agx/capability.hpp"

#include "protocols/agx/json_text.hpp"

namespace nostr::agx {

bool capability_matches(std::string_view pattern, std::string_view requested) {
  if (pattern == requested) return true;
  if (pattern == "*") return true;
  if (pattern.size() >= 2 && pattern.substr(pattern.size() - 2) == ".*") {
    std::string_view prefix = pattern.substr(0, pattern.size() - 1);  // keeps the dot: "invoice."
    return requested.size() > prefix.size() && requested.substr(0, prefix.size()) == prefix;
  }
  return false;
}

bool matches_capability(const std::vector<std::string>& advertised, std::string_view requested) {
  for (const auto& p : advertised)
    if (capability_matches(p, requested)) return true;
  return false;
}

bool matches_capability_json(std::string_view advertised_json, std::string_view requested) {
  auto j = detail::parse_peer_json(advertised_json);
  if (j.is_discarded() || !j.is_array()) return false;
  for (const auto& e : j)
    if (e.is_string() && capability_matches(e.get_ref<const std::string&>(), requested)) return true;
  return false;
}

std::optional<std::string> find_handler(const std::vector<std::string>& keys, std::string_view requested) {
  const std::string* best = nullptr;
  for (const auto& k : keys) {
    if (k == requested) return k;
    if (!capability_matches(k, requested)) continue;
    // Longer patterns are more specific; "*" (length 1) loses to any namespace.
    if (!best || k.size() > best->size()) best = &k;
  }
  if (best) return *best;
  return std::nullopt;
}

}  // namespace nostr::agx
