// NIP-01 client-to-relay messages ("From client to relay"), with NIP-42 AUTH and NIP-45 COUNT:
//   ["EVENT", <event>]  ["REQ", <sub id>, <filter>...]  ["CLOSE", <sub id>]
//   ["AUTH", <signed kind 22242 event>]  ["COUNT", <sub id>, <filter>...]
// The dev relay decodes these; the pool encodes them.
#pragma once
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "event/event.hpp"
#include "event/filter.hpp"
#include "util/result.hpp"

namespace nostr::relay {

struct client_event {  // publish
  event ev;
};
struct client_req {
  std::string sub_id;
  std::vector<filter> filters;  // one or more
};
struct client_close {
  std::string sub_id;
};
struct client_auth {
  event ev;
};
struct client_count {
  std::string sub_id;
  std::vector<filter> filters;  // one or more
};

using client_message = std::variant<client_event, client_req, client_close, client_auth, client_count>;

// Decodes one frame. Errors: RELAY_FRAME_TOO_LARGE (over max_frame_bytes, 0 = no limit),
// RELAY_FRAME_INVALID (not JSON, not an array, empty), RELAY_FRAME_UNKNOWN_VERB (including a
// relay-to-client verb such as "EOSE"), RELAY_FRAME_ARITY, RELAY_FRAME_TYPE,
// RELAY_SUB_ID_INVALID, INVALID_EVENT and INVALID_FILTER from the embedded values.
// The event is not verified: call verify() on it.
result<client_message> decode_client_message(std::string_view frame, std::size_t max_frame_bytes = 0);

// Encoders. Those taking a sub id or filters refuse what decode would refuse (INVALID_ARGUMENT):
// a sub id that is empty or over 64 characters, an empty filter list.
std::string encode_client_event(const event& e);
result<std::string> encode_req(std::string_view sub_id, const std::vector<filter>& filters);
result<std::string> encode_close(std::string_view sub_id);
std::string encode_client_auth(const event& e);
result<std::string> encode_count(std::string_view sub_id, const std::vector<filter>& filters);
result<std::string> encode(const client_message& m);

}  // namespace nostr::relay
