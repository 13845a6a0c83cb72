#include "protocols/agx/json_text.hpp"

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

dom::value parse_peer_json(std::string_view text) {
  return dom::parse(text, kMaxJsonDepth);  // rejects ill-formed UTF-8 inside strings too
}

std::string dump_json(const dom::value& j) { return j.dump(); }

const std::string* find_string(const dom::value& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return nullptr;
  return &it->get_ref<const std::string&>();
}

bool integer_in_range(const dom::value& j, long long lo, long long hi, long long& out) {
  std::int64_t v = 0;
  if (!dom::integer_value(j, v) || v < lo || v > hi) return false;  // saturated values fail
  out = v;
  return true;
}

bool string_len_ok(const std::string& s, std::size_t min_units, std::size_t max_units) {
  // Cheap bounds first: a UTF-16 unit takes 1 to 3 bytes (a pair takes 4 bytes for 2 units).
  if (s.size() < min_units) return false;
  std::size_t u = s.size() <= max_units && min_units <= 1 ? s.size() : utf16_length(s);
  return u >= min_units && u <= max_units;
}

}  // namespace nostr::agx::detail
