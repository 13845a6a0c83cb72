// What an agent publishes about itself: ai.info (kind 31340), addressable under one stable d value
// ("published in the agent namespace with one stable d value"), its payload checked by the schema
// before it goes out.
#pragma once
#include <string_view>

#include "protocols/nip_xx/outgoing.hpp"
#include "util/result.hpp"

namespace nostr::nip_xx {

// The ai.info event of an agent: kind info, one ["d", d] tag, the info as given (plaintext here is
// the event's content: ai.info is the one kind that is not encrypted). PARSE_ERROR / INVALID_SCHEMA
// for an info the schema rejects, INVALID_ARGUMENT for an empty d.
result<outgoing> info_event(std::string_view d, std::string_view info_json);

}  // namespace nostr::nip_xx
