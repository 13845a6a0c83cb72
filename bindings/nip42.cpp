// NIP-42 glue for js/nip42.js: the AUTH event template and the relay's checks of an AUTH event
// (src/relay/nip42.hpp), without the rest of the relay codec (so the lite module has them).
#include <emscripten/bind.h>

#include <cmath>

#include "event/event_reader.hpp"
#include "relay/nip42.hpp"
#include "relay/relay_url.hpp"
#include "support.hpp"
#include "wrap_inputs.hpp"

namespace nostr::bindings {
namespace {

val strings(const std::vector<std::string>& v) {
  val a = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) a.set(i, v[i]);
  return a;
}

// {kind, created_at, tags, content}. RELAY_URL_INVALID unless relay_url is a ws(s) URL (kept as
// written in the tag); INVALID_ARGUMENT for a bad `now`.
val make_auth_event(const std::string& relay_url, const std::string& challenge, double now) {
  std::int64_t t = 0;
  if (!read_now(now, t)) return fail(bad_now());
  auto url = relay::normalize_relay_url(relay_url);
  if (!url) return fail(url.err());
  event_template e = relay::auth_template(relay_url, challenge, t);
  val tags = val::array();
  for (std::size_t i = 0; i < e.tags.size(); ++i) tags.set(i, strings(e.tags[i]));
  val o = val::object();
  o.set("kind", static_cast<double>(e.kind));
  o.set("created_at", static_cast<double>(e.created_at));
  o.set("tags", tags);
  o.set("content", e.content);
  return o;
}

// 0, or the failing check's code (relay::validate_auth_event's order) after fail().
int validate_auth_event(const std::string& event_json, const std::string& relay_url, const std::string& challenge,
                        double now, double window) {
  std::int64_t t = 0;
  if (!read_now(now, t)) return fail_code(bad_now());
  if (!std::isfinite(window) || window < 0 || window > 9007199254740991.0)
    return fail_code(make_error(errc::invalid_argument, "window must be a non-negative number of seconds"));
  auto e = read_event(event_json);
  if (!e) return fail_code(e.err());
  auto ok = relay::validate_auth_event(*e, relay_url, challenge, t, static_cast<std::int64_t>(window));
  return ok ? 0 : fail_code(ok.err());
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip42) {
  emscripten::function("nip42MakeAuthEvent", &make_auth_event);
  emscripten::function("nip42ValidateAuthEvent", &validate_auth_event);
}

}  // namespace nostr::bindings
