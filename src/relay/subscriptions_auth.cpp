// NIP-42 AUTH through the relay machine (subscriptions.hpp, authenticate): the client side of the
// challenge and response, one rule each:
//   - an AUTH already in flight: the caller joins it;
//   - accepted on this connection (and no new challenge since): done, accepted;
//   - refused on the current challenge: refused again without asking the signer;
//   - no signer: the relay shows auth-required (AUTH_REQUIRED), refused;
//   - otherwise: wait for the challenge until the deadline, ask the signer to sign the kind 22242
//     template (relay, challenge, now), send ["AUTH", event] by the core's codec, and let its OK
//     decide; no challenge, a signer that fails, no OK by the deadline or a refusing OK end it
//     refused (AUTH_FAILED, the connection shows auth-required);
//   - a dropped connection ends the AUTH in flight (its challenge died with it);
//   - with the eager policy, every challenge is answered as it arrives.
// Every ending is one auth_done action and goes to auth_result(), which resumes or closes the
// subscriptions and publishes waiting for it.
#include <utility>

#include "relay/client_message.hpp"
#include "relay/subscriptions.hpp"

namespace nostr::relay {

void subscriptions::auth_emit_status(std::string_view relay, std::string state, std::string code, std::string detail,
                                     std::string pubkey) {
  action a{};
  a.type = action_type::auth_status;
  a.relay = std::string(relay);
  a.state = std::move(state);
  a.code = std::move(code);
  a.detail = std::move(detail);
  a.pubkey = std::move(pubkey);
  actions_.push_back(std::move(a));
}

void subscriptions::auth_end(std::string_view relay, bool accepted, std::string_view code, std::string detail) {
  relay_conn& c = conn(relay);
  c.step = relay_conn::auth_step::idle;
  c.auth_deadline = -1;
  if (!code.empty())
    auth_emit_status(relay, "auth-required", std::string(code), std::move(detail));
  action a{};
  a.type = action_type::auth_done;
  a.relay = std::string(relay);
  a.accepted = accepted;
  actions_.push_back(std::move(a));
  auth_result(relay, accepted, now_ms_);
}

void subscriptions::authenticate(std::string_view relay, std::int64_t now_ms, std::int64_t deadline_ms) {
  now_ms_ = now_ms;
  relay_conn& c = conn(relay);
  const std::string url(relay);
  if (c.step != relay_conn::auth_step::idle) return;  // joins the AUTH in flight
  if (c.auth_state == relay_conn::auth::authenticated) return auth_end(relay, true);
  if (auth_refused(relay)) return auth_end(relay, false);  // asking again would be refused again
  if (!can_authenticate_)
    return auth_end(relay, false, "AUTH_REQUIRED", url + " requires NIP-42 authentication and the pool has no signer");
  if (!c.connected) return auth_end(relay, false);
  auth_emit_status(relay, "authenticating");
  c.auth_deadline = deadline_ms;
  if (c.challenge)
    auth_sign(relay, c);
  else
    c.step = relay_conn::auth_step::wait_challenge;
}

void subscriptions::auth_sign(std::string_view relay, relay_conn& c) {
  c.step = relay_conn::auth_step::signing;
  action a{};
  a.type = action_type::sign_auth;
  a.relay = std::string(relay);
  a.round = ++c.auth_round;
  a.challenge = *c.challenge;
  a.created_at = now_ms_ / 1000;
  actions_.push_back(std::move(a));
}

void subscriptions::auth_signed(std::string_view relay, std::uint64_t round, const event& signed_event,
                                std::int64_t now_ms) {
  auto it = conns_.find(relay);
  if (it == conns_.end() || it->second.step != relay_conn::auth_step::signing || it->second.auth_round != round)
    return;  // an answer for an AUTH that already ended (the connection dropped meanwhile)
  now_ms_ = now_ms;
  relay_conn& c = it->second;
  c.step = relay_conn::auth_step::wait_ok;
  c.auth_event_id = signed_event.id;
  c.auth_pubkey = signed_event.pubkey;
  action a{};
  a.type = action_type::send;
  a.relay = std::string(relay);
  a.frame = encode_client_auth(signed_event);
  actions_.push_back(std::move(a));
}

void subscriptions::auth_sign_failed(std::string_view relay, std::uint64_t round, std::string_view why,
                                     std::int64_t now_ms) {
  auto it = conns_.find(relay);
  if (it == conns_.end() || it->second.step != relay_conn::auth_step::signing || it->second.auth_round != round)
    return;
  now_ms_ = now_ms;
  auth_end(relay, false, "AUTH_FAILED", "the signer refused the AUTH event: " + std::string(why));
}

void subscriptions::auth_on_challenge(std::string_view relay) {
  relay_conn& c = conn(relay);
  if (c.step == relay_conn::auth_step::wait_challenge)
    auth_sign(relay, c);
  else if (eager_auth_ && can_authenticate_ && c.connected && c.step == relay_conn::auth_step::idle)
    authenticate(relay, now_ms_, now_ms_ + auth_timeout_ms_);
}

bool subscriptions::auth_on_ok(std::string_view relay, const relay_ok& ok) {
  auto it = conns_.find(relay);
  if (it == conns_.end() || it->second.step != relay_conn::auth_step::wait_ok || it->second.auth_event_id != ok.event_id)
    return false;
  if (ok.accepted) {
    it->second.auth_state = relay_conn::auth::authenticated;
    auth_emit_status(relay, "open", {}, {}, it->second.auth_pubkey);
    auth_end(relay, true);
  } else {
    auth_end(relay, false, "AUTH_FAILED", std::string(relay) + " refused AUTH: " + ok.status.message);
  }
  return true;
}

void subscriptions::auth_disconnected(std::string_view relay) {
  auto it = conns_.find(relay);
  if (it == conns_.end() || it->second.step == relay_conn::auth_step::idle) return;
  it->second.step = relay_conn::auth_step::idle;
  it->second.auth_deadline = -1;
  action a{};
  a.type = action_type::auth_done;
  a.relay = std::string(relay);
  actions_.push_back(std::move(a));
}

void subscriptions::auth_timeout(std::int64_t now_ms) {
  std::vector<std::pair<std::string, std::string>> due;  // relay, why
  for (const auto& [url, c] : conns_) {
    if (c.auth_deadline < 0 || c.auth_deadline > now_ms) continue;
    if (c.step == relay_conn::auth_step::wait_challenge)
      due.emplace_back(url, url + " sent no AUTH challenge");
    else if (c.step == relay_conn::auth_step::wait_ok)
      due.emplace_back(url, url + " did not answer AUTH");
  }
  for (auto& [url, why] : due) auth_end(url, false, "AUTH_FAILED", std::move(why));
}

void subscriptions::auth_next_deadline(std::optional<std::int64_t>& best) const {
  for (const auto& [url, c] : conns_) {
    const bool waiting = c.step == relay_conn::auth_step::wait_challenge || c.step == relay_conn::auth_step::wait_ok;
    if (waiting && c.auth_deadline >= 0 && (!best || c.auth_deadline < *best)) best = c.auth_deadline;
  }
}

}  // namespace nostr::relay
