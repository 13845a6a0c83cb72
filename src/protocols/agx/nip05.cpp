#include "protocols/agx/nip05.hpp"

#include "protocols/agx/json_text.hpp"
#include "util/hex.hpp"

namespace nostr::agx {
namespace {

error invalid(std::string d) { return make_error(errc::agx_nip05_invalid, std::move(d)); }

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

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
  if (id.size() > kMaxNip05Length) return invalid("a NIP-05 identifier is at most 253 characters");
  auto at = id.find('@');
  if (at == std::string_view::npos || at == 0) return invalid("a NIP-05 identifier is name@domain");
  nip05_address a;
  a.name = std::string(id.substr(0, at));
  for (char c : a.name)
    if (!name_char(c)) return invalid("the name may hold only letters, digits, '.', '_' and '-'");
  for (char c : id.substr(at + 1)) a.domain.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
  if (!public_dns_name(a.domain)) return invalid("the domain is not a public DNS name");
  return a;
}

std::string nip05_url(const nip05_address& a) {
  return "https://" + a.domain + "/.well-known/nostr.json?name=" + a.name;
}

result<std::string> nip05_pubkey(std::string_view body, std::string_view name) {
  auto bad = [](const char* d) { return make_error(errc::agx_nip05_response_invalid, d); };
  if (body.size() > kMaxNip05ResponseBytes) return bad("nostr.json is over 100000 bytes");
  auto j = detail::parse_peer_json(body);
  if (j.is_discarded() || !j.is_object()) return bad("nostr.json is not a JSON object");
  auto names = j.find("names");
  if (names == j.end() || !names->is_object()) return bad("nostr.json has no names object");
  const std::string* mapped = detail::find_string(*names, std::string(name).c_str());
  if (!mapped) return bad("nostr.json does not map the name");
  bytes32 pk{};
  if (!hex::decode_to(*mapped, pk.data(), 32)) return bad("nostr.json maps the name to something other than a pubkey");
  return hex::encode(pk);
}

bool nip05_verifies(std::string_view body, const nip05_address& a, std::string_view pubkey_hex) {
  auto pk = nip05_pubkey(body, a.name);
  bytes32 want{};
  if (!pk || !hex::decode_to(pubkey_hex, want.data(), 32)) return false;
  return *pk == hex::encode(want);
}

}  // namespace nostr::agx
