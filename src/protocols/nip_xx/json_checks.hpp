// The few JSON Schema checks the NIP-XX schemas use, with JSON Schema's (and ajv's) meaning:
// "integer" accepts 2.0 as well as 2, "const": 1 accepts 1.0, minLength counts characters.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "json/value.hpp"

#include "util/result.hpp"

namespace nostr::nip_xx::json_checks {

using json = ::nostr::dom::value;

// Integral numbers (2 and 2.0 alike); values beyond int64 saturate.
bool as_integer(const json& v, std::int64_t& out);

inline error schema_error(std::string detail) { return make_error(errc::xx_invalid_schema, std::move(detail)); }

// Each returns INVALID_SCHEMA naming the field when the member is present and wrong;
// required members that are missing are INVALID_SCHEMA too.
result<std::optional<std::string>> optional_string(const json& obj, const char* key, bool non_empty = false);
result<std::string> required_string(const json& obj, const char* key, bool non_empty = false);
result<std::optional<std::int64_t>> optional_integer(const json& obj, const char* key,
                                                     std::optional<std::int64_t> minimum = std::nullopt,
                                                     std::optional<std::int64_t> maximum = std::nullopt);
result<std::optional<bool>> optional_bool(const json& obj, const char* key);
result<std::optional<json>> optional_object(const json& obj, const char* key);
result<std::optional<std::vector<std::string>>> optional_string_array(const json& obj, const char* key);

// {"ver": {"const": 1}}, required.
result<void> check_version(const json& obj);

}  // namespace nostr::nip_xx::json_checks
