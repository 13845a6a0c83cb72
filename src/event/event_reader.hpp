// A fast reader of one event from JSON text, for hot paths that read whole events (NIP-59 unwrap
// reads a wrap and a seal per message). It accepts exactly what parse_event accepts (RFC 8259 with
// UTF-8 validation, last duplicate key wins, unknown fields ignored) and reports the same codes and
// details, but builds no DOM: strings are scanned in runs and copied once.
#pragma once
#include <string_view>

#include "event/event.hpp"
#include "event/filter.hpp"
#include "util/result.hpp"

namespace nostr {

// INVALID_JSON for text that is not one JSON value; INVALID_EVENT for a missing or mistyped field.
// With require_sig false, "sig" is neither required nor kept (an unsigned event, e.g. a rumor).
result<event> read_event(std::string_view json, bool require_sig = true);

// The same reader for a filter: what parse_filter accepts and reports (parse_filter calls it).
result<filter> read_filter(std::string_view json);

// {kind, created_at, tags, content} (other members ignored): INVALID_EVENT "template must be a JSON
// object" for anything else, including text that is not JSON; "template needs kind, created_at,
// tags and content" when one is missing or mistyped; then the tags' own shape error; then
// "kind or created_at out of range".
result<event_template> read_template(std::string_view json);

// A JSON array of arrays of strings: INVALID_JSON for text that is not JSON, INVALID_EVENT with
// the tags' shape error otherwise (tags_from_json's messages).
result<tag_list> read_tag_list(std::string_view json);

}  // namespace nostr
