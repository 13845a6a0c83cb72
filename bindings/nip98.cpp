// NIP-98 glue for js/nip98.js: the template, the token, and the checks (src/nips/nip98.hpp).
// Events cross as JSON text; a body crosses as its bytes and is hashed here.
#include <emscripten/bind.h>

#include <climits>
#include <cmath>
#include <optional>

#include "event/event_reader.hpp"
#include "nips/nip98.hpp"
#include "support.hpp"
#include "wrap_inputs.hpp"

namespace nostr::bindings {
namespace {

val strings(const std::vector<std::string>& v) {
  val a = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) a.set(i, v[i]);
  return a;
}

std::optional<std::string_view> optional_hex(const std::string& s) {
  return s.empty() ? std::nullopt : std::optional<std::string_view>(s);
}

// {kind, created_at, tags, content}; payload_hex "" for none.
val auth_template(const std::string& url, const std::string& method, const std::string& payload_hex, double now) {
  std::int64_t t = 0;
  if (!read_now(now, t)) return fail(bad_now());
  auto e = nip98::auth_template(url, method, optional_hex(payload_hex), t);
  if (!e) return fail(e.err());
  val tags = val::array();
  for (std::size_t i = 0; i < e->tags.size(); ++i) tags.set(i, strings(e->tags[i]));
  val o = val::object();
  o.set("kind", static_cast<double>(e->kind));
  o.set("created_at", static_cast<double>(e->created_at));
  o.set("tags", tags);
  o.set("content", e->content);
  return o;
}

std::string hash_payload(const std::string& body) {
  return nip98::payload_hash(reinterpret_cast<const std::uint8_t*>(body.data()), body.size());
}

// The token of a signed event (verified first: a signer's bad answer is not sent on).
val token(const std::string& event_json, bool with_scheme) {
  auto e = read_event(event_json);
  if (!e) return fail(e.err());
  auto ok = verify(*e);
  if (!ok) return fail(ok.err());
  return val(nip98::encode_token(*e, with_scheme));
}

// The event's JSON text (not verified), or undefined after fail().
val unpack(const std::string& token) {
  auto e = nip98::decode_token(token);
  if (!e) return fail(e.err());
  return val(to_json(*e));
}

int validate_event(const event& e, const std::string& url, const std::string& method, const std::string& payload_hex,
                   double now) {
  std::int64_t t = 0;
  if (!read_now(now, t)) return fail_code(bad_now());
  auto ok = nip98::validate(e, {url, method, optional_hex(payload_hex)}, t);
  return ok ? 0 : fail_code(ok.err());
}

// 0, or the first failing check's code after fail().
int validate(const std::string& event_json, const std::string& url, const std::string& method,
             const std::string& payload_hex, double now) {
  auto e = read_event(event_json);
  if (!e) return fail_code(e.err());
  return validate_event(*e, url, method, payload_hex, now);
}

int validate_token(const std::string& token, const std::string& url, const std::string& method,
                   const std::string& payload_hex, double now) {
  auto e = nip98::decode_token(token);
  if (!e) return fail_code(e.err());
  return validate_event(*e, url, method, payload_hex, now);
}

// One check of nostr-tools' validateEvent* on an event's kind, created_at and tags (which need not
// be signed): which 0 kind, 1 time (arg unused), 2 url, 3 method, 4 payload (arg: hex). 1 or 0.
int check(int which, double kind, double created_at, const std::string& tags_json, const std::string& arg, double now) {
  auto tags = read_tag_list(tags_json);
  std::int64_t t = 0;
  if (!tags || !read_now(now, t)) return 0;
  event e;
  e.tags = std::move(*tags);
  e.kind = std::isfinite(kind) && std::floor(kind) == kind && std::fabs(kind) < 1e15 ? static_cast<std::int64_t>(kind) : -1;
  // A created_at that is not an integer is never within the window.
  bool integral = std::isfinite(created_at) && std::floor(created_at) == created_at && std::fabs(created_at) <= 9007199254740991.0;
  e.created_at = integral ? static_cast<std::int64_t>(created_at) : INT64_MIN;
  switch (which) {
    case 0: return nip98::check_kind(e).ok();
    case 1: return nip98::check_time(e, t, nip98::kDefaultWindow).ok();
    case 2: return nip98::check_url(e, arg).ok();
    case 3: return nip98::check_method(e, arg).ok();
    case 4: return nip98::check_payload(e, arg).ok();
    default: return 0;
  }
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip98) {
  emscripten::function("nip98Template", &auth_template);
  emscripten::function("nip98HashPayload", &hash_payload);
  emscripten::function("nip98Token", &token);
  emscripten::function("nip98Unpack", &unpack);
  emscripten::function("nip98Validate", &validate);
  emscripten::function("nip98ValidateToken", &validate_token);
  emscripten::function("nip98Check", &check);
}

}  // namespace nostr::bindings
