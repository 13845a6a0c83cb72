// dom::value <-> event, shared by the parsers of formats that embed events (relay frames, NIP-59).
#pragma once
#include "json/value.hpp"

#include "event/event.hpp"

namespace nostr {

// Parses JSON text (dom::parse, default depth bound); a discarded value on malformed input.
dom::value parse_json(std::string_view text);

result<event> event_from_json(const dom::value& j);
result<tag_list> tags_from_json(const dom::value& j);

}  // namespace nostr
