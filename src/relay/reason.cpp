#include "relay/reason.hpp"

#include <array>
#include <utility>

namespace nostr::relay {
namespace {

struct prefix_entry {
  reason_code code;
  std::string_view prefix;
};

constexpr std::array<prefix_entry, 8> kPrefixes{{
    {reason_code::duplicate, "duplicate"},
    {reason_code::pow, "pow"},
    {reason_code::blocked, "blocked"},
    {reason_code::rate_limited, "rate-limited"},
    {reason_code::invalid, "invalid"},
    {reason_code::error, "error"},
    {reason_code::auth_required, "auth-required"},
    {reason_code::restricted, "restricted"},
}};

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

bool iequal_ascii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] + 32) : a[i];
    if (x != b[i]) return false;  // b is lowercase
  }
  return true;
}

// Length of the prefix word when message starts with "<word>:", else 0.
std::size_t prefix_length(std::string_view m) {
  std::size_t i = 0;
  while (i < m.size() && word_char(m[i])) ++i;
  return (i > 0 && i < m.size() && m[i] == ':') ? i : 0;
}

}  // namespace

const char* reason_name(reason_code r) {
  switch (r) {
    case reason_code::none: return "none";
    case reason_code::duplicate: return "duplicate";
    case reason_code::pow: return "pow";
    case reason_code::blocked: return "blocked";
    case reason_code::rate_limited: return "rate-limited";
    case reason_code::invalid: return "invalid";
    case reason_code::error: return "error";
    case reason_code::auth_required: return "auth-required";
    case reason_code::restricted: return "restricted";
    case reason_code::unknown: return "unknown";
  }
  return "unknown";
}

std::string_view reason_prefix(reason_code r) {
  for (const auto& e : kPrefixes)
    if (e.code == r) return e.prefix;
  return {};
}

bool reason_is_transient(reason_code r) { return r == reason_code::rate_limited || r == reason_code::error; }

std::string_view machine_message::prefix() const {
  if (reason == reason_code::none) return {};
  return std::string_view(message).substr(0, prefix_length(message));
}

std::string_view machine_message::text() const {
  std::string_view m(message);
  if (reason == reason_code::none) return m;
  m.remove_prefix(prefix_length(m) + 1);
  while (!m.empty() && m.front() == ' ') m.remove_prefix(1);
  return m;
}

machine_message parse_machine_message(std::string message) {
  machine_message out;
  std::size_t n = prefix_length(message);
  if (n > 0) {
    out.reason = reason_code::unknown;
    std::string_view word(message.data(), n);
    for (const auto& e : kPrefixes)
      if (iequal_ascii(word, e.prefix)) {
        out.reason = e.code;
        break;
      }
  }
  out.message = std::move(message);
  return out;
}

machine_message make_machine_message(reason_code reason, std::string_view text) {
  std::string_view p = reason_prefix(reason);
  std::string m;
  if (!p.empty()) {
    m.reserve(p.size() + 2 + text.size());
    m.append(p);
    m += ": ";
  }
  m.append(text);
  // Re-parse so a none/unknown text that happens to start with "word:" is classified as a
  // receiver would classify it.
  return parse_machine_message(std::move(m));
}

}  // namespace nostr::relay
