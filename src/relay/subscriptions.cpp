#include "relay/subscriptions.hpp"

#include <algorithm>
#include <cstdint>

#include "relay/client_message.hpp"
#include "relay/frame.hpp"
#include "nips/nip59.hpp"
#include "relay/sub_id.hpp"
#include "util/hex.hpp"

namespace nostr::relay {
namespace {

bool is_open(relay_sub_state s) { return s == relay_sub_state::pending || s == relay_sub_state::live; }

dropped make_dropped(drop_reason reason, std::string sub_id, std::string_view relay, std::string event_id,
                     error err) {
  return dropped{reason, std::move(sub_id), std::string(relay), std::move(event_id), std::move(err)};
}

}  // namespace

const char* relay_sub_state_name(relay_sub_state s) {
  switch (s) {
    case relay_sub_state::pending: return "pending";
    case relay_sub_state::live: return "live";
    case relay_sub_state::closed: return "closed";
    case relay_sub_state::idle: return "idle";
    case relay_sub_state::queued: return "queued";
  }
  return "idle";
}

const char* drop_reason_name(drop_reason r) {
  switch (r) {
    case drop_reason::duplicate: return "duplicate";
    case drop_reason::not_matching: return "not-matching";
    case drop_reason::bad_signature: return "bad-signature";
    case drop_reason::malformed: return "malformed";
    case drop_reason::unknown_subscription: return "unknown-subscription";
  }
  return "malformed";
}

subscriptions::relay_entry* subscriptions::subscription::find_relay(std::string_view url) {
  for (auto& r : relays)
    if (r.url == url) return &r;
  return nullptr;
}

const subscriptions::relay_entry* subscriptions::subscription::find_relay(std::string_view url) const {
  for (const auto& r : relays)
    if (r.url == url) return &r;
  return nullptr;
}

subscriptions::subscriptions(subscriptions_config cfg) : cfg_(cfg), rng_(cfg.seed ? cfg.seed : 1) {}

subscriptions::subscription* subscriptions::find(std::string_view sub_id) {
  auto it = subs_.find(sub_id);
  return it == subs_.end() ? nullptr : &it->second;
}

const subscriptions::subscription* subscriptions::find(std::string_view sub_id) const {
  auto it = subs_.find(sub_id);
  return it == subs_.end() ? nullptr : &it->second;
}

result<void> subscriptions::open(std::string sub_id, std::vector<filter> filters) {
  if (!valid_sub_id(sub_id)) return make_error(errc::invalid_argument, "subscription id must be 1 to 64 characters");
  if (filters.empty()) return make_error(errc::invalid_argument, "a subscription needs at least one filter");
  if (subs_.count(sub_id)) return make_error(errc::relay_subscription_exists, "subscription id already open");
  subs_.emplace(std::move(sub_id), subscription{std::move(filters), {}, seen_window(cfg_.seen_cap)});
  return {};
}

std::optional<std::int64_t> subscriptions::since_for(const relay_entry& r, std::int64_t now) const {
  if (!r.newest) return std::nullopt;
  std::int64_t base = std::min(*r.newest, now);
  std::int64_t overlap = std::max<std::int64_t>(cfg_.resubscribe_overlap, 0);
  return base > overlap ? base - overlap : 0;
}

std::string subscriptions::req_frame(const std::string& sub_id, const subscription& s, const relay_entry& r,
                                     std::int64_t now) const {
  auto since = since_for(r, now);
  result<std::string> frame = [&] {
    if (!since) return encode_req(sub_id, s.filters);
    // NIP-01: the relay answers with stored events since then, then live ones; the overlap
    // re-fetches the edge, and the seen window drops what was already delivered.
    std::vector<filter> adjusted = s.filters;
    for (auto& f : adjusted) {
      // NIP-59 dates gift wraps at random up to two days back: the newest one seen says nothing
      // about which were missed, so a filter for wraps keeps its own since.
      if (f.kinds && std::find(f.kinds->begin(), f.kinds->end(), nip59::kGiftWrapKind) != f.kinds->end()) continue;
      if (!f.since || *f.since < *since) f.since = since;
    }
    return encode_req(sub_id, adjusted);
  }();
  // open() checked the id and the filters, which is all encode_req can refuse.
  return frame ? std::move(*frame) : std::string();
}

result<std::string> subscriptions::req_for(std::string_view sub_id, std::string_view relay, std::int64_t now) {
  auto it = subs_.find(sub_id);
  if (it == subs_.end()) return make_error(errc::relay_subscription_unknown, "no open subscription with this id");
  subscription& s = it->second;
  relay_entry* r = s.find_relay(relay);
  if (!r) {
    relay_entry e;
    e.url = std::string(relay);
    s.relays.push_back(std::move(e));
    r = &s.relays.back();
  }
  r->state = relay_sub_state::pending;
  return req_frame(it->first, s, *r, now);
}

void subscriptions::relay_disconnected(std::string_view relay) {
  for (auto& [id, s] : subs_)
    if (relay_entry* r = s.find_relay(relay); r && is_open(r->state)) r->state = relay_sub_state::idle;
}

std::vector<std::string> subscriptions::resubscribe(std::string_view relay, std::int64_t now) {
  std::vector<std::string> frames;
  for (auto& [id, s] : subs_) {
    relay_entry* r = s.find_relay(relay);
    if (!r || r->state == relay_sub_state::closed) continue;
    r->state = relay_sub_state::pending;
    frames.push_back(req_frame(id, s, *r, now));
  }
  return frames;
}

result<close_action> subscriptions::close(std::string_view sub_id) {
  auto it = subs_.find(sub_id);
  if (it == subs_.end()) return make_error(errc::relay_subscription_unknown, "no open subscription with this id");
  close_action out;
  auto frame = encode_close(it->first);
  if (frame) out.frame = std::move(*frame);
  for (const auto& r : it->second.relays)
    if (is_open(r.state)) out.relays.push_back(r.url);
  subs_.erase(it);
  return out;
}

void subscriptions::forget_relay(std::string_view relay) {
  for (auto& [id, s] : subs_)
    s.relays.erase(std::remove_if(s.relays.begin(), s.relays.end(), [&](const relay_entry& r) { return r.url == relay; }),
                   s.relays.end());
  if (auto it = conns_.find(relay); it != conns_.end()) conns_.erase(it);
}

std::optional<outcome> subscriptions::decode(std::string_view relay, std::string_view frame, relay_message& msg) const {
  auto parsed = detail::parse_frame(frame, cfg_.max_frame_bytes);
  if (!parsed) return make_dropped(drop_reason::malformed, {}, relay, {}, parsed.err());
  auto m = detail::decode_relay_json(*parsed);
  if (!m) {
    // Name the subscription when the frame got as far as a valid one (helps the pool's counters).
    const auto& a = *parsed;
    std::string sub_id;
    if (a.size() > 1 && a[1].is_string() && detail::verb_of(a) != "OK" && detail::verb_of(a) != "NOTICE" &&
        detail::verb_of(a) != "AUTH")
      sub_id = a[1].get_ref<const std::string&>();
    return make_dropped(drop_reason::malformed, std::move(sub_id), relay, {}, m.err());
  }
  msg = std::move(*m);
  return std::nullopt;
}

outcome subscriptions::dispatch(std::string_view relay, relay_message&& msg, const result<void>* verified) {
  struct visitor {
    subscriptions& self;
    std::string_view relay;
    const result<void>* verified;
    outcome operator()(relay_event& m) { return self.on_event(relay, std::move(m), verified); }
    outcome operator()(relay_eose& m) { return self.on_eose(relay, std::move(m)); }
    outcome operator()(relay_closed& m) { return self.on_closed(relay, std::move(m)); }
    outcome operator()(relay_ok& m) {
      // The OK of our AUTH (subscriptions_auth.cpp), else of publishes (subscriptions_publish.cpp).
      if (!self.auth_on_ok(relay, m)) self.pub_on_ok(relay, m);
      return std::move(m);
    }
    outcome operator()(relay_notice& m) { return std::move(m); }
    outcome operator()(relay_auth& m) {
      auto& c = self.conn(relay);
      c.challenge = m.challenge;
      // A new challenge asks again, even after an accepted AUTH on this connection.
      if (c.auth_state == relay_conn::auth::authenticated) c.auth_state = relay_conn::auth::none;
      self.auth_on_challenge(relay);
      return std::move(m);
    }
    outcome operator()(relay_count& m) {
      self.cnt_on_count(relay, m);  // the answer to our COUNT (subscriptions_count.cpp): a count_done action
      return std::move(m);
    }
  };
  return std::visit(visitor{*this, relay, verified}, msg);
}

outcome subscriptions::feed(std::string_view relay, std::string_view frame, std::int64_t now_ms) {
  now_ms_ = now_ms;
  relay_message msg;
  if (auto early = decode(relay, frame, msg)) return std::move(*early);
  return dispatch(relay, std::move(msg), nullptr);
}

std::vector<outcome> subscriptions::feed_batch(std::string_view relay, const std::vector<std::string_view>& frames,
                                               const std::vector<std::uint8_t>& known_valid) {
  return feed_batch(relay, frames, 0, nullptr, known_valid);
}

std::vector<outcome> subscriptions::feed_batch(std::string_view relay, const std::vector<std::string_view>& frames,
                                               std::int64_t now_ms, std::vector<std::size_t>* marks,
                                               const std::vector<std::uint8_t>& known_valid) {
  static const result<void> valid;  // the result verify() gave elsewhere for known_valid frames
  constexpr std::size_t kKnown = SIZE_MAX - 1;
  now_ms_ = now_ms;
  const std::size_t n = frames.size();
  if (marks) marks->assign(n, 0);
  std::vector<relay_message> msgs(n);
  std::vector<std::optional<outcome>> early(n);
  // The events that would reach verification if fed now. Some may not when their turn comes (an
  // earlier frame of the batch delivers the same id, or closes the subscription): their result
  // then goes unused. verify() depends on the event alone, so a result computed early is the one
  // feed() would compute.
  std::vector<const event*> to_verify;
  std::vector<std::size_t> verify_at(n, SIZE_MAX);
  for (std::size_t i = 0; i < n; ++i) {
    early[i] = decode(relay, frames[i], msgs[i]);
    if (early[i]) continue;
    if (auto* ev = std::get_if<relay_event>(&msgs[i]); ev && wants_verify(relay, *ev)) {
      if (i < known_valid.size() && known_valid[i]) {
        verify_at[i] = kKnown;
        continue;
      }
      verify_at[i] = to_verify.size();
      to_verify.push_back(&ev->ev);
    }
  }
  std::vector<result<void>> verified = verify_batch(to_verify.data(), to_verify.size());
  std::vector<outcome> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (early[i]) out.push_back(std::move(*early[i]));
    else
      out.push_back(dispatch(relay, std::move(msgs[i]),
                             verify_at[i] == SIZE_MAX ? nullptr
                             : verify_at[i] == kKnown ? &valid
                                                      : &verified[verify_at[i]]));
    if (marks) (*marks)[i] = actions_.size();
  }
  return out;
}

