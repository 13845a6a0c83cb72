#include "nips/nip05.hpp"

#include "json/value.hpp"
#include "util/hex.hpp"

namespace nostr::nip05 {
namespace {

// nostr.json is a flat document; deeper nesting is refused before it costs anything.
constexpr std::size_t kMaxJsonDepth = 16;

error invalid(const char* d) { return make_error(errc::nip05_invalid, d); }
error bad_response(const char* d) { return make_error(errc::nip05_response_invalid, d); }

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The body's "names" object, or the error.
result<dom::value> names_of(std::string_view body) {
  if (body.size() > kMaxResponseBytes) return bad_response("nostr.json is over 100000 bytes");
  dom::value j = dom::parse(body, kMaxJsonDepth);
  if (j.is_discarded() || !j.is_object()) return bad_response("nostr.json is not a JSON object");
  auto names = j.find("names");
  if (names == j.end() || !names->is_object()) return bad_response("nostr.json has no names object");
  return j;
}

// A relay hint worth keeping: ws:// or wss:// (any case), a host, no space or control character.
bool relay_hint(const std::string& r) {
  std::size_t scheme = 0;
  auto ci = [&](std::string_view p) {
    if (r.size() <= p.size()) return false;
    for (std::size_t i = 0; i < p.size(); ++i)
      if ((r[i] >= 'A' && r[i] <= 'Z' ? r[i] + 32 : r[i]) != p[i]) return false;
    return true;
  };
  if (ci("wss://")) scheme = 6;
  else if (ci("ws://")) scheme = 5;
  else return false;
  if (r[scheme] == '/' || r[scheme] == '?' || r[scheme] == '#') return false;
  for (char c : r)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return false;
  return true;
}

bool pubkey_hex(const dom::value& v, std::string& out) {
  bytes32 pk{};
  if (!v.is_string() || !hex::decode_to(v.str(), pk.data(), 32)) return false;
  out = hex::encode(pk);
  return true;
}

}  // namespace

bool is_public_domain(std::string_view d) {
  if (d.empty() || d.size() > kMaxLength) return false;
  std::size_t labels = 0;
  bool all_numeric = true;
  std::size_t start = 0;
  for (;;) {
    std::size_t dot = d.find('.', start);
    std::size_t end = dot == std::string_view::npos ? d.size() : dot;
    std::string_view label = d.substr(start, end - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
    for (char c : label) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
      if (c < '0' || c > '9') all_numeric = false;
    }
    ++labels;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (labels < 2 || all_numeric) return false;  // single-label names and IPv4 literals
  for (std::string_view local : {".localhost", ".local", ".internal", ".home.arpa"})
    if (ends_with(d, local)) return false;
  return true;
}

result<address> parse(std::string_view id) {
  if (id.size() > kMaxLength) return invalid("a NIP-05 identifier is at most 253 characters");
  address a;
  std::string_view domain = id;
  auto at = id.find('@');
  if (at != std::string_view::npos) {
    if (at == 0) return invalid("a NIP-05 identifier is name@domain (or a bare domain)");
    a.name = std::string(id.substr(0, at));
    for (char c : a.name)
      if (!name_char(c)) return invalid("the name may hold only letters, digits, '.', '_' and '-'");
    domain = id.substr(at + 1);
  } else {
    a.name = "_";  // NIP-05 "Root Identifiers": the bare domain is _@domain
  }
  for (char c : domain) a.domain.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
  if (!is_public_domain(a.domain)) return invalid("the domain is not a public DNS name");
  return a;
}

std::string url(const address& a) { return "https://" + a.domain + "/.well-known/nostr.json?name=" + a.name; }

namespace {

// The name's entry in a parsed body's "names", and the pubkey it holds.
result<dom::value::const_iterator> mapped_entry(const dom::value& j, std::string_view name, std::string& pubkey) {
  const dom::value& names = j["names"];
  auto mapped = names.find(name);
  if (mapped == names.end()) return make_error(errc::nip05_not_found, "nostr.json does not map the name");
  if (!pubkey_hex(*mapped, pubkey)) return bad_response("nostr.json maps the name to something other than a pubkey");
  return mapped;
}

}  // namespace

result<std::string> read_pubkey(std::string_view body, std::string_view name) {
  auto j = names_of(body);
  if (!j) return j.err();
  std::string pubkey;
  auto mapped = mapped_entry(*j, name, pubkey);
  if (!mapped) return mapped.err();
  return pubkey;
}

result<profile> read_response(std::string_view body, std::string_view name) {
  auto j = names_of(body);
  if (!j) return j.err();
  profile p;
  auto mapped = mapped_entry(*j, name, p.pubkey);
  if (!mapped) return mapped.err();
  auto relays = j->find("relays");
  if (relays != j->end() && relays->is_object()) {
    auto list = relays->find((*mapped)->str());
    if (list == relays->end()) list = relays->find(p.pubkey);
    if (list != relays->end() && list->is_array())
      for (const auto& r : *list)
        if (r.is_string() && relay_hint(r.str())) p.relays.push_back(r.str());
  }
  return p;
}

result<std::vector<std::pair<std::string, std::string>>> read_names(std::string_view body) {
  auto j = names_of(body);
  if (!j) return j.err();
  const dom::value& names = (*j)["names"];
  std::vector<std::pair<std::string, std::string>> out;
  for (auto it = names.begin(); it != names.end(); ++it) {
    std::string pk;
    if (pubkey_hex(*it, pk)) out.emplace_back(it.key(), std::move(pk));
  }
  return out;
}

}  // namespace nostr::nip05
