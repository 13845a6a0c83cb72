// NIP-01 kind classes for js/kinds.js: the core's classify_kind decides (one copy of the ranges).
#include <emscripten/bind.h>

#include <cmath>

#include "event/event.hpp"

namespace nostr::bindings {
namespace {

// 0 regular, 1 replaceable, 2 ephemeral, 3 addressable, 4 unknown (also for NaN, fractions and
// numbers outside NIP-01's 0..65535).
int kind_class_of(double kind) {
  if (!std::isfinite(kind) || std::floor(kind) != kind || kind < 0 || kind > 65535) return 4;
  return static_cast<int>(classify_kind(static_cast<std::int64_t>(kind)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(kinds) { emscripten::function("kindClass", &kind_class_of); }

}  // namespace nostr::bindings