std::vector<outcome> subscriptions::feed_batch(std::string_view relay, const std::vector<std::string>& frames) {
  return feed_batch(relay, std::vector<std::string_view>(frames.begin(), frames.end()), 0, nullptr);
}

bool subscriptions::wants_verify(std::string_view relay, const relay_event& m) const {
  const subscription* s = find(m.sub_id);
  const relay_entry* r = s ? s->find_relay(relay) : nullptr;
  if (!r || !is_open(r->state) || !hex::is_lower_hex(m.ev.id, 32)) return false;
  bytes32 id{};
  (void)hex::decode_to(m.ev.id, id.data(), 32);
  if (s->seen.find(id)) return false;
  return std::any_of(s->filters.begin(), s->filters.end(), [&](const filter& f) { return matches(f, m.ev); });
}

outcome subscriptions::on_event(std::string_view relay, relay_event&& m, const result<void>* verified) {
  subscription* s = find(m.sub_id);
  if (!s)
    return make_dropped(drop_reason::unknown_subscription, std::move(m.sub_id), relay, std::move(m.ev.id),
                        make_error(errc::relay_subscription_unknown, "no open subscription with this id"));
  relay_entry* r = s->find_relay(relay);
  if (!r || !is_open(r->state))
    return make_dropped(drop_reason::unknown_subscription, std::move(m.sub_id), relay, std::move(m.ev.id),
                        make_error(errc::relay_subscription_unknown, "subscription is not open on this relay"));
  bytes32 id{};
  if (!hex::is_lower_hex(m.ev.id, 32))
    return make_dropped(drop_reason::malformed, std::move(m.sub_id), relay, std::move(m.ev.id),
                        make_error(errc::invalid_event, "id must be 64 lowercase hex characters"));
  (void)hex::decode_to(m.ev.id, id.data(), 32);
  // Cheap checks before the signature: a duplicate needs no second verification (the copy kept
  // is the verified one), and a non-matching event is dropped whatever its signature.
  if (auto created_at = s->seen.find(id)) {
    // The remembered created_at, not the copy's: a forged copy must not move the resume point.
    if (!r->newest || *r->newest < *created_at) r->newest = *created_at;
    return make_dropped(drop_reason::duplicate, std::move(m.sub_id), relay, std::move(m.ev.id),
                        make_error(errc::relay_event_duplicate, "event already delivered on this subscription"));
  }
  const event& ev = m.ev;
  if (std::none_of(s->filters.begin(), s->filters.end(), [&](const filter& f) { return matches(f, ev); }))
    return make_dropped(drop_reason::not_matching, std::move(m.sub_id), relay, std::move(m.ev.id),
                        make_error(errc::relay_event_not_matching, "event matches none of the subscription's filters"));
  if (auto v = verified ? *verified : verify(ev); !v) {
    drop_reason why = v.code() == errc::invalid_event ? drop_reason::malformed : drop_reason::bad_signature;
    return make_dropped(why, std::move(m.sub_id), relay, std::move(m.ev.id), v.err());
  }
  // Only verified ids enter the window: a forged event must not shadow the real one.
  s->seen.insert(id, ev.created_at);
  if (!r->newest || *r->newest < ev.created_at) r->newest = ev.created_at;
  return deliver{std::move(m.sub_id), std::string(relay), std::move(m.ev)};
}

