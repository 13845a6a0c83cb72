#include "protocols/nip_xx/envelope.hpp"

#include "util/utf8.hpp"

#include <cctype>

namespace nostr::nip_xx {
namespace {

bool unreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '!' || c == '~' || c == '*' || c == '\'' ||
         c == '(' || c == ')';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}


}  // namespace

const std::string* envelope::get(std::string_view key) const {
  for (const auto& [k, v] : fields)
    if (k == key) return &v;
  return nullptr;
}

std::string percent_encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (unreserved(c)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

result<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    int hi = i + 2 < s.size() ? hex_value(s[i + 1]) : -1;
    int lo = i + 2 < s.size() ? hex_value(s[i + 2]) : -1;
    if (hi < 0 || lo < 0) return make_error(errc::xx_invalid_schema, "malformed percent escape in envelope");
    out.push_back(static_cast<char>(hi << 4 | lo));
    i += 2;
  }
  if (!utf8::valid(out)) return make_error(errc::xx_invalid_schema, "envelope value is not valid UTF-8");
  return out;
}

std::string to_snake_case(std::string_view key) {
  std::string out;
  out.reserve(key.size() + 4);
  for (char c : key) {
    if (c >= 'A' && c <= 'Z') {
      if (!out.empty()) out.push_back('_');
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

namespace {

bool key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Every `|`-separated part is key=value with a key of [A-Za-z][A-Za-z0-9_]* (no junk parts, no
// spaces around keys: the parser's leniency is for texts already known to be envelopes).
bool strict_fields(std::string_view text) {
  std::size_t start = 0;
  for (;;) {
    std::size_t end = text.find('|', start);
    std::string_view part = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    std::size_t eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0) return false;
    char first = part[0];
    if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z'))) return false;
    for (std::size_t i = 1; i < eq; ++i)
      if (!key_char(part[i])) return false;
    if (end == std::string_view::npos) return true;
    start = end + 1;
  }
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

bool looks_like_envelope(std::string_view text, kind k) {
  if (k != kind::response && k != kind::delta && k != kind::tool_call && k != kind::error) return false;
  if (text.rfind("event=", 0) != 0 && text.find("|event=") == std::string_view::npos) return false;  // cheap exit
  if (!strict_fields(text)) return false;
  auto env = parse_envelope(text);
  if (!env || !all_digits(*env->get("ts"))) return false;
  return check_envelope_for_kind(*env, k).ok();
}

std::string text_for_wire(kind k, std::string_view text, std::int64_t ts) {
  if ((k != kind::delta && k != kind::response) || !looks_like_envelope(text, k)) return std::string(text);
  const bool final = k == kind::response;
  return format_envelope({{"event", final ? "final" : "delta"},
                          {"phase", final ? "end" : "update"},
                          {"text", std::string(text)},
                          {"ts", std::to_string(ts < 0 ? 0 : ts)}});
}

result<envelope> parse_envelope(std::string_view text) {
  envelope env;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('|', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view part = text.substr(start, end - start);
    std::size_t eq = part.find('=');
    // Trim spaces around the key, as the seed's helper does.
    std::string_view key = eq == std::string_view::npos ? std::string_view{} : part.substr(0, eq);
    while (!key.empty() && key.front() == ' ') key.remove_prefix(1);
    while (!key.empty() && key.back() == ' ') key.remove_suffix(1);
    if (eq != std::string_view::npos && eq > 0 && !key.empty()) {
      auto value = percent_decode(part.substr(eq + 1));
      if (!value) return value.err();
      std::string name = to_snake_case(key);
      if (name == "timestamp") name = "ts";
      if (!env.has(name)) env.fields.emplace_back(std::move(name), std::move(*value));
    }
    start = end + 1;
  }
  for (const char* required : {"event", "phase", "ts"})
    if (!env.has(required))
      return make_error(errc::xx_invalid_schema, std::string("envelope lacks the required key ") + required);
  return env;
}

result<void> check_envelope_for_kind(const envelope& env, kind k) {
  auto is = [&](const char* key, const char* value) {
    const auto* v = env.get(key);
    return v && *v == value;
  };
  auto bad = [](const char* what) { return make_error(errc::xx_invalid_schema, what); };
  switch (k) {
    case kind::response:
      if (!is("event", "final") || !is("phase", "end") || !env.has("text"))
        return bad("ai.response envelope needs event=final, phase=end and text");
      return {};
    case kind::delta:
      if (!is("event", "delta") || (!env.has("text") && !env.has("block")))
        return bad("ai.delta envelope needs event=delta, phase and text or block");
      return {};
    case kind::tool_call:
      if (!is("event", "tool") || (!env.has("text") && !env.has("name")))
        return bad("ai.tool_call envelope needs event=tool, phase and text or name");
      return {};
    case kind::error:
      if (!is("event", "error") || !is("phase", "end") || !env.has("code") || !env.has("text"))
        return bad("ai.error envelope needs event=error, phase=end, code and text");
      return {};
    default:
      return {};
  }
}

std::string format_envelope(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out;
  for (const auto& [k, v] : fields) {
    if (!out.empty()) out.push_back('|');
    out += k;
    out.push_back('=');
    out += percent_encode(v);
  }
  return out;
}

}  // namespace nostr::nip_xx
