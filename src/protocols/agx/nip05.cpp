#include "protocols/agx/nip05.hpp"

#include "util/hex.hpp"

namespace nostr::agx {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

bool public_dns_name(std::string_view d) {
  if (d.empty() || d.size() > 253) return false;
  std::size_t labels = 0;
  bool all_numeric = true;
  std::size_t start = 0;
  while (start <= d.size()) {
    std::size_t dot = d.find('.', start);
    std::size_t end = dot == std::string::npos ? d.size() : dot;
    std::string_view label(d.data() + start, end - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
    for (char c : label) {
      bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
      if (!ok) return false;
      if (c < '0' || c > '9') all_numeric = false;
    }
    ++labels;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (labels < 2 || all_numeric) return false;  // single-label names and IPv4 literals
  for (std::string_view local : {".localhost", ".local", ".internal", ".home.arpa"})
    if (ends_with(d, local)) return false;
  return true;
}

result<nip05_address> parse_nip05(std::string_view id) {
  auto at = id.find('@');
  if (at == std::string_view::npos || at == 0)
    return make_error(errc::agx_nip05_invalid, "a NIP-05 identifier is name@domain");
  auto a = nip05::parse(id);
  if (!a) return make_error(errc::agx_nip05_invalid, a.err().detail);
  return a;
}

result<std::string> nip05_pubkey(std::string_view body, std::string_view name) {
  auto p = nip05::read_pubkey(body, name);
  if (!p) return make_error(errc::agx_nip05_response_invalid, p.err().detail);
  return p;
}

bool nip05_verifies(std::string_view body, const nip05_address& a, std::string_view pubkey_hex) {
  auto pk = nip05_pubkey(body, a.name);
  bytes32 want{};
  if (!pk || !hex::decode_to(pubkey_hex, want.data(), 32)) return false;
  return *pk == hex::encode(want);
}

}  // namespace nostr::agx
