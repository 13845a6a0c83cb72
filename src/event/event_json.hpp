// nlohmann::json <-> event, shared by the parsers of formats that embed events (relay frames, NIP-59).
#pragma once
#include <nlohmann/json.hpp>

#include "event/event.hpp"

namespace nostr {

// Parses JSON text with exceptions off; returns a discarded value on malformed input.
nlohmann::json parse_json(std::string_view text);

result<event> event_from_json(const nlohmann::json& j);
result<tag_list> tags_from_json(const nlohmann::json& j);

}  // namespace nostr
