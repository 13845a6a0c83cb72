// Capability matching (SPEC.md "Capability matching"): keys are dot-namespaced
// ("invoice.review"); "ns.*" advertises a namespace ("invoice.*" matches "invoice.review" and
// deeper keys, not "invoice" itself); "*" advertises everything.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nostr::agx {

// Whether one advertised pattern covers the requested capability.
bool capability_matches(std::string_view pattern, std::string_view requested);

// Whether any advertised entry covers `requested`.
bool matches_capability(const std::vector<std::string>& advertised, std::string_view requested);

// The same over a JSON array taken from a peer (e.g. a card's capabilities as JS holds it):
// non-string entries are ignored, never fatal; anything but an array matches nothing.
bool matches_capability_json(std::string_view advertised_json, std::string_view requested);

// The registered handler key that services `requested`: the exact key first, then the longest
// matching "ns.*" pattern, then "*". nullopt when none does.
std::optional<std::string> find_handler(const std::vector<std::string>& handler_keys, std::string_view requested);

}  // namespace nostr::agx
