// The structured `text` envelope of the seed's "compatibility profile":
//   event=tool|phase=start|name=web_fetch|call_id=call_123|target=https%3A%2F%2Fexample.com|ts=1771402416
// Fields are `key=value` joined by `|`; values are percent-encoded like encodeURIComponent.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocols/nip_xx/kinds.hpp"
#include "util/result.hpp"

namespace nostr::nip_xx {

struct envelope {
  // In order of appearance; keys normalized to snake_case (camelCase aliases accepted), and
  // `timestamp` read as `ts`. A repeated key keeps its first value.
  std::vector<std::pair<std::string, std::string>> fields;

  const std::string* get(std::string_view key) const;
  bool has(std::string_view key) const { return get(key) != nullptr; }
};

// encodeURIComponent: everything but A-Z a-z 0-9 - _ . ! ~ * ' ( ) is %XX-escaped (UTF-8 bytes).
std::string percent_encode(std::string_view s);
// decodeURIComponent: fails on a malformed escape or on bytes that are not valid UTF-8.
result<std::string> percent_decode(std::string_view s);

// "runId" -> "run_id"; snake_case stays.
std::string to_snake_case(std::string_view key);

// True when `text`, the `text` field of an event of kind k, is a compatibility envelope, and
// false when it is that kind's plain text (to be shown as it is). The seed lets `text` be either
// ("MAY be plain response text, or MAY carry a compatibility envelope string") and gives no marker,
// so only a text that is an envelope by every rule of "Structured `text` envelope" counts: nothing
// but `key=value` parts joined by `|` (keys letters, digits and `_`; values that percent-decode to
// UTF-8), `event`, `phase` and `ts` present (ts decimal digits), and the kind's "Per-event required
// envelope keys" (ai.response, ai.delta, ai.tool_call, ai.error; other kinds have no envelope).
// Text that merely starts with "event=" is plain text.
bool looks_like_envelope(std::string_view text, kind k);

// What an agent puts in the `text` field of a delta or response (k) so that every reader recovers
// `text` exactly: `text` itself, unless looks_like_envelope(text, k); then an envelope of that kind
// whose `text` value is `text` (event=delta|phase=update|text=...|ts=<ts>, or
// event=final|phase=end|text=...|ts=<ts>). Other kinds: `text` as it is.
std::string text_for_wire(kind k, std::string_view text, std::int64_t ts);

// Parses fields; parts without '=' or with an empty key are skipped (as the seed's helper does).
// A malformed percent escape is INVALID_SCHEMA. `event`, `phase` and `ts` must be present.
result<envelope> parse_envelope(std::string_view text);

// Checks the per-kind required keys ("Per-event required envelope keys").
result<void> check_envelope_for_kind(const envelope& env, kind k);

// key=value|... with values percent-encoded, in the given order.
std::string format_envelope(const std::vector<std::pair<std::string, std::string>>& fields);

}  // namespace nostr::nip_xx
