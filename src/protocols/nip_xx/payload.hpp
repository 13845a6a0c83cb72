// NIP-XX payloads: the decrypted JSON content of each kind, validated exactly as the seed's JSON
// Schemas say ("JSON Schema" section). Unknown fields are ignored (Backward Compatibility).
//
// parse_*: invalid JSON -> PARSE_ERROR; anything the schema rejects -> INVALID_SCHEMA, with a
// detail naming the field. to_json: the canonical form with "ver": 1.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"

#include "util/result.hpp"

namespace nostr::nip_xx {

using json = ::nostr::dom::value;

struct prompt_payload {
  std::string message;
  std::optional<std::string> thinking;  // low | medium | high | max
  std::optional<std::string> provider;
  std::optional<std::string> model;
  std::optional<std::int64_t> tool_schema_version;
  std::optional<std::vector<std::string>> fallback_models;
};

struct cancel_payload {
  std::string reason;  // user_cancel | timeout | policy
};

struct usage_info {
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
};

struct response_payload {
  std::string text;
  std::optional<std::int64_t> timestamp;
  std::optional<usage_info> usage;
};

struct delta_payload {
  std::string text;
  std::optional<std::int64_t> seq;
  std::optional<std::int64_t> timestamp;
};

struct status_payload {
  std::string state;  // thinking | tool_use | done
  std::optional<std::int64_t> progress;  // 0..100
  std::optional<std::string> info;
};

// oneOf: either `text` (a compatibility envelope or plain text), or `name` and `phase`.
struct tool_call_payload {
  std::optional<std::string> text;
  std::optional<std::string> name;
  std::optional<std::string> phase;  // start | result
  std::optional<json> arguments;
  std::optional<json> output;
  std::optional<bool> success;
  std::optional<std::int64_t> duration_ms;
  std::optional<std::int64_t> timestamp;
};

struct error_payload {
  std::string code;  // one of the 16 codes of the "Error codes" table
  std::string message;
  std::optional<std::int64_t> retry_after;  // >= 1
  std::optional<json> details;
};

struct tool_schema {
  std::int64_t schema_version = 1;
  std::string description;
  std::optional<bool> requires_approval;
  json input_schema;
  std::optional<json> output_schema;
};

struct info_payload {
  std::optional<bool> supports_streaming;
  std::optional<bool> supports_nip59;
  std::optional<bool> dvm_compatible;
  std::vector<std::string> encryption;  // contains "nip44"
  std::optional<std::vector<std::string>> supported_models;
  std::optional<std::string> default_model;
  std::vector<std::string> tool_names;
  std::optional<std::int64_t> tool_schema_version;
  std::vector<std::pair<std::string, tool_schema>> tool_schemas;
  std::optional<std::int64_t> max_prompt_bytes;
  std::optional<std::int64_t> max_context_tokens;
  std::optional<json> pricing_hints;
};

// The assumptions of "Protocol Flow" step 1 when an agent publishes no ai.info.
info_payload default_info();

bool is_thinking_level(std::string_view s);
bool is_cancel_reason(std::string_view s);
bool is_status_state(std::string_view s);
bool is_tool_phase(std::string_view s);
// One of the 16 codes of the error table (they are also errc names).
bool is_protocol_error_code(std::string_view s);

result<prompt_payload> parse_prompt(std::string_view text);
result<cancel_payload> parse_cancel(std::string_view text);
result<response_payload> parse_response(std::string_view text);
result<delta_payload> parse_delta(std::string_view text);
result<status_payload> parse_status(std::string_view text);
result<tool_call_payload> parse_tool_call(std::string_view text);
result<error_payload> parse_error(std::string_view text);
result<info_payload> parse_info(std::string_view text);

// The same checks on an already parsed value (PARSE_ERROR cannot happen here).
result<prompt_payload> prompt_from_json(const json& j);
result<cancel_payload> cancel_from_json(const json& j);
result<response_payload> response_from_json(const json& j);
result<delta_payload> delta_from_json(const json& j);
result<status_payload> status_from_json(const json& j);
result<tool_call_payload> tool_call_from_json(const json& j);
result<error_payload> error_from_json(const json& j);
result<info_payload> info_from_json(const json& j);

std::string to_json(const prompt_payload& p);
std::string to_json(const cancel_payload& p);
std::string to_json(const response_payload& p);
std::string to_json(const delta_payload& p);
std::string to_json(const status_payload& p);
std::string to_json(const tool_call_payload& p);
std::string to_json(const error_payload& p);
std::string to_json(const info_payload& p);

// The privacy-first profile ("NIP-59 metadata privacy"): which form a rumor's content is in.
// We send the payload itself: the seal already encrypts the rumor with NIP-44 from the sender's
// key to the recipient's (the seed's "Key agreement"), and the seed has clients "unwrap before
// applying payload validation", with no second decryption. Peers that NIP-44-encrypt the rumor's
// content as well exist (so did we, before), so both are read: true when the content is the
// payload (a JSON object: '{' after JSON whitespace; NIP-44's base64 never holds '{'), false when
// it is a NIP-44 payload to decrypt first.
bool rumor_content_is_payload(std::string_view content);

// Validates a payload of the given NIP-XX kind (25800..25806, 31340) without keeping it.
result<void> validate_payload(std::int64_t kind, std::string_view text);

}  // namespace nostr::nip_xx
