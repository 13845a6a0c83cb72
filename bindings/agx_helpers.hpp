// Small helpers both AGX glue files use (agx.cpp: the requesting side; agx_serve.cpp: the serving
// side): a fresh message id from the CSPRNG, an optional from an Embind (present, text) pair, and
// the strings of a JSON array.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "event/event_json.hpp"
#include "protocols/agx/payload.hpp"
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

}  // namespace nostr::bindings::agx_glue
