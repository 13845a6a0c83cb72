// The machine-readable prefix of OK and CLOSED messages (NIP-01, "From relay to client"):
// "duplicate: already have this event" -> reason duplicate, text "already have this event".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace nostr::relay {

enum class reason_code : std::uint8_t {
  none,  // no prefix (typical of an accepting OK with an empty message)
  duplicate,
  pow,
  blocked,
  rate_limited,
  invalid,
  error,
  auth_required,
  restricted,
  unknown,  // a prefix NIP-01 does not define; prefix() still returns it
};

// Stable wire-style name: "duplicate", "rate-limited", "auth-required", "none", "unknown"...
const char* reason_name(reason_code r);

// The prefix NIP-01 gives a reason ("rate-limited"); empty for none and unknown.
std::string_view reason_prefix(reason_code r);

// Whether trying the same thing again later may succeed without changing it: rate limits and
// relay-side errors pass; duplicate, pow, blocked, invalid, restricted will not change.
// auth-required is not transient: it needs NIP-42 AUTH first.
bool reason_is_transient(reason_code r);

struct machine_message {
  reason_code reason = reason_code::none;
  std::string message;  // the whole text as sent, so encoding gives back the same frame

  // The prefix as written ("rate-limited", "mute"...); empty when reason is none.
  std::string_view prefix() const;
  // The human part: after the prefix and its colon, leading spaces removed; all of it when none.
  std::string_view text() const;
};

// Classifies a message. A prefix is a single word of [A-Za-z0-9_-] directly followed by ':'; the
// defined prefixes match case-insensitively ("Error:" from some relays is error).
machine_message parse_machine_message(std::string message);

// "<prefix>: <text>", or text alone for none and unknown: what a relay puts in OK and CLOSED.
machine_message make_machine_message(reason_code reason, std::string_view text);

}  // namespace nostr::relay
