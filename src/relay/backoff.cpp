#include "relay/backoff.hpp"

#include <algorithm>
#include <cmath>

namespace nostr::relay {

std::int64_t backoff_delay(int attempt, const backoff_policy& p, double random01) {
  const double base = std::min(static_cast<double>(p.max_ms),
                               static_cast<double>(p.initial_ms) * std::pow(p.factor, std::max(attempt, 0)));
  const double r = std::clamp(random01, 0.0, 1.0);
  const double j = std::clamp(p.jitter, 0.0, 1.0);
  // Math.round in the JS this replaced: half up.
  return static_cast<std::int64_t>(std::floor(base * (1 - j * r) + 0.5));
}

int next_reconnect_attempt(int attempt, std::int64_t opened_for_ms, std::int64_t stable_after_ms) {
  return opened_for_ms >= 0 && opened_for_ms >= stable_after_ms ? 0 : attempt;
}

}  // namespace nostr::relay
