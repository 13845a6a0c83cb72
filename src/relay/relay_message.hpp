// NIP-01 relay-to-client messages ("From relay to client"), with NIP-42 AUTH and NIP-45 COUNT:
//   ["EVENT", <sub id>, <event>]  ["OK", <event id>, <true|false>, <message>]  ["EOSE", <sub id>]
//   ["CLOSED", <sub id>, <message>]  ["NOTICE", <message>]  ["AUTH", <challenge>]
//   ["COUNT", <sub id>, {"count": <n>, "approximate"?: <bool>}]
// The pool decodes these (through subscriptions::feed); the dev relay encodes them.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "json/value.hpp"

#include "event/event.hpp"
#include "relay/reason.hpp"
#include "util/result.hpp"

namespace nostr::relay {

struct relay_event {
  std::string sub_id;
  event ev;
};
struct relay_ok {
  std::string event_id;  // 64 lowercase hex
  bool accepted = false;
  machine_message status;
};
struct relay_eose {
  std::string sub_id;
};
struct relay_closed {
  std::string sub_id;
  machine_message status;
};
struct relay_notice {
  std::string message;
};
struct relay_auth {  // NIP-42 challenge
  std::string challenge;
};
struct relay_count {
  std::string sub_id;
  std::int64_t count = 0;
  bool approximate = false;
  std::string hll;  // NIP-45 HyperLogLog registers: 512 lowercase hex digits, or empty
};

using relay_message =
    std::variant<relay_event, relay_ok, relay_eose, relay_closed, relay_notice, relay_auth, relay_count>;

// Decodes one frame. Errors as decode_client_message, with "REQ" and "CLOSE" unknown here. The
// event is not verified; the OK event id must be 64 lowercase hex (the pool matches it to what it
// published); a COUNT result needs a non-negative integer "count" (an "hll" that is not 256
// registers in lowercase hex is left out, not an error: it is an optional hint).
result<relay_message> decode_relay_message(std::string_view frame, std::size_t max_frame_bytes = 0);

// Encoders. Those taking a sub id refuse one that is empty or over 64 characters, encode_ok an id
// that is not 64 lowercase hex, encode_count_result a negative count (INVALID_ARGUMENT).
result<std::string> encode_relay_event(std::string_view sub_id, const event& e);
result<std::string> encode_ok(std::string_view event_id, bool accepted, std::string_view message);
result<std::string> encode_eose(std::string_view sub_id);
result<std::string> encode_closed(std::string_view sub_id, std::string_view message);
std::string encode_notice(std::string_view message);
std::string encode_auth_challenge(std::string_view challenge);
result<std::string> encode_count_result(std::string_view sub_id, std::int64_t count, bool approximate = false);
result<std::string> encode(const relay_message& m);

namespace detail {
// Decodes an already parsed frame (see detail::parse_frame), so subscriptions::feed can parse a
// frame once and still name the subscription of a frame that fails here.
result<relay_message> decode_relay_json(const dom::value& a);
}  // namespace detail

}  // namespace nostr::relay
