// Relay URLs in one canonical spelling, so "wss://Relay.example.com:443/" and
// "wss://relay.example.com" are the same relay (a pool key, NIP-42's relay tag check).
#pragma once
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace nostr::relay {

// Trims surrounding whitespace; requires ws:// or wss:// (any case) and a host; lowercases the
// scheme and host; drops the default port (80 for ws, 443 for wss), the fragment and trailing
// slashes of the path; keeps the query. RELAY_URL_INVALID otherwise.
result<std::string> normalize_relay_url(std::string_view url);

// Both normalize to the same URL (false when either is invalid).
bool same_relay_url(std::string_view a, std::string_view b);

}  // namespace nostr::relay
