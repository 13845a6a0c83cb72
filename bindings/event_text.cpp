// Events given as JSON text (relay frames arrive as text): filter matching and parse + verify
// through the core. Apart from event.cpp so a module whose JS never calls them (the built demo
// page's, cmake/wasm.cmake) links without them.
#include <emscripten/bind.h>

#include "event/event.hpp"
#include "event/event_reader.hpp"
#include "event/filter.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

// Filter matching through the core, on JSON texts. Returns 1, 0, or -errc.
int match_filter_json(const std::string& filter_json, const std::string& event_json) {
  auto f = parse_filter(filter_json);
  if (!f) return -fail_code(f.err());
  auto e = read_event(event_json);  // the DOM-free reader: same acceptance and errors as parse_event
  if (!e) return -fail_code(e.err());
  return matches(*f, *e) ? 1 : 0;
}

// Parse + verify of an event given as JSON text (relay frames arrive as text).
int verify_json(const std::string& json) {
  auto e = read_event(json);
  if (!e) return fail_code(e.err());
  auto r = verify(*e);
  return r ? 0 : fail_code(r.err());
}

}  // namespace

EMSCRIPTEN_BINDINGS(event_text) {
  emscripten::function("matchFilterJson", &match_filter_json);
  emscripten::function("verifyJson", &verify_json);
}

}  // namespace nostr::bindings
