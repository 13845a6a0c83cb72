#include "protocols/agx/json_text.hpp"

#include <cmath>

#include "event/event_json.hpp"
#include "protocols/agx/constants.hpp"

namespace nostr::agx::detail {


std::size_t utf16_length(std::string_view s) {
  std::size_t units = 0;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if ((c & 0xc0) == 0x80) continue;  // continuation byte
    units += c >= 0xf0 ? 2 : 1;
  }
  return units;
}

std::string_view utf16_prefix(std::string_view s, std::size_t max_units) {
  std::size_t units = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    std::size_t u = len == 4 ? 2 : 1;
    if (units + u > max_units) break;
    units += u;
    i += len;
  }
  return s.substr(0, i);
}

bool json_depth_ok(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

nlohmann::json parse_peer_json(std::string_view text) {
  if (!json_depth_ok(text, kMaxJsonDepth)) return nlohmann::json(nlohmann::json::value_t::discarded);
  return parse_json(text);  // nlohmann rejects ill-formed UTF-8 inside strings
}

std::string dump_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

const std::string* find_string(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return nullptr;
  return &it->get_ref<const std::string&>();
}

bool integer_in_range(const nlohmann::json& j, long long lo, long long hi, long long& out) {
  if (j.is_number_unsigned()) {
    auto v = j.get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(hi)) return false;
    out = static_cast<long long>(v);
    return out >= lo;
  }
  if (j.is_number_integer()) {
    auto v = j.get<std::int64_t>();
    if (v < lo || v > hi) return false;
    out = v;
    return true;
  }
  if (j.is_number_float()) {
    double d = j.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) return false;
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi)) return false;
    out = static_cast<long long>(d);
    return true;
  }
  return false;
}

bool string_len_ok(const std::string& s, std::size_t min_units, std::size_t max_units) {
  // Cheap bounds first: a UTF-16 unit takes 1 to 3 bytes (a pair takes 4 bytes for 2 units).
  if (s.size() < min_units) return false;
  std::size_t u = s.size() <= max_units && min_units <= 1 ? s.size() : utf16_length(s);
  return u >= min_units && u <= max_units;
}

}  // namespace nostr::agx::detail
