// Publishing through the relay machine (subscriptions.hpp, publish): every decision a pool makes
// about an EVENT on a relay, as actions. One rule each, per relay of a publish:
//   - the EVENT goes out when the relay is connected (otherwise: connect, and wait);
//   - a frame over the relay's NIP-11 max_message_length is rejected locally (too-large);
//   - the OK for the event id settles it: accepted; a duplicate after a resend is accepted too
//     (the first send reached the relay after all);
//   - auth-required (or restricted from a relay that challenged us) asks for AUTH once, then the
//     EVENT goes out again; the AUTH failing, or no signer, rejects it with the relay's OK;
//   - a transient refusal (rate-limited, error) goes out again after the retry backoff, and a
//     connection lost before the OK sends again once reconnected: `retries` times in all;
//   - the deadline ends what is still waiting: timeout after a send, unreachable before any,
//     rejected while waiting for AUTH or a retry (the relay's refusal stands).
// Each relay of a publish settles exactly once; a settled publish is forgotten.
#include <algorithm>
#include <utility>

#include "relay/client_message.hpp"
#include "relay/subscriptions.hpp"

namespace nostr::relay {
namespace {

action pub_action(action_type type, const std::string& url, std::uint64_t id) {
  action a{};
  a.type = type;
  a.relay = url;
  a.publish = id;
  return a;
}

std::string refusal_detail(const std::string& url, const machine_message& m) {
  return url + ": " + (m.message.empty() ? std::string(reason_name(m.reason)) : m.message);
}

}  // namespace

const char* publish_status_name(publish_status s) {
  switch (s) {
    case publish_status::accepted: return "accepted";
    case publish_status::rejected: return "rejected";
    case publish_status::timeout: return "timeout";
    case publish_status::unreachable: return "unreachable";
    case publish_status::aborted: return "aborted";
  }
  return "rejected";
}

result<void> subscriptions::publish(std::uint64_t id, const event& ev, const std::vector<std::string>& relays,
                                    std::int64_t now_ms, std::int64_t deadline_ms, int retries) {
  if (id == 0 || pubs_.count(id)) return make_error(errc::invalid_argument, "publish id 0 or in use");
  if (relays.empty()) return make_error(errc::invalid_argument, "a publish needs at least one relay");
  now_ms_ = now_ms;
  pub_state p;
  p.frame = encode_client_event(ev);
  p.event_id = ev.id;
  p.deadline = deadline_ms;
  p.retries = std::max(0, retries);
  for (const auto& url : relays) {
    if (std::any_of(p.targets.begin(), p.targets.end(), [&](const pub_target& t) { return t.url == url; })) continue;
    pub_target t;
    t.url = url;
    p.targets.push_back(std::move(t));
  }
  auto& stored = pubs_.emplace(id, std::move(p)).first->second;
  for (auto& t : stored.targets) pub_send(id, stored, t);
  pub_forget_settled();
  return {};
}

void subscriptions::pub_send(std::uint64_t id, pub_state& p, pub_target& t) {
  const relay_conn& c = conn(t.url);
  t.retry_at = 0;
  if (!c.connected) {
    t.stage = pub_stage::wait_open;
    actions_.push_back(pub_action(action_type::connect, t.url, id));
    return;
  }
  if (const std::size_t max = c.limits.max_message_length; max && p.frame.size() > max) {
    t.last = make_machine_message(reason_code::unknown, "event is over " + t.url + "'s max_message_length of " +
                                                            std::to_string(max) + " bytes (NIP-11)");
    pub_settle(id, t, publish_status::rejected, "MESSAGE_TOO_LARGE",
               t.url + " accepts messages of at most " + std::to_string(max) + " bytes", true);
    actions_.back().reason = "too-large";
    return;
  }
  ++t.sends;
  t.stage = pub_stage::wait_ok;
  action a = pub_action(action_type::send, t.url, id);
  a.frame = p.frame;
  actions_.push_back(std::move(a));
}

void subscriptions::pub_settle(std::uint64_t id, pub_target& t, publish_status status, std::string code,
                               std::string detail, bool has_ok) {
  t.stage = pub_stage::settled;
  t.retry_at = 0;
  action a = pub_action(action_type::settle, t.url, id);
  if (has_ok) {
    a.status = t.last;
    a.reason = reason_name(t.last.reason);
  }
  a.code = std::move(code);
  a.outcome = status;
  a.attempts = t.sends;
  a.has_ok = has_ok;
  a.detail = std::move(detail);
  actions_.push_back(std::move(a));
}

void subscriptions::pub_settle_unanswered(std::uint64_t id, pub_target& t) {
  if (t.sends > 0)
    pub_settle(id, t, publish_status::timeout, "RELAY_TIMEOUT", t.url + " did not answer within the timeout");
  else
    pub_settle(id, t, publish_status::unreachable, "RELAY_UNREACHABLE");
}

void subscriptions::pub_forget_settled() {
  for (auto it = pubs_.begin(); it != pubs_.end();) {
    const auto& ts = it->second.targets;
    if (std::all_of(ts.begin(), ts.end(), [](const pub_target& t) { return t.stage == pub_stage::settled; }))
      it = pubs_.erase(it);
    else
      ++it;
  }
}

void subscriptions::pub_on_ok(std::string_view relay, const relay_ok& ok) {
  for (auto& [id, p] : pubs_) {
    if (p.event_id != ok.event_id) continue;
    for (auto& t : p.targets) {
      if (t.url != relay || t.stage != pub_stage::wait_ok) continue;
      t.last = ok.status;
      const reason_code r = ok.status.reason;
      if (ok.accepted || (r == reason_code::duplicate && t.sends > 1)) {
        pub_settle(id, t, publish_status::accepted, {}, {}, true);
      } else if (needs_auth(relay, r) && !t.auth_tried && can_authenticate_) {
        t.auth_tried = true;
        t.stage = pub_stage::wait_auth;
        action a = pub_action(action_type::authenticate, t.url, id);
        a.status = ok.status;
        a.reason = reason_name(r);
        a.deadline = p.deadline;
        actions_.push_back(std::move(a));
      } else if (r == reason_code::auth_required && !can_authenticate_) {
        auth_emit_status(t.url, "auth-required", "AUTH_REQUIRED",
                         t.url + " requires NIP-42 authentication and the pool has no signer");
        pub_settle(id, t, publish_status::rejected, "RELAY_REJECTED", refusal_detail(t.url, t.last), true);
      } else if (reason_is_transient(r) && t.failures < p.retries) {
        t.stage = pub_stage::backoff;
        t.retry_at = now_ms_ + backoff_delay(t.failures++, cfg_.retry_backoff, next_random());
      } else {
        pub_settle(id, t, publish_status::rejected, "RELAY_REJECTED", refusal_detail(t.url, t.last), true);
      }
    }
  }
  pub_forget_settled();
}

void subscriptions::pub_connected(std::string_view relay) {
  for (auto& [id, p] : pubs_)
    for (auto& t : p.targets)
      if (t.url == relay && t.stage == pub_stage::wait_open) pub_send(id, p, t);
  pub_forget_settled();
}

void subscriptions::pub_disconnected(std::string_view relay, bool reconnecting) {
  for (auto& [id, p] : pubs_) {
    for (auto& t : p.targets) {
      if (t.url != relay) continue;
      switch (t.stage) {
        case pub_stage::wait_open:
          // Not coming back: a relay never reached is unreachable; one that took the EVENT and
          // went away before its OK did not answer in time.
          if (!reconnecting) pub_settle_unanswered(id, t);
          break;
        case pub_stage::wait_ok:
          if (++t.failures > p.retries)
            pub_settle(id, t, publish_status::unreachable, "RELAY_CONNECTION_LOST", t.url + ": connection lost before OK");
          else
            pub_send(id, p, t);  // connect (the pool reconnects at once or after its backoff), then send again
          break;
        case pub_stage::wait_auth:
          pub_settle(id, t, publish_status::rejected, "RELAY_REJECTED", refusal_detail(t.url, t.last), true);
          break;
        default:
          break;
      }
    }
  }
  pub_forget_settled();
}

void subscriptions::pub_auth_result(std::string_view relay, bool accepted) {
  for (auto& [id, p] : pubs_)
    for (auto& t : p.targets) {
      if (t.url != relay || t.stage != pub_stage::wait_auth) continue;
      if (accepted)
        pub_send(id, p, t);
      else
        pub_settle(id, t, publish_status::rejected, "RELAY_REJECTED", refusal_detail(t.url, t.last), true);
    }
  pub_forget_settled();
}

void subscriptions::pub_remove_relay(std::string_view relay) {
  for (auto& [id, p] : pubs_)
    for (auto& t : p.targets)
      if (t.url == relay && t.stage != pub_stage::settled)
        pub_settle(id, t, publish_status::aborted, "POOL_CLOSED", "the pool was closed");
  pub_forget_settled();
}

void subscriptions::cancel_publish(std::uint64_t id, publish_status status, std::string_view code,
                                   std::string_view detail) {
  auto it = pubs_.find(id);
  if (it == pubs_.end()) return;
  for (auto& t : it->second.targets)
    if (t.stage != pub_stage::settled) pub_settle(id, t, status, std::string(code), std::string(detail));
  pubs_.erase(it);
}

void subscriptions::close_publishes() {
  while (!pubs_.empty()) cancel_publish(pubs_.begin()->first, publish_status::aborted, "POOL_CLOSED", "the pool was closed");
  while (!counts_.empty()) cancel_count(counts_.begin()->first, "POOL_CLOSED", "the pool was closed");
}

void subscriptions::pub_timeout(std::int64_t now_ms) {
  for (auto& [id, p] : pubs_) {
    const bool expired = p.deadline >= 0 && p.deadline <= now_ms;
    for (auto& t : p.targets) {
      // A retry due before the deadline goes out; one due at or after it never does.
      if (t.stage == pub_stage::backoff && t.retry_at <= now_ms && !expired) {
        pub_send(id, p, t);
        continue;
      }
      if (!expired) continue;
      switch (t.stage) {
        case pub_stage::wait_open:
          pub_settle_unanswered(id, t);
          break;
        case pub_stage::wait_ok:
          pub_settle(id, t, publish_status::timeout, "RELAY_TIMEOUT", t.url + " did not answer within the timeout");
          break;
        case pub_stage::wait_auth:
        case pub_stage::backoff:
          pub_settle(id, t, publish_status::rejected, "RELAY_REJECTED", refusal_detail(t.url, t.last), true);
          break;
        case pub_stage::settled:
          break;
      }
    }
  }
  pub_forget_settled();
}

void subscriptions::pub_next_deadline(std::optional<std::int64_t>& best) const {
  auto take = [&](std::int64_t t) {
    if (!best || t < *best) best = t;
  };
  for (const auto& [id, p] : pubs_) {
    if (p.deadline >= 0) take(p.deadline);
    for (const auto& t : p.targets)
      if (t.stage == pub_stage::backoff && (p.deadline < 0 || t.retry_at < p.deadline)) take(t.retry_at);
  }
}

bool subscriptions::pub_wants_relay(std::string_view relay) const {
  for (const auto& [id, p] : pubs_)
    for (const auto& t : p.targets)
      if (t.url == relay && t.stage != pub_stage::settled) return true;
  return false;
}

}  // namespace nostr::relay
