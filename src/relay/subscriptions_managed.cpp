// The managed API of the subscription machine (subscriptions.hpp): every decision a pool makes
// about a subscription on a relay, as actions. Mirrors what a relay expects of a client (NIP-01
// REQ/EOSE/CLOSE/CLOSED, NIP-11 limits, NIP-42 AUTH), one rule each:
//   - a REQ goes out when the relay is connected and under its max_subscriptions; otherwise it
//     waits in the relay's FIFO queue (or asks for a connection);
//   - more filters than max_filters, or a REQ over max_message_length, closes it on that relay;
//   - CLOSED auth-required (or restricted after a challenge we have not answered) asks for AUTH
//     once per connection, then sends the REQ again or closes it with that CLOSED;
//   - CLOSED with a transient reason is retried after a backoff, subscription_retries times per
//     connection; any other CLOSED closes it on that relay;
//   - a relay that dropped, closed or answered EOSE no longer holds the subscription's EOSE back;
//     max_wait ends the wait anyway; the eose action goes out once;
//   - when every relay closed it, the subscription ends (ended action) and is forgotten;
//   - after a reconnect the REQ goes out again with since (resume_since), except where closed.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "relay/client_message.hpp"
#include "relay/subscriptions.hpp"

namespace nostr::relay {
namespace {

bool is_open(relay_sub_state s) { return s == relay_sub_state::pending || s == relay_sub_state::live; }

machine_message local(reason_code reason, std::string text) {
  machine_message m;
  m.reason = reason;
  m.message = std::move(text);
  return m;
}

}  // namespace

const char* action_type_name(action_type t) {
  switch (t) {
    case action_type::send: return "send";
    case action_type::connect: return "connect";
    case action_type::authenticate: return "authenticate";
    case action_type::eose: return "eose";
    case action_type::relay_closed: return "relay-closed";
    case action_type::ended: return "ended";
    case action_type::settle: return "settle";
    case action_type::sign_auth: return "sign-auth";
    case action_type::auth_status: return "auth-status";
    case action_type::auth_done: return "auth-done";
    case action_type::count_done: return "count-done";
  }
  return "send";
}

void subscriptions::emit(action_type t, std::string relay, std::string sub_id, std::string frame,
                         machine_message status, std::string code, std::string reason) {
  action a{};
  a.type = t;
  a.relay = std::move(relay);
  a.sub_id = std::move(sub_id);
  a.frame = std::move(frame);
  a.status = std::move(status);
  a.code = std::move(code);
  a.reason = std::move(reason);
  actions_.push_back(std::move(a));
}

std::vector<action> subscriptions::take_actions() { return std::exchange(actions_, {}); }

subscriptions::relay_conn& subscriptions::conn(std::string_view relay) {
  auto it = conns_.find(relay);
  if (it == conns_.end()) it = conns_.emplace(std::string(relay), relay_conn{}).first;
  return it->second;
}

const subscriptions::relay_conn* subscriptions::find_conn(std::string_view relay) const {
  auto it = conns_.find(relay);
  return it == conns_.end() ? nullptr : &it->second;
}

double subscriptions::next_random() {
  // xorshift64*: jitter only needs to spread retries, and the seed makes tests repeatable.
  rng_ ^= rng_ >> 12;
  rng_ ^= rng_ << 25;
  rng_ ^= rng_ >> 27;
  return static_cast<double>((rng_ * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

std::vector<std::string> subscriptions::managed_on(std::string_view relay) const {
  std::vector<std::pair<std::uint64_t, std::string>> found;
  for (const auto& [id, s] : subs_)
    if (s.managed && s.find_relay(relay)) found.emplace_back(s.order, id);
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  out.reserve(found.size());
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

result<void> subscriptions::subscribe(std::string sub_id, std::vector<filter> filters,
                                      const std::vector<std::string>& relays, std::int64_t now_ms,
                                      std::int64_t max_wait_ms) {
  if (relays.empty()) return make_error(errc::invalid_argument, "a subscription needs at least one relay");
  const std::string id = sub_id;
  if (auto r = open(std::move(sub_id), std::move(filters)); !r) return r;
  auto it = subs_.find(id);
  subscription& s = it->second;
  s.managed = true;
  s.order = next_order_++;
  if (max_wait_ms >= 0) s.eose_at = now_ms + max_wait_ms;
  for (const auto& url : relays) {
    if (s.find_relay(url)) continue;
    relay_entry e;
    e.url = url;
    e.state = relay_sub_state::idle;
    e.done = conn(url).down;  // a relay waiting to reconnect does not hold EOSE back
    s.relays.push_back(std::move(e));
  }
  // Entries are complete before any REQ goes out: a REQ refused locally may end the subscription.
  for (const auto& url : relays) {
    auto sit = subs_.find(id);
    if (sit == subs_.end()) break;
    relay_entry* r = sit->second.find_relay(url);
    if (!r || r->state != relay_sub_state::idle) continue;
    if (conn(url).connected)
      try_send(sit->first, sit->second, *r, now_ms);
    else
      emit(action_type::connect, url, sit->first);
  }
  if (auto sit = subs_.find(id); sit != subs_.end()) check_eose(sit->first, sit->second);
  return {};
}

void subscriptions::try_send(const std::string& sub_id, subscription& s, relay_entry& r, std::int64_t now_ms) {
  relay_conn& c = conn(r.url);
  if (r.state == relay_sub_state::closed || !c.connected) return;
  const relay_limits& l = c.limits;
  if (l.max_filters && s.filters.size() > l.max_filters) {
    close_on_relay(sub_id, s, r,
                   local(reason_code::unknown, r.url + " accepts at most " + std::to_string(l.max_filters) +
                                                   " filters per subscription (NIP-11)"),
                   "TOO_MANY_FILTERS", "too-many-filters");
    return;
  }
  const bool open_here = is_open(r.state);
  if (!open_here && l.max_subscriptions && c.active >= l.max_subscriptions) {
    if (r.state != relay_sub_state::queued) c.queue.push_back(sub_id);
    r.state = relay_sub_state::queued;
    return;
  }
  std::string frame = req_frame(sub_id, s, r, now_ms / 1000);
  if (l.max_message_length && frame.size() > l.max_message_length) {
    close_on_relay(sub_id, s, r,
                   local(reason_code::unknown, "REQ of " + std::to_string(frame.size()) + " bytes is over " + r.url +
                                                   "'s max_message_length (NIP-11)"),
                   "MESSAGE_TOO_LARGE", "too-large");
    return;
  }
  if (!open_here) ++c.active;
  r.state = relay_sub_state::pending;
  r.retry_at = 0;
  r.awaiting_auth = false;
  emit(action_type::send, r.url, sub_id, std::move(frame));
}

void subscriptions::release_slot(std::string_view relay, relay_entry& r) {
  relay_conn& c = conn(relay);
  if (is_open(r.state) && c.active > 0) --c.active;
}

void subscriptions::flush_queue(std::string_view relay, std::int64_t now_ms) {
  for (;;) {
    relay_conn& c = conn(relay);
    if (c.queue.empty() || !c.connected) return;
    if (c.limits.max_subscriptions && c.active >= c.limits.max_subscriptions) return;
    std::string id = std::move(c.queue.front());
    c.queue.erase(c.queue.begin());
    auto it = subs_.find(id);
    if (it == subs_.end()) continue;
    relay_entry* r = it->second.find_relay(relay);
    if (!r || r->state != relay_sub_state::queued) continue;
    r->state = relay_sub_state::idle;
    try_send(it->first, it->second, *r, now_ms);
  }
}

void subscriptions::check_eose(const std::string& sub_id, subscription& s) {
  if (s.eosed) return;
  if (std::any_of(s.relays.begin(), s.relays.end(), [](const relay_entry& e) { return !e.done; })) return;
  s.eosed = true;
  s.eose_at.reset();
  emit(action_type::eose, {}, sub_id);
}

void subscriptions::close_on_relay(const std::string& sub_id, subscription& s, relay_entry& r,
                                   machine_message status, std::string code, std::string reason) {
  if (reason.empty()) reason = reason_name(status.reason);
  release_slot(r.url, r);
  if (r.state == relay_sub_state::queued) {
    auto& q = conn(r.url).queue;
    q.erase(std::remove(q.begin(), q.end(), sub_id), q.end());
  }
  r.state = relay_sub_state::closed;
  r.done = true;
  r.retry_at = 0;
  r.awaiting_auth = false;
  emit(action_type::relay_closed, r.url, sub_id, {}, std::move(status), std::move(code), std::move(reason));
  if (std::any_of(s.relays.begin(), s.relays.end(),
                  [](const relay_entry& e) { return e.state != relay_sub_state::closed; })) {
    check_eose(sub_id, s);
    return;
  }
  // Closed everywhere: nothing is open, so no CLOSE to send.
  std::string id = sub_id;
  subs_.erase(subs_.find(id));
  emit(action_type::ended, {}, std::move(id));
}

void subscriptions::managed_closed(const std::string& sub_id, subscription& s, relay_entry& r,
                                   const machine_message& status) {
  release_slot(r.url, r);
  r.state = relay_sub_state::idle;
  std::string relay = r.url;  // flush_queue may not touch r, but keep the key stable
  if (needs_auth(relay, status.reason) && !r.auth_tried) {
    r.auth_tried = true;
    r.awaiting_auth = true;
    r.closed_by = status;
    emit(action_type::authenticate, relay, sub_id, {}, status, {}, reason_name(status.reason));
  } else if (reason_is_transient(status.reason) && r.retries < cfg_.subscription_retries) {
    r.retry_at = now_ms_ + std::max<std::int64_t>(1, backoff_delay(r.retries++, cfg_.retry_backoff, next_random()));
  } else {
    std::string id = sub_id;
    close_on_relay(id, s, r, status, {});
  }
  flush_queue(relay, now_ms_);
}

void subscriptions::unsubscribe(std::string_view sub_id) {
  auto it = subs_.find(sub_id);
  if (it == subs_.end()) return;
  std::string id = it->first;
  std::vector<std::string> freed;
  auto frame = encode_close(id);
  for (auto& r : it->second.relays) {
    relay_conn& c = conn(r.url);
    if (is_open(r.state)) {
      if (c.active > 0) --c.active;
      if (c.connected && frame) emit(action_type::send, r.url, id, *frame);
      freed.push_back(r.url);
    } else if (r.state == relay_sub_state::queued) {
      c.queue.erase(std::remove(c.queue.begin(), c.queue.end(), id), c.queue.end());
    }
  }
  subs_.erase(it);
  for (const auto& url : freed) flush_queue(url, now_ms_);
}

void subscriptions::set_limits(std::string_view relay, relay_limits limits) { conn(relay).limits = limits; }

const relay_limits* subscriptions::limits(std::string_view relay) const {
  const relay_conn* c = find_conn(relay);
  return c ? &c->limits : nullptr;
}

void subscriptions::relay_connected(std::string_view relay, std::int64_t now_ms) {
  relay_conn& c = conn(relay);
  c.connected = true;
  c.down = false;
  now_ms_ = now_ms;
  for (const auto& id : managed_on(relay)) {
    auto it = subs_.find(id);
    if (it == subs_.end()) continue;  // ended by an earlier REQ refused locally: no
    relay_entry* r = it->second.find_relay(relay);
    if (!r) continue;
    r->auth_tried = false;
    r->awaiting_auth = false;
    r->retries = 0;
    r->retry_at = 0;
    if (r->state == relay_sub_state::closed) continue;
    r->state = relay_sub_state::idle;
    try_send(it->first, it->second, *r, now_ms);
  }
  pub_connected(relay);  // after the REQs, as a pool has always sent them
  cnt_connected(relay);
}

void subscriptions::relay_disconnected(std::string_view relay, bool reconnecting) {
  auth_disconnected(relay);
  relay_conn& c = conn(relay);
  c.connected = false;
  c.down = reconnecting;
  c.active = 0;
  c.queue.clear();
  c.challenge.reset();
  c.auth_state = relay_conn::auth::none;
  c.refused_challenge.reset();
  relay_disconnected(relay);  // pending and live become idle (the building block)
  for (const auto& id : managed_on(relay)) {
    auto it = subs_.find(id);
    relay_entry* r = it->second.find_relay(relay);
    if (r->state == relay_sub_state::queued) r->state = relay_sub_state::idle;
    r->retry_at = 0;
    r->awaiting_auth = false;
    if (!r->done) {
      // A relay that is down cannot hold up "end of stored events" for the others.
      r->done = true;
      check_eose(it->first, it->second);
    }
  }
  pub_disconnected(relay, reconnecting);
  cnt_disconnected(relay, reconnecting);
}

void subscriptions::remove_relay(std::string_view relay, std::string_view message) {
  for (const auto& id : managed_on(relay)) {
    auto it = subs_.find(id);
    if (it == subs_.end()) continue;
    relay_entry* r = it->second.find_relay(relay);
    if (r && r->state != relay_sub_state::closed)
      close_on_relay(it->first, it->second, *r, local(reason_code::unknown, std::string(message)), {}, "closed");
  }
  pub_remove_relay(relay);
  cnt_remove_relay(relay);
  forget_relay(relay);
}

void subscriptions::auth_result(std::string_view relay, bool accepted, std::int64_t now_ms) {
  relay_conn& c = conn(relay);
  now_ms_ = now_ms;
  if (accepted) {
    c.auth_state = relay_conn::auth::authenticated;
  } else if (c.auth_state != relay_conn::auth::authenticated) {
    c.auth_state = relay_conn::auth::refused;
    c.refused_challenge = c.challenge;
  }
  for (const auto& id : managed_on(relay)) {
    auto it = subs_.find(id);
    if (it == subs_.end()) continue;
    relay_entry* r = it->second.find_relay(relay);
    if (!r || !r->awaiting_auth) continue;
    r->awaiting_auth = false;
    if (accepted)
      try_send(it->first, it->second, *r, now_ms);
    else
      close_on_relay(it->first, it->second, *r, r->closed_by, {});
  }
  pub_auth_result(relay, accepted);
  cnt_auth_result(relay, accepted);
}

const std::string* subscriptions::challenge(std::string_view relay) const {
  const relay_conn* c = find_conn(relay);
  return c && c->challenge ? &*c->challenge : nullptr;
}

bool subscriptions::authenticated(std::string_view relay) const {
  const relay_conn* c = find_conn(relay);
  return c && c->auth_state == relay_conn::auth::authenticated;
}

bool subscriptions::auth_refused(std::string_view relay) const {
  const relay_conn* c = find_conn(relay);
  return c && c->auth_state == relay_conn::auth::refused && c->refused_challenge && c->refused_challenge == c->challenge;
}

bool subscriptions::needs_auth(std::string_view relay, reason_code reason) const {
  if (reason == reason_code::auth_required) return true;
  const relay_conn* c = find_conn(relay);
  return reason == reason_code::restricted && c && c->challenge && c->auth_state != relay_conn::auth::authenticated;
}

std::string subscriptions::probe(std::string_view relay) {
  relay_conn& c = conn(relay);
  std::string id = std::string(kProbePrefix) + std::to_string(++c.probes);
  filter f;
  f.ids = std::vector<std::string>{std::string(64, '0')};
  f.limit = 1;
  auto frame = encode_req(id, {f});
  return frame ? std::move(*frame) : std::string();
}

void subscriptions::handle_timeout(std::int64_t now_ms) {
  now_ms_ = now_ms;
  std::vector<std::pair<std::uint64_t, std::string>> due;
  for (const auto& [id, s] : subs_) {
    if (!s.managed) continue;
    bool is_due = s.eose_at && *s.eose_at <= now_ms;
    for (const auto& r : s.relays) is_due = is_due || (r.retry_at && r.retry_at <= now_ms);
    if (is_due) due.emplace_back(s.order, id);
  }
  std::sort(due.begin(), due.end());
  for (const auto& [order, id] : due) {
    auto it = subs_.find(id);
    if (it == subs_.end()) continue;
    subscription& s = it->second;
    if (s.eose_at && *s.eose_at <= now_ms && !s.eosed) {
      s.eosed = true;
      s.eose_at.reset();
      emit(action_type::eose, {}, it->first);
    }
    for (std::size_t i = 0;; ++i) {
      auto sit = subs_.find(id);  // a REQ refused locally may end it
      if (sit == subs_.end() || i >= sit->second.relays.size()) break;
      relay_entry& r = sit->second.relays[i];
      if (!r.retry_at || r.retry_at > now_ms) continue;
      r.retry_at = 0;
      if (r.state == relay_sub_state::idle) try_send(sit->first, sit->second, r, now_ms);
    }
  }
  pub_timeout(now_ms);
  cnt_timeout(now_ms);
  auth_timeout(now_ms);
}

std::optional<std::int64_t> subscriptions::next_deadline() const {
  std::optional<std::int64_t> best;
  auto take = [&](std::int64_t t) {
    if (!best || t < *best) best = t;
  };
  for (const auto& [id, s] : subs_) {
    if (!s.managed) continue;
    if (!s.eosed && s.eose_at) take(*s.eose_at);
    for (const auto& r : s.relays)
      if (r.retry_at) take(r.retry_at);
  }
  pub_next_deadline(best);
  cnt_next_deadline(best);
  auth_next_deadline(best);
  return best;
}

bool subscriptions::wants_relay(std::string_view relay) const {
  for (const auto& [id, s] : subs_)
    if (const relay_entry* r = s.managed ? s.find_relay(relay) : nullptr; r && r->state != relay_sub_state::closed)
      return true;
  return pub_wants_relay(relay) || cnt_wants_relay(relay);
}

}  // namespace nostr::relay
