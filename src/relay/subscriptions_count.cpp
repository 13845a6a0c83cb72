// NIP-45 COUNT through the relay machine (subscriptions.hpp, count): every decision a pool makes
// about a COUNT on a relay, as actions. One rule each:
//   - the COUNT goes out when the relay is connected (otherwise: connect, and wait);
//   - the relay's COUNT for the sub id ends it with the count (and approximate, hll);
//   - its CLOSED ends it refused (RELAY_CLOSED), unless it asks for AUTH (auth-required, or
//     restricted from a relay that challenged us): AUTH once, then the COUNT goes out again;
//   - a connection lost after the COUNT went out ends it (RELAY_CONNECTION_LOST): a count is
//     cheap to ask again, and the caller decides whether to;
//   - the deadline ends what is still waiting: RELAY_TIMEOUT after a send, RELAY_UNREACHABLE
//     before any, RELAY_CLOSED while waiting for AUTH (the relay's refusal stands).
// Each COUNT ends exactly once, with one count_done action; an ended COUNT is forgotten.
#include <algorithm>
#include <utility>

#include "relay/client_message.hpp"
#include "relay/subscriptions.hpp"

namespace nostr::relay {
namespace {

action count_action(action_type type, const std::string& url, std::uint64_t id) {
  action a{};
  a.type = type;
  a.relay = url;
  a.count_id = id;
  return a;
}

}  // namespace

result<void> subscriptions::count(std::uint64_t id, const std::string& sub_id, const std::vector<filter>& filters,
                                  std::string_view relay, std::int64_t now_ms, std::int64_t deadline_ms) {
  if (id == 0 || counts_.count(id)) return make_error(errc::invalid_argument, "count id 0 or in use");
  for (const auto& [other, c] : counts_)
    if (!c.done && c.url == relay && c.sub_id == sub_id)
      return make_error(errc::invalid_argument, "a COUNT with id " + sub_id + " is already pending on " + c.url);
  auto frame = encode_count(sub_id, filters);
  if (!frame) return frame.err();
  now_ms_ = now_ms;
  count_state c;
  c.url = std::string(relay);
  c.sub_id = sub_id;
  c.frame = std::move(*frame);
  c.deadline = deadline_ms;
  cnt_send(id, counts_.emplace(id, std::move(c)).first->second);
  return {};
}

void subscriptions::cnt_send(std::uint64_t id, count_state& c) {
  if (!conn(c.url).connected) {
    c.stage = count_stage::wait_open;
    actions_.push_back(count_action(action_type::connect, c.url, id));
    return;
  }
  c.stage = count_stage::wait_answer;
  c.sent = true;
  action a = count_action(action_type::send, c.url, id);
  a.frame = c.frame;
  actions_.push_back(std::move(a));
}

void subscriptions::cnt_done(std::uint64_t id, count_state& c, std::string code, std::string detail) {
  c.done = true;
  action a = count_action(action_type::count_done, c.url, id);
  a.sub_id = c.sub_id;
  a.code = std::move(code);
  a.detail = std::move(detail);
  actions_.push_back(std::move(a));
}

void subscriptions::cnt_refused(std::uint64_t id, count_state& c, const machine_message& status) {
  cnt_done(id, c, "RELAY_CLOSED",
           c.url + " refused COUNT: " + (status.message.empty() ? std::string(reason_name(status.reason)) : status.message));
  action& a = actions_.back();
  a.status = status;
  a.reason = reason_name(status.reason);
}

bool subscriptions::cnt_on_count(std::string_view relay, relay_count& m) {
  for (auto& [id, c] : counts_) {
    if (c.done || c.url != relay || c.sub_id != m.sub_id || c.stage != count_stage::wait_answer) continue;
    cnt_done(id, c, {}, {});
    action& a = actions_.back();
    a.count = m.count;
    a.approximate = m.approximate;
    a.hll = m.hll;
    cnt_forget_done();
    return true;
  }
  return false;
}

bool subscriptions::cnt_on_closed(std::string_view relay, const relay_closed& m) {
  for (auto& [id, c] : counts_) {
    if (c.done || c.url != relay || c.sub_id != m.sub_id || c.stage != count_stage::wait_answer) continue;
    const reason_code r = m.status.reason;
    if (needs_auth(relay, r) && !c.auth_tried && can_authenticate_) {
      c.auth_tried = true;
      c.stage = count_stage::wait_auth;
      c.closed_by = m.status;
      action a = count_action(action_type::authenticate, c.url, id);
      a.status = m.status;
      a.reason = reason_name(r);
      a.deadline = c.deadline;
      actions_.push_back(std::move(a));
    } else {
      if (r == reason_code::auth_required && !can_authenticate_)
        auth_emit_status(c.url, "auth-required", "AUTH_REQUIRED",
                         c.url + " requires NIP-42 authentication and the pool has no signer");
      cnt_refused(id, c, m.status);
    }
    cnt_forget_done();
    return true;
  }
  return false;
}

void subscriptions::cnt_connected(std::string_view relay) {
  for (auto& [id, c] : counts_)
    if (!c.done && c.url == relay && c.stage == count_stage::wait_open) cnt_send(id, c);
}

void subscriptions::cnt_disconnected(std::string_view relay, bool reconnecting) {
  for (auto& [id, c] : counts_) {
    if (c.done || c.url != relay) continue;
    switch (c.stage) {
      case count_stage::wait_open:
        if (!reconnecting) cnt_done(id, c, "RELAY_UNREACHABLE", {});
        break;
      case count_stage::wait_answer:
        cnt_done(id, c, "RELAY_CONNECTION_LOST", c.url + ": connection lost before COUNT");
        break;
      case count_stage::wait_auth:
        cnt_refused(id, c, c.closed_by);
        break;
    }
  }
  cnt_forget_done();
}

void subscriptions::cnt_auth_result(std::string_view relay, bool accepted) {
  for (auto& [id, c] : counts_) {
    if (c.done || c.url != relay || c.stage != count_stage::wait_auth) continue;
    if (accepted)
      cnt_send(id, c);
    else
      cnt_refused(id, c, c.closed_by);
  }
  cnt_forget_done();
}

void subscriptions::cnt_remove_relay(std::string_view relay) {
  for (auto& [id, c] : counts_)
    if (!c.done && c.url == relay) cnt_done(id, c, "POOL_CLOSED", "the pool was closed");
  cnt_forget_done();
}

void subscriptions::cancel_count(std::uint64_t id, std::string_view code, std::string_view detail) {
  auto it = counts_.find(id);
  if (it == counts_.end() || it->second.done) return;
  cnt_done(id, it->second, std::string(code), std::string(detail));
  cnt_forget_done();
}

void subscriptions::cnt_timeout(std::int64_t now_ms) {
  for (auto& [id, c] : counts_) {
    if (c.done || c.deadline < 0 || c.deadline > now_ms) continue;
    switch (c.stage) {
      case count_stage::wait_open:
        cnt_done(id, c, "RELAY_UNREACHABLE", {});
        break;
      case count_stage::wait_answer:
        cnt_done(id, c, "RELAY_TIMEOUT", c.url + " did not answer COUNT within the timeout");
        break;
      case count_stage::wait_auth:
        cnt_refused(id, c, c.closed_by);
        break;
    }
  }
  cnt_forget_done();
}

void subscriptions::cnt_next_deadline(std::optional<std::int64_t>& best) const {
  for (const auto& [id, c] : counts_)
    if (!c.done && c.deadline >= 0 && (!best || c.deadline < *best)) best = c.deadline;
}

bool subscriptions::cnt_wants_relay(std::string_view relay) const {
  return std::any_of(counts_.begin(), counts_.end(), [&](const auto& e) { return !e.second.done && e.second.url == relay; });
}

void subscriptions::cnt_forget_done() {
  for (auto it = counts_.begin(); it != counts_.end();) it = it->second.done ? counts_.erase(it) : std::next(it);
}

}  // namespace nostr::relay
