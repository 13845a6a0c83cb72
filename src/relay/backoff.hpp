// Exponential backoff with jitter, for reconnects and for retrying a subscription a relay CLOSED
// with a transient reason: attempt n (from 0) waits min(max, initial * factor^n), of which a
// random fraction `jitter` is taken off (0: none, 1: "full jitter"). The random number is the
// caller's, so the rule stays deterministic under test.
#pragma once
#include <cstdint>

namespace nostr::relay {

struct backoff_policy {
  std::int64_t initial_ms;
  std::int64_t max_ms;
  double factor;
  double jitter;
};

// The pool's defaults (js/relay reads them through relayConstants()).
inline constexpr backoff_policy kReconnectBackoff{500, 30'000, 2, 0.5};
inline constexpr std::int64_t kReconnectStableAfterMs = 5'000;  // an open this long resets the attempts
inline constexpr backoff_policy kRetryBackoff{250, 5'000, 2, 0.5};
inline constexpr int kSubscriptionRetries = 3;  // transient CLOSED retried this often per connection
inline constexpr int kPublishRetries = 3;       // transient refusals and lost connections per publish and relay
inline constexpr std::int64_t kPublishTimeoutMs = 10'000;  // per relay, retries included
inline constexpr std::int64_t kAuthTimeoutMs = 10'000;     // NIP-42: for the challenge, then for the OK

// random01 in [0, 1). Rounded to whole ms.
std::int64_t backoff_delay(int attempt, const backoff_policy& p, double random01);

// The attempt number of the next reconnect: back to 0 after a connection that stayed open for
// stable_after_ms (the relay is fine; the drop was a blip), else one more than the last.
int next_reconnect_attempt(int attempt, std::int64_t opened_for_ms, std::int64_t stable_after_ms);

}  // namespace nostr::relay
