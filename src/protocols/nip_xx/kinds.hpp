// NIP-XX AI Agent Messages: the event kinds.
//
// The seed's kinds table is garbled; these are the kinds its text uses throughout. Its own
// published event advertises 31430 for ai.info where the text says 31340: we follow the text.
#pragma once
#include <cstdint>
#include <optional>

namespace nostr::nip_xx {

enum class kind : std::int64_t {
  status = 25800,
  delta = 25801,
  prompt = 25802,
  response = 25803,
  tool_call = 25804,
  error = 25805,
  cancel = 25806,
  info = 31340,
};

inline std::optional<kind> kind_from(std::int64_t k) {
  if ((k >= 25800 && k <= 25806) || k == 31340) return static_cast<kind>(k);
  return std::nullopt;
}

inline bool is_terminal(kind k) { return k == kind::response || k == kind::error; }

// Encrypted kinds (all but ai.info) carry ["encryption","nip44"] and a NIP-44 payload.
inline bool is_encrypted(kind k) { return k != kind::info; }

// Kinds a relay must keep for the seed's recovery (Session recovery recipe: prompts by #s, each
// run's latest terminal by #e root). They sit in NIP-01's ephemeral range (20000-29999), so only a
// relay told to store them does (the dev relay's storeKinds); status, delta and tool_call are
// ephemeral by the seed itself.
inline bool is_durable(kind k) { return k == kind::prompt || is_terminal(k); }

// Events the agent sends about a run (they carry the e root tag and p = client).
inline bool is_run_event(kind k) {
  return k == kind::status || k == kind::delta || k == kind::response || k == kind::tool_call || k == kind::error;
}

}  // namespace nostr::nip_xx
