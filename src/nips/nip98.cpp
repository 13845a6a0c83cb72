#include "nips/nip98.hpp"

#include "crypto/hash.hpp"
#include "util/base64.hpp"
#include "util/hex.hpp"

namespace nostr::nip98 {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

bool equal_ci(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

// RFC 9110 token characters (an HTTP method is a token).
bool tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool absolute_http_url(std::string_view url) {
  std::size_t host;
  if (url.size() > 8 && equal_ci(url.substr(0, 8), "https://")) host = 8;
  else if (url.size() > 7 && equal_ci(url.substr(0, 7), "http://")) host = 7;
  else return false;
  if (url[host] == '/' || url[host] == '?' || url[host] == '#') return false;
  for (char c : url)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return false;
  return true;
}

const std::string* first_tag(const event& e, std::string_view name) {
  for (const auto& t : e.tags)
    if (!t.empty() && t[0] == name) return t.size() >= 2 ? &t[1] : nullptr;
  return nullptr;
}

}  // namespace

result<event_template> auth_template(std::string_view url, std::string_view method,
                                     std::optional<std::string_view> payload_hex, std::int64_t now) {
  if (!absolute_http_url(url))
    return make_error(errc::invalid_argument, "the NIP-98 u tag is an absolute http(s) URL without spaces");
  if (method.empty()) return make_error(errc::invalid_argument, "the NIP-98 method is an HTTP method");
  for (char c : method)
    if (!tchar(c)) return make_error(errc::invalid_argument, "the NIP-98 method is an HTTP method");
  event_template t;
  t.kind = kKind;
  t.created_at = now;
  t.tags = {{"u", std::string(url)}, {"method", std::string(method)}};
  if (payload_hex) {
    bytes32 h{};
    if (!hex::decode_to(*payload_hex, h.data(), 32))
      return make_error(errc::invalid_argument, "the NIP-98 payload is a SHA-256 in hex");
    t.tags.push_back({"payload", hex::encode(h)});
  }
  return t;
}

std::string payload_hash(const std::uint8_t* body, std::size_t n) { return hex::encode(crypto::sha256(body, n)); }

result<void> check_kind(const event& e) {
  if (e.kind != kKind) return make_error(errc::nip98_wrong_kind, "a NIP-98 event is kind 27235");
  return {};
}

result<void> check_time(const event& e, std::int64_t now, std::int64_t window) {
  // Two comparisons, so no subtraction can overflow on a hostile created_at.
  if (window < 1 || e.created_at <= now - window || e.created_at >= now + window)
    return make_error(errc::nip98_stale, "the NIP-98 event's created_at is too far from now");
  return {};
}

result<void> check_url(const event& e, std::string_view url) {
  const std::string* u = first_tag(e, "u");
  if (!u || *u != url) return make_error(errc::nip98_wrong_url, "the NIP-98 u tag is not the request URL");
  return {};
}

result<void> check_method(const event& e, std::string_view method) {
  const std::string* m = first_tag(e, "method");
  if (!m || !equal_ci(*m, method)) return make_error(errc::nip98_wrong_method, "the NIP-98 method tag is not the request method");
  return {};
}

result<void> check_payload(const event& e, std::string_view payload_hex) {
  const std::string* p = first_tag(e, "payload");
  if (!p || !equal_ci(*p, payload_hex))
    return make_error(errc::nip98_wrong_payload, "the NIP-98 payload tag is not the body's SHA-256");
  return {};
}

result<void> validate(const event& e, const request& r, std::int64_t now, std::int64_t window) {
  NOSTR_TRY(verify(e));
  NOSTR_TRY(check_kind(e));
  NOSTR_TRY(check_time(e, now, window));
  NOSTR_TRY(check_url(e, r.url));
  NOSTR_TRY(check_method(e, r.method));
  if (r.payload_hex) NOSTR_TRY(check_payload(e, *r.payload_hex));
  return {};
}

std::string encode_token(const event& e, bool with_scheme) {
  std::string json = to_json(e);
  std::string out = with_scheme ? std::string(kScheme) + " " : std::string();
  out += base64::encode(reinterpret_cast<const std::uint8_t*>(json.data()), json.size());
  return out;
}

result<event> decode_token(std::string_view token) {
  auto bad = [](const char* d) { return make_error(errc::nip98_invalid_token, d); };
  if (token.size() > kMaxTokenLength) return bad("the NIP-98 token is too long");
  if (token.size() > kScheme.size() && equal_ci(token.substr(0, kScheme.size()), kScheme) &&
      token[kScheme.size()] == ' ') {
    token.remove_prefix(kScheme.size());
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  }
  if (token.empty()) return bad("the NIP-98 token is empty");
  auto json = base64::decode(token);
  if (!json) return bad("the NIP-98 token is not base64");
  std::string_view text(reinterpret_cast<const char*>(json->data()), json->size());
  if (text.empty() || text.front() != '{') return bad("the NIP-98 token is not an event");
  auto e = parse_event(text);
  if (!e) return bad("the NIP-98 token is not an event");
  return e;
}

}  // namespace nostr::nip98
