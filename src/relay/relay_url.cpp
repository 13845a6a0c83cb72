#include "relay/relay_url.hpp"

namespace nostr::relay {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (lower(s[i]) != prefix[i]) return false;
  return true;
}

}  // namespace

result<std::string> normalize_relay_url(std::string_view url) {
  while (!url.empty() && space(url.front())) url.remove_prefix(1);
  while (!url.empty() && space(url.back())) url.remove_suffix(1);
  for (char c : url)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      return make_error(errc::relay_url_invalid, "relay URL contains a space or control character");

  std::string out;
  std::string_view default_port;
  if (starts_with_ci(url, "wss://")) {
    out = "wss://";
    default_port = "443";
  } else if (starts_with_ci(url, "ws://")) {
    out = "ws://";
    default_port = "80";
  } else {
    return make_error(errc::relay_url_invalid, "relay URL must start with ws:// or wss://");
  }
  url.remove_prefix(out.size());

  std::size_t end = url.find_first_of("/?#");
  std::string_view authority = url.substr(0, end);
  std::string_view rest = end == std::string_view::npos ? std::string_view() : url.substr(end);

  // Port: after the last ':' unless that colon is inside an IPv6 literal ("[::1]").
  std::size_t colon = authority.rfind(':');
  std::size_t bracket = authority.rfind(']');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || bracket < colon)) {
    std::string_view port = authority.substr(colon + 1);
    for (char c : port)
      if (c < '0' || c > '9') return make_error(errc::relay_url_invalid, "relay URL port must be a number");
    if (port.empty() || port == default_port) authority = authority.substr(0, colon);
  }
  if (authority.empty()) return make_error(errc::relay_url_invalid, "relay URL has no host");
  for (char c : authority) out.push_back(lower(c));

  if (std::size_t hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  std::string_view query;
  if (std::size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q);
    rest = rest.substr(0, q);
  }
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  out.append(rest);
  if (query.size() > 1) out.append(query);
  return out;
}

bool same_relay_url(std::string_view a, std::string_view b) {
  auto na = normalize_relay_url(a);
  auto nb = normalize_relay_url(b);
  return na && nb && *na == *nb;
}

}  // namespace nostr::relay
