// Small helpers both AGX glue files use (agx.cpp: the requesting side; agx_serve.cpp: the serving
// side; agx_routes.cpp): a fresh message id from the CSPRNG, an optional from an Embind (present,
// text) pair, the strings of a JSON array, the events of one, and task flood limits from JS numbers.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "event/event_json.hpp"
#include "protocols/agx/payload.hpp"
#include "protocols/agx/task_gate.hpp"
#include "support.hpp"

namespace nostr::bindings::agx_glue {

inline std::string fresh_id() {
  std::uint8_t r[16];
  random_fill(r, sizeof r);
  return agx::new_id(r);
}

inline std::optional<std::string> opt(bool present, const std::string& s) {
  return present ? std::optional<std::string>(s) : std::nullopt;
}

// A JSON array's strings (anything else in it, or text that is no array: left out).
inline std::vector<std::string> string_list(const std::string& text) {
  std::vector<std::string> out;
  auto j = parse_json(text);
  if (!j.is_array()) return out;
  for (const auto& e : j)
    if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}

// A JSON array of events (the pool delivered them verified); elements that are no event are skipped.
inline std::vector<event> events_of(const std::string& text) {
  std::vector<event> out;
  auto j = parse_json(text);
  if (!j.is_array()) return out;
  for (const auto& e : j)
    if (auto ev = event_from_json(e)) out.push_back(std::move(*ev));
  return out;
}

// Counts arrive as JS numbers, already checked by js/agx/task-gate.js.
inline agx::task_limits task_limits_of(double max_concurrent, double per_peer_concurrent, double max_queued,
                                       double per_peer_queued, double rate_count, double rate_window,
                                       double max_tracked) {
  agx::task_limits l;
  l.max_concurrent = static_cast<std::uint32_t>(max_concurrent);
  l.per_peer_concurrent = static_cast<std::uint32_t>(per_peer_concurrent);
  l.max_queued = static_cast<std::uint32_t>(max_queued);
  l.per_peer_queued = static_cast<std::uint32_t>(per_peer_queued);
  l.rate_count = static_cast<std::uint32_t>(rate_count);
  l.rate_window = static_cast<std::int64_t>(rate_window);
  l.max_tracked_peers = static_cast<std::size_t>(max_tracked);
  return l;
}

}  // namespace nostr::bindings::agx_glue
