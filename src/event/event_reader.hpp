// A fast reader of one event from JSON text, for hot paths that read whole events (NIP-59 unwrap
// reads a wrap and a seal per message). It accepts exactly what parse_event accepts (RFC 8259 with
// UTF-8 validation, last duplicate key wins, unknown fields ignored) and reports the same codes and
// details, but builds no DOM: strings are scanned in runs and copied once.
#pragma once
#include <string_view>

#include "event/event.hpp"
#include "util/result.hpp"

namespace nostr {

// INVALID_JSON for text that is not one JSON value; INVALID_EVENT for a missing or mistyped field.
// With require_sig false, "sig" is neither required nor kept (an unsigned event, e.g. a rumor).
result<event> read_event(std::string_view json, bool require_sig = true);

}  // namespace nostr
