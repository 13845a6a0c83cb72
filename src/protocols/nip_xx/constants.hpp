// NIP-XX constants shared by the core's machines and exported to JS (bindings/nip_xx.cpp,
// nipxxConstants): one copy of each kind, window, grace and default. Times in a name ending in
// _ms are milliseconds on the driver's clock; _s are seconds (created_at's unit).
#pragma once
#include <cstddef>
#include <cstdint>

namespace nostr::nip_xx {

// How long a run keeps listening after its first terminal for a newer one. created_at has a
// one-second resolution, so a competing terminal (a response/cancel race, a second instance of the
// agent) is signed within about a second of the first; the relays deliver it within the rest.
inline constexpr std::int64_t default_terminal_grace_ms = 1500;
// A run that hears nothing from its agent for this long ends locally with RUN_INCOMPLETE (the
// seed's "missing a terminal after reasonable timeout"; no wait is infinite by default).
inline constexpr std::int64_t default_idle_timeout_ms = 120'000;
// After ai.cancel, how long the client waits for the agent's CANCELLED before ending locally.
inline constexpr std::int64_t default_cancel_timeout_ms = 10'000;
// How long discover() and prompt()'s ai.info look-up wait for the relays.
inline constexpr std::int64_t default_discover_wait_ms = 5000;
inline constexpr std::int64_t prompt_discover_wait_ms = 3000;
// serveAgent.stop(): how long running handlers get to end, then the late terminals to go out.
inline constexpr std::int64_t default_stop_timeout_ms = 2000;

// Gift wraps are dated up to two days back (NIP-59), so subscriptions to them look that far back.
inline constexpr std::int64_t wrap_lookback_s = 2 * 24 * 3600 + 600;
// A live prompt is fresh while its created_at is within this of the agent's clock.
inline constexpr std::int64_t default_max_clock_skew_s = 900;
// Without `since`, a (re)started agent answers stored prompts at most this old.
inline constexpr std::int64_t restart_lookback_s = 60;
// Prompt ids an agent remembers (dedupe), gift wraps a signer remembers having opened.
inline constexpr std::size_t seen_prompts_cap = 10'000;
inline constexpr std::size_t opened_wraps_cap = 10'000;

// created_at (seconds) of an event signed at now_ms.
inline constexpr std::int64_t seconds_of(std::int64_t now_ms) {
  return now_ms >= 0 ? now_ms / 1000 : -((-now_ms + 999) / 1000);
}

}  // namespace nostr::nip_xx
