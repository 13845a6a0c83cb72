#include "relay/nip42.hpp"

#include <string>

#include "relay/relay_url.hpp"

namespace nostr::relay {
namespace {

// Value of the first tag named `name` with a value.
const std::string* tag_value(const event& e, std::string_view name) {
  for (const auto& t : e.tags)
    if (t.size() >= 2 && t[0] == name) return &t[1];
  return nullptr;
}

}  // namespace

event_template auth_template(std::string_view relay_url, std::string_view challenge, std::int64_t now) {
  event_template t;
  t.created_at = now;
  t.kind = auth_event_kind;
  t.tags = {{"relay", std::string(relay_url)}, {"challenge", std::string(challenge)}};
  return t;
}

result<void> validate_auth_event(const event& e, std::string_view relay_url, std::string_view challenge,
                                 std::int64_t now, std::int64_t window_seconds) {
  if (e.kind != auth_event_kind) return make_error(errc::relay_auth_wrong_kind, "AUTH event must be kind 22242");
  const std::string* relay = tag_value(e, "relay");
  if (!relay) return make_error(errc::relay_auth_wrong_relay, "AUTH event has no relay tag");
  // NIP-42 allows URL normalization; a relay URL that does not parse must then match exactly.
  auto want = normalize_relay_url(relay_url);
  bool same = want ? same_relay_url(*relay, *want) : *relay == relay_url;
  if (!same) return make_error(errc::relay_auth_wrong_relay, "AUTH event is for another relay");
  const std::string* got = tag_value(e, "challenge");
  if (!got || *got != challenge) return make_error(errc::relay_auth_wrong_challenge, "AUTH challenge does not match");
  if (window_seconds < 0) window_seconds = 0;
  // Written as two comparisons so no subtraction can overflow on a hostile created_at.
  if (e.created_at < now - window_seconds || e.created_at > now + window_seconds)
    return make_error(errc::relay_auth_stale, "AUTH event created_at is too far from now");
  return verify(e);
}

}  // namespace nostr::relay
