// AGX checks that the client and agent code paths do not call: a relay's write policy for AGX
// traffic and capability matching on strings (js/agx/capability.js). Apart from agx.cpp so a
// module whose JS never calls them (the built demo page's, cmake/wasm.cmake) links without them.
#include <emscripten/bind.h>

#include <cstdint>
#include <string>

#include "event/event_reader.hpp"
#include "protocols/agx/capability.hpp"
#include "protocols/agx/unwrap.hpp"
#include "support.hpp"
#include "wrap_inputs.hpp"

namespace nostr::bindings {
namespace {

// A relay's write policy for AGX traffic (SPEC.md "Retention", "Anti-spam"): true, or undefined
// with lastError() holding the reason.
val relay_accepts(const std::string& event_json, double now_s) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto e = read_event(event_json);
  if (!e) return fail(e.err());
  auto ok = agx::relay_accepts(*e, now);
  if (!ok) return fail(ok.err());
  return val(true);
}

bool capability_matches(const std::string& pattern, const std::string& requested) {
  return agx::capability_matches(pattern, requested);
}
bool matches_capability(const std::string& advertised_json, const std::string& requested) {
  return agx::matches_capability_json(advertised_json, requested);
}

}  // namespace

EMSCRIPTEN_BINDINGS(agx_checks) {
  emscripten::function("agxRelayAccepts", &relay_accepts);
  emscripten::function("agxCapabilityMatches", &capability_matches);
  emscripten::function("agxMatchesCapability", &matches_capability);
}

}  // namespace nostr::bindings
