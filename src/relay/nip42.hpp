// NIP-42 authentication of clients to relays: the kind 22242 event a client signs in answer to
// ["AUTH", <challenge>], and the checks a relay makes on the ["AUTH", <event>] it gets back.
#pragma once
#include <cstdint>
#include <string_view>

#include "event/event.hpp"
#include "util/result.hpp"

namespace nostr::relay {

constexpr std::int64_t auth_event_kind = 22242;
// NIP-42 "created_at ... should be within ~10 minutes".
constexpr std::int64_t default_auth_window = 600;

// Unsigned: kind 22242, tags [["relay", relay_url], ["challenge", challenge]], empty content,
// created_at = now. The caller signs it through its signer and sends encode_client_auth().
event_template auth_template(std::string_view relay_url, std::string_view challenge, std::int64_t now);

// Relay side. In this order: RELAY_AUTH_WRONG_KIND; RELAY_AUTH_WRONG_RELAY (no "relay" tag, or it
// names another relay: compared after normalize_relay_url, so case, default port and a trailing
// slash do not matter); RELAY_AUTH_WRONG_CHALLENGE (exact match); RELAY_AUTH_STALE (created_at
// more than window_seconds away from now, either side); then verify(): INVALID_EVENT,
// ID_MISMATCH, INVALID_SIGNATURE. The authenticated key is e.pubkey.
result<void> validate_auth_event(const event& e, std::string_view relay_url, std::string_view challenge,
                                 std::int64_t now, std::int64_t window_seconds = default_auth_window);

}  // namespace nostr::relay