outcome subscriptions::on_eose(std::string_view relay, relay_eose&& m) {
  if (is_probe(m.sub_id)) {
    // The answer to a liveness probe: close it (the id was never a subscription of the pool).
    auto frame = encode_close(m.sub_id);
    if (frame) emit(action_type::send, std::string(relay), m.sub_id, std::move(*frame));
    return eose{std::move(m.sub_id), std::string(relay), true};
  }
  subscription* s = find(m.sub_id);
  relay_entry* r = s ? s->find_relay(relay) : nullptr;
  if (!r || !is_open(r->state))
    return make_dropped(drop_reason::unknown_subscription, std::move(m.sub_id), relay, {},
                        make_error(errc::relay_subscription_unknown, "EOSE for a subscription not open on this relay"));
  r->state = relay_sub_state::live;
  bool all = std::none_of(s->relays.begin(), s->relays.end(),
                          [](const relay_entry& e) { return e.state == relay_sub_state::pending; });
  if (s->managed) {
    r->done = true;
    check_eose(m.sub_id, *s);
  }
  return eose{std::move(m.sub_id), std::string(relay), all};
}

outcome subscriptions::on_closed(std::string_view relay, relay_closed&& m) {
  subscription* s = find(m.sub_id);
  relay_entry* r = s ? s->find_relay(relay) : nullptr;
  if (!r || !is_open(r->state)) {
    // A COUNT's CLOSED (subscriptions_count.cpp): the refusal is a count_done or AUTH action.
    if (cnt_on_closed(relay, m)) return closed{std::move(m.sub_id), std::string(relay), std::move(m.status), false};
    if (is_probe(m.sub_id)) return closed{std::move(m.sub_id), std::string(relay), std::move(m.status), true};
    return make_dropped(drop_reason::unknown_subscription, std::move(m.sub_id), relay, {},
                        make_error(errc::relay_subscription_unknown,
                                   "CLOSED for a subscription not open on this relay: " + m.status.message));
  }
  if (s->managed) {
    // The outcome reports the frame; what follows (AUTH, retry, closed here) comes as actions.
    closed out{m.sub_id, std::string(relay), m.status, false};
    managed_closed(m.sub_id, *s, *r, m.status);
    return out;
  }
  r->state = relay_sub_state::closed;
  bool all = std::all_of(s->relays.begin(), s->relays.end(),
                         [](const relay_entry& e) { return e.state == relay_sub_state::closed; });
  return closed{std::move(m.sub_id), std::string(relay), std::move(m.status), all};
}

