#include "protocols/nip_xx/json_checks.hpp"

#include <cstdint>

namespace nostr::nip_xx::json_checks {

bool as_integer(const json& v, std::int64_t& out) {
  // Integers beyond int64 saturate: they are still integers to JSON Schema, and every bound the
  // schemas use (minimum 0 or 1, maximum 100) gives the same verdict on the saturated value.
  return ::nostr::dom::integer_value(v, out);
}

result<std::optional<std::string>> optional_string(const json& obj, const char* key, bool non_empty) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::optional<std::string>{};
  if (!it->is_string()) return schema_error(std::string(key) + " must be a string");
  const auto& s = it->get_ref<const std::string&>();
  if (non_empty && s.empty()) return schema_error(std::string(key) + " must not be empty");
  return std::optional<std::string>{s};
}

result<std::string> required_string(const json& obj, const char* key, bool non_empty) {
  auto r = optional_string(obj, key, non_empty);
  if (!r) return r.err();
  if (!*r) return schema_error(std::string(key) + " is required");
  return std::move(**r);
}

result<std::optional<std::int64_t>> optional_integer(const json& obj, const char* key,
                                                     std::optional<std::int64_t> minimum,
                                                     std::optional<std::int64_t> maximum) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::optional<std::int64_t>{};
  std::int64_t n = 0;
  if (!as_integer(*it, n)) return schema_error(std::string(key) + " must be an integer");
  if (minimum && n < *minimum) return schema_error(std::string(key) + " must be at least " + std::to_string(*minimum));
  if (maximum && n > *maximum) return schema_error(std::string(key) + " must be at most " + std::to_string(*maximum));
  return std::optional<std::int64_t>{n};
}

result<std::optional<bool>> optional_bool(const json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::optional<bool>{};
  if (!it->is_boolean()) return schema_error(std::string(key) + " must be a boolean");
  return std::optional<bool>{it->get<bool>()};
}

result<std::optional<json>> optional_object(const json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::optional<json>{};
  if (!it->is_object()) return schema_error(std::string(key) + " must be an object");
  return std::optional<json>{*it};
}

result<std::optional<std::vector<std::string>>> optional_string_array(const json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::optional<std::vector<std::string>>{};
  if (!it->is_array()) return schema_error(std::string(key) + " must be an array of strings");
  std::vector<std::string> out;
  out.reserve(it->size());
  for (const auto& v : *it) {
    if (!v.is_string()) return schema_error(std::string(key) + " must be an array of strings");
    out.push_back(v.get_ref<const std::string&>());
  }
  return std::optional<std::vector<std::string>>{std::move(out)};
}

result<void> check_version(const json& obj) {
  auto it = obj.find("ver");
  std::int64_t v = 0;
  if (it == obj.end()) return schema_error("ver is required");
  if (!as_integer(*it, v) || v != 1) return schema_error("ver must be 1");
  return {};
}

}  // namespace nostr::nip_xx::json_checks
