#include "protocols/nip_xx/payload.hpp"

#include <algorithm>
#include <array>

#include "event/event_json.hpp"
#include "protocols/nip_xx/json_checks.hpp"
#include "protocols/nip_xx/kinds.hpp"

namespace nostr::nip_xx {
namespace {

using namespace json_checks;

template <std::size_t N>
bool one_of(std::string_view s, const std::array<std::string_view, N>& values) {
  return std::find(values.begin(), values.end(), s) != values.end();
}

constexpr std::array<std::string_view, 4> kThinking{"low", "medium", "high", "max"};
constexpr std::array<std::string_view, 3> kCancelReasons{"user_cancel", "timeout", "policy"};
constexpr std::array<std::string_view, 3> kStates{"thinking", "tool_use", "done"};
constexpr std::array<std::string_view, 2> kPhases{"start", "result"};
constexpr std::array<std::string_view, 16> kErrorCodes{
    "UNSUPPORTED_ENCRYPTION", "UNSUPPORTED_MODEL", "UNSUPPORTED_SCHEMA_VERSION", "CANCELLED",
    "RATE_LIMIT",             "UNAUTHORIZED",      "BLOCKED_SENDER",             "MODEL_UNAVAILABLE",
    "SESSION_LIMIT",          "PARSE_ERROR",       "EMPTY_RESPONSE",             "TOOL_ERROR",
    "INVALID_SCHEMA",         "UNSUPPORTED_FEATURE", "INVALID_SEQUENCE",         "INTERNAL_ERROR"};

// Parse, then require an object with "ver": 1 (the "Common fields" schema).
result<json> parse_object(std::string_view text) {
  json j = parse_json(text);
  if (j.is_discarded()) return make_error(errc::xx_parse_error, "payload is not valid JSON");
  if (!j.is_object()) return schema_error("payload must be a JSON object");
  NOSTR_TRY(check_version(j));
  return j;
}

result<void> require_object(const json& j) {
  if (!j.is_object()) return schema_error("payload must be a JSON object");
  return check_version(j);
}

std::string dump(const json& j) { return j.dump(); }

template <class T>
void put(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

}  // namespace

bool is_thinking_level(std::string_view s) { return one_of(s, kThinking); }
bool is_cancel_reason(std::string_view s) { return one_of(s, kCancelReasons); }
bool is_status_state(std::string_view s) { return one_of(s, kStates); }
bool is_tool_phase(std::string_view s) { return one_of(s, kPhases); }
bool is_protocol_error_code(std::string_view s) { return one_of(s, kErrorCodes); }

info_payload default_info() {
  info_payload info;
  info.supports_streaming = true;
  info.encryption = {"nip44"};
  return info;
}

// --- prompt (25802)

result<prompt_payload> prompt_from_json(const json& j) {
  NOSTR_TRY(require_object(j));
  prompt_payload p;
  NOSTR_ASSIGN(p.message, required_string(j, "message", true));
  NOSTR_ASSIGN(p.thinking, optional_string(j, "thinking"));
  if (p.thinking && !is_thinking_level(*p.thinking)) return schema_error("thinking must be low, medium, high or max");
  NOSTR_ASSIGN(p.provider, optional_string(j, "provider", true));
  NOSTR_ASSIGN(p.model, optional_string(j, "model", true));
  NOSTR_ASSIGN(p.tool_schema_version, optional_integer(j, "tool_schema_version", 1));
  NOSTR_ASSIGN(p.fallback_models, optional_string_array(j, "fallback_models"));
  return p;
}

std::string to_json(const prompt_payload& p) {
  json j = {{"ver", 1}, {"message", p.message}};
  put(j, "thinking", p.thinking);
  put(j, "provider", p.provider);
  put(j, "model", p.model);
  put(j, "tool_schema_version", p.tool_schema_version);
  put(j, "fallback_models", p.fallback_models);
  return dump(j);
}

// --- cancel (25806)

result<cancel_payload> cancel_from_json(const json& j) {
  NOSTR_TRY(require_object(j));
  cancel_payload p;
  NOSTR_ASSIGN(p.reason, required_string(j, "reason"));
  if (!is_cancel_reason(p.reason)) return schema_error("reason must be user_cancel, timeout or policy");
  return p;
}

std::string to_json(const cancel_payload& p) { return dump(json{{"ver", 1}, {"reason", p.reason}}); }

// --- response (25803)

result<response_payload> response_from_json(const json& j) {
  NOSTR_TRY(require_object(j));
  response_payload p;
  NOSTR_ASSIGN(p.text, required_string(j, "text"));
  NOSTR_ASSIGN(p.timestamp, optional_integer(j, "timestamp", 0));
  std::optional<json> usage;
  NOSTR_ASSIGN(usage, optional_object(j, "usage"));
  if (usage) {
    std::optional<std::int64_t> in, out;
    NOSTR_ASSIGN(in, optional_integer(*usage, "input_tokens", 0));
    NOSTR_ASSIGN(out, optional_integer(*usage, "output_tokens", 0));
    if (!in || !out) return schema_error("usage needs input_tokens and output_tokens");
    p.usage = usage_info{*in, *out};
  }
  return p;
}

std::string to_json(const response_payload& p) {
  json j = {{"ver", 1}, {"text", p.text}};
  put(j, "timestamp", p.timestamp);
  if (p.usage) j["usage"] = {{"input_tokens", p.usage->input_tokens}, {"output_tokens", p.usage->output_tokens}};
  return dump(j);
}

// --- delta (25801)

result<delta_payload> delta_from_json(const json& j) {
  NOSTR_TRY(require_object(j));
  delta_payload p;
  NOSTR_ASSIGN(p.text, required_string(j, "text"));
  NOSTR_ASSIGN(p.seq, optional_integer(j, "seq", 0));
  NOSTR_ASSIGN(p.timestamp, optional_integer(j, "timestamp", 0));
  return p;
}

std::string to_json(const delta_payload& p) {
  json j = {{"ver", 1}, {"text", p.text}};
  put(j, "seq", p.seq);
  put(j, "timestamp", p.timestamp);
  return dump(j);
}

// --- status (25800)

result<status_payload> status_from_json(const json& j) {
  NOSTR_TRY(require_object(j));
  status_payload p;
  NOSTR_ASSIGN(p.state, required_string(j, "state"));
  if (!is_status_state(p.state)) return schema_error("state must be thinking, tool_use or done");
  NOSTR_ASSIGN(p.progress, optional_integer(j, "progress", 0, 100));
  NOSTR_ASSIGN(p.info, optional_string(j, "info"));
  return p;
}

std::string to_json(const status_payload& p) {
  json j = {{"ver", 1}, {"state", p.state}};
  put(j, "progress", p.progress);
  put(j, "info", p.info);
  return dump(j);
}

// --- tool_call (25804)

result<tool_call_payload> tool_call_from_json(const json& j) {
  NOSTR_TRY(require_object(j));
  tool_call_payload p;
  NOSTR_ASSIGN(p.text, optional_string(j, "text", true));
  NOSTR_ASSIGN(p.name, optional_string(j, "name", true));
  NOSTR_ASSIGN(p.phase, optional_string(j, "phase"));
  if (p.phase && !is_tool_phase(*p.phase)) return schema_error("phase must be start or result");
  NOSTR_ASSIGN(p.arguments, optional_object(j, "arguments"));
  NOSTR_ASSIGN(p.output, optional_object(j, "output"));
  NOSTR_ASSIGN(p.success, optional_bool(j, "success"));
  NOSTR_ASSIGN(p.duration_ms, optional_integer(j, "duration_ms", 0));
  NOSTR_ASSIGN(p.timestamp, optional_integer(j, "timestamp", 0));
  // oneOf [{required: [text]}, {required: [name, phase]}]: exactly one branch may hold.
  bool text_form = p.text.has_value();
  bool named_form = p.name.has_value() && p.phase.has_value();
  if (text_form == named_form)
    return schema_error(text_form ? "tool_call must carry either text or name and phase, not both"
                                  : "tool_call needs text, or name and phase");
  return p;
}

std::string to_json(const tool_call_payload& p) {
  json j = {{"ver", 1}};
  put(j, "text", p.text);
  put(j, "name", p.name);
  put(j, "phase", p.phase);
  put(j, "arguments", p.arguments);
  put(j, "output", p.output);
  put(j, "success", p.success);
  put(j, "duration_ms", p.duration_ms);
  put(j, "timestamp", p.timestamp);
  return dump(j);
}

// --- error (25805)

result<error_payload> error_from_json(const json& j) {
  NOSTR_TRY(require_object(j));
  error_payload p;
  NOSTR_ASSIGN(p.code, required_string(j, "code"));
  if (!is_protocol_error_code(p.code)) return schema_error("code is not a NIP-XX error code");
  NOSTR_ASSIGN(p.message, required_string(j, "message", true));
  NOSTR_ASSIGN(p.retry_after, optional_integer(j, "retry_after", 1));
  NOSTR_ASSIGN(p.details, optional_object(j, "details"));
  return p;
}

std::string to_json(const error_payload& p) {
  json j = {{"ver", 1}, {"code", p.code}, {"message", p.message}};
  put(j, "retry_after", p.retry_after);
  put(j, "details", p.details);
  return dump(j);
}

// --- info (31340)

result<info_payload> info_from_json(const json& j) {
  NOSTR_TRY(require_object(j));
  info_payload p;
  NOSTR_ASSIGN(p.supports_streaming, optional_bool(j, "supports_streaming"));
  NOSTR_ASSIGN(p.supports_nip59, optional_bool(j, "supports_nip59"));
  NOSTR_ASSIGN(p.dvm_compatible, optional_bool(j, "dvm_compatible"));
  std::optional<std::vector<std::string>> encryption, tool_names;
  NOSTR_ASSIGN(encryption, optional_string_array(j, "encryption"));
  if (!encryption) return schema_error("encryption is required");
  if (std::find(encryption->begin(), encryption->end(), "nip44") == encryption->end())
    return schema_error("encryption must contain nip44");
  p.encryption = std::move(*encryption);
  NOSTR_ASSIGN(tool_names, optional_string_array(j, "tool_names"));
  if (!tool_names) return schema_error("tool_names is required");
  p.tool_names = std::move(*tool_names);
  NOSTR_ASSIGN(p.supported_models, optional_string_array(j, "supported_models"));
  NOSTR_ASSIGN(p.default_model, optional_string(j, "default_model"));
  NOSTR_ASSIGN(p.tool_schema_version, optional_integer(j, "tool_schema_version", 1));
  NOSTR_ASSIGN(p.max_prompt_bytes, optional_integer(j, "max_prompt_bytes", 1));
  NOSTR_ASSIGN(p.max_context_tokens, optional_integer(j, "max_context_tokens", 1));
  NOSTR_ASSIGN(p.pricing_hints, optional_object(j, "pricing_hints"));
  std::optional<json> schemas;
  NOSTR_ASSIGN(schemas, optional_object(j, "tool_schemas"));
  if (schemas) {
    for (auto it = schemas->begin(); it != schemas->end(); ++it) {
      const json& s = it.value();
      if (!s.is_object()) return schema_error("tool_schemas." + it.key() + " must be an object");
      tool_schema ts;
      std::optional<std::int64_t> version;
      NOSTR_ASSIGN(version, optional_integer(s, "schema_version", 1));
      if (!version) return schema_error("tool_schemas." + it.key() + ".schema_version is required");
      ts.schema_version = *version;
      NOSTR_ASSIGN(ts.description, required_string(s, "description"));
      NOSTR_ASSIGN(ts.requires_approval, optional_bool(s, "requires_approval"));
      std::optional<json> input;
      NOSTR_ASSIGN(input, optional_object(s, "input_schema"));
      if (!input) return schema_error("tool_schemas." + it.key() + ".input_schema is required");
      ts.input_schema = std::move(*input);
      NOSTR_ASSIGN(ts.output_schema, optional_object(s, "output_schema"));
      p.tool_schemas.emplace_back(it.key(), std::move(ts));
    }
  }
  return p;
}

std::string to_json(const info_payload& p) {
  json j = {{"ver", 1}, {"encryption", p.encryption}, {"tool_names", p.tool_names}};
  put(j, "supports_streaming", p.supports_streaming);
  put(j, "supports_nip59", p.supports_nip59);
  put(j, "dvm_compatible", p.dvm_compatible);
  put(j, "supported_models", p.supported_models);
  put(j, "default_model", p.default_model);
  put(j, "tool_schema_version", p.tool_schema_version);
  put(j, "max_prompt_bytes", p.max_prompt_bytes);
  put(j, "max_context_tokens", p.max_context_tokens);
  put(j, "pricing_hints", p.pricing_hints);
  if (!p.tool_schemas.empty()) {
    json schemas = json::object();
    for (const auto& [name, ts] : p.tool_schemas) {
      json s = {{"schema_version", ts.schema_version}, {"description", ts.description}, {"input_schema", ts.input_schema}};
      put(s, "requires_approval", ts.requires_approval);
      put(s, "output_schema", ts.output_schema);
      schemas[name] = std::move(s);
    }
    j["tool_schemas"] = std::move(schemas);
  }
  return dump(j);
}

// --- text entry points

#define NOSTR_XX_PARSE(name, type)                           \
  result<type> parse_##name(std::string_view text) {         \
    json j;                                                  \
    NOSTR_ASSIGN(j, parse_object(text));                     \
    return name##_from_json(j);                              \
  }
NOSTR_XX_PARSE(prompt, prompt_payload)
NOSTR_XX_PARSE(cancel, cancel_payload)
NOSTR_XX_PARSE(response, response_payload)
NOSTR_XX_PARSE(delta, delta_payload)
NOSTR_XX_PARSE(status, status_payload)
NOSTR_XX_PARSE(tool_call, tool_call_payload)
NOSTR_XX_PARSE(error, error_payload)
NOSTR_XX_PARSE(info, info_payload)
#undef NOSTR_XX_PARSE

bool rumor_content_is_payload(std::string_view content) {
  for (char c : content) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{';
  }
  return false;
}

result<void> validate_payload(std::int64_t k, std::string_view text) {
  auto known = kind_from(k);
  if (!known) return make_error(errc::invalid_argument, "not a NIP-XX kind");
  auto drop = [](const auto& r) -> result<void> {
    if (!r) return r.err();
    return {};
  };
  switch (*known) {
    case kind::prompt: return drop(parse_prompt(text));
    case kind::cancel: return drop(parse_cancel(text));
    case kind::response: return drop(parse_response(text));
    case kind::delta: return drop(parse_delta(text));
    case kind::status: return drop(parse_status(text));
    case kind::tool_call: return drop(parse_tool_call(text));
    case kind::error: return drop(parse_error(text));
    case kind::info: return drop(parse_info(text));
  }
  return make_error(errc::invalid_argument, "not a NIP-XX kind");
}

}  // namespace nostr::nip_xx