bool subscriptions::contains(std::string_view sub_id) const { return find(sub_id) != nullptr; }

const std::vector<filter>* subscriptions::filters(std::string_view sub_id) const {
  const subscription* s = find(sub_id);
  return s ? &s->filters : nullptr;
}

std::optional<relay_sub_state> subscriptions::state(std::string_view sub_id, std::string_view relay) const {
  const subscription* s = find(sub_id);
  const relay_entry* r = s ? s->find_relay(relay) : nullptr;
  if (!r) return std::nullopt;
  return r->state;
}

std::vector<std::string> subscriptions::relays(std::string_view sub_id) const {
  std::vector<std::string> out;
  if (const subscription* s = find(sub_id))
    for (const auto& r : s->relays) out.push_back(r.url);
  return out;
}

std::optional<std::int64_t> subscriptions::resume_since(std::string_view sub_id, std::string_view relay,
                                                        std::int64_t now) const {
  const subscription* s = find(sub_id);
  const relay_entry* r = s ? s->find_relay(relay) : nullptr;
  if (!r) return std::nullopt;
  return since_for(*r, now);
}

std::size_t subscriptions::seen_count(std::string_view sub_id) const {
  const subscription* s = find(sub_id);
  return s ? s->seen.size() : 0;
}

}  // namespace nostr::relay
