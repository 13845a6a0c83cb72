#include "protocols/agx/endpoint.hpp"

#include <algorithm>
#include <utility>

namespace nostr::agx {

const char* inbound_verdict_name(inbound_verdict v) {
  switch (v) {
    case inbound_verdict::processed: return "processed";
    case inbound_verdict::pending: return "pending";
    case inbound_verdict::replay: return "replay";
    case inbound_verdict::invalid: return "invalid";
    case inbound_verdict::discarded: return "discarded";
    case inbound_verdict::future: return "future";
    case inbound_verdict::retry: return "retry";
    case inbound_verdict::overloaded: return "overloaded";
    case inbound_verdict::ignored: return "ignored";
  }
  return "ignored";
}

const char* action_kind_name(action_kind k) {
  switch (k) {
    case action_kind::persist: return "persist";
    case action_kind::ask_host: return "ask-host";
    case action_kind::record_task: return "record-task";
    case action_kind::run_handler: return "run-handler";
    case action_kind::deliver: return "deliver";
    case action_kind::receipt: return "receipt";
    case action_kind::settle: return "settle";
    case action_kind::update: return "update";
    case action_kind::input: return "input";
    case action_kind::drop: return "drop";
    case action_kind::duplicate_result: return "duplicate-result";
    case action_kind::expire_request: return "expire-request";
    case action_kind::expire_input: return "expire-input";
    case action_kind::poll: return "poll";
    case action_kind::warn_unconfigured: return "warn-unconfigured";
  }
  return "drop";
}

namespace {

authorization_policy policy_for(authorization_policy::mode m) {
  if (m == authorization_policy::mode::accept_all) return authorization_policy::accept_all();
  if (m == authorization_policy::mode::host) return authorization_policy::host_decides();
  return {};
}

std::int64_t seconds(std::int64_t now_ms) { return now_ms >= 0 ? now_ms / 1000 : -((-now_ms + 999) / 1000); }

inbound_result failure(inbound_verdict v, error e) {
  inbound_result r;
  r.verdict = v;
  r.err = std::move(e);
  return r;
}

inbound_verdict verdict_of(disposition d) {
  switch (d) {
    case disposition::ignore: return inbound_verdict::invalid;
    case disposition::discard: return inbound_verdict::discarded;
    case disposition::retry_later: return inbound_verdict::retry;
  }
  return inbound_verdict::invalid;
}

}  // namespace

endpoint::endpoint(const endpoint_options& o)
    : options_(o),
      policy_(policy_for(o.mode)),
      processed_(o.seen_cap ? o.seen_cap : kSeenCap),
      cache_(o.cache_cap ? o.cache_cap : kDiscardedCap, when_full::evict),
      guard_(processed_, cache_),
      overlap_(std::clamp<std::int64_t>(o.poll_overlap, 0, kMaxPollOverlap)),
      cursor_(0, overlap_),
      polls_(o.idle_poll_ms, o.pending_poll_ms) {}

result<void> endpoint::allow(std::string_view pubkey_hex, std::string_view pattern) {
  return policy_.allow(pubkey_hex, pattern);
}

// --- inbound

inbound_result endpoint::before_open(const event& wrap, std::string_view me_hex, std::int64_t now_ms,
                                     bool signature_verified) {
  inbound_result r;
  if (closed_) return r;
  const std::int64_t now = seconds(now_ms);
  if (guard_.known_wrap(wrap.id, now)) {
    r.verdict = inbound_verdict::replay;
    return r;
  }
  // Before paying for a decryption: a full store turns the work away (polled again later).
  if (!guard_.has_room(now))
    return failure(inbound_verdict::overloaded,
                   make_error(errc::agx_overloaded, "the replay store is full: new work is refused until processed ids expire"));
  auto ok = check_wrap(wrap, me_hex, now, !signature_verified);
  if (!ok) {
    const auto d = disposition_of(ok.err().code, unwrap_stage::public_checks);
    if (ok.err().code == errc::agx_wrap_future) return failure(inbound_verdict::future, ok.err());
    if (d == disposition::discard) guard_.discarded(wrap.id, now);
    return failure(verdict_of(d), ok.err());
  }
  r.verdict = inbound_verdict::processed;  // go on: open it
  return r;
}

void endpoint::open_failed(std::string_view wrap_id, disposition d, std::int64_t now_ms) {
  if (closed_ || d != disposition::discard) return;
  guard_.discarded(wrap_id, seconds(now_ms));
}

inbound_result endpoint::receive(const event& wrap, const nip59::conversation_key_fn& ck, std::string_view me_hex,
                                 std::int64_t now_ms, bool signature_verified) {
  auto pre = before_open(wrap, me_hex, now_ms, signature_verified);
  if (pre.verdict != inbound_verdict::processed) return pre;
  auto w = unwrap_checked(wrap, ck, me_hex);
  if (!w) {
    const auto d = disposition_of(w.err().code, unwrap_stage::opening);
    open_failed(wrap.id, d, now_ms);
    return failure(verdict_of(d), w.err());
  }
  return opened(std::move(*w), now_ms);
}

inbound_result endpoint::opened(opened_wrap w, std::int64_t now_ms) {
  if (closed_) return {};
  const std::int64_t now = seconds(now_ms);
  const std::string& rumor_id = w.rumor.id;
  // Another wrap of a task request being decided right now, or of a rumor processed already (the
  // rumor id decides): a replay, its wrap cached.
  if (claimed_.count(rumor_id) || guard_.known_rumor(rumor_id, now)) {
    guard_.discarded(w.wrap_id, now);
    inbound_result r;
    r.verdict = inbound_verdict::replay;
    return r;
  }
  return decide(std::move(w), now_ms);
}

bool endpoint::commit(const opened_wrap& w, std::int64_t until, std::int64_t now_ms, std::vector<action>& out) {
  if (!guard_.processed(w.rumor.id, w.wrap_id, seconds(now_ms), until)) return false;
  action a;
  a.kind = action_kind::persist;
  a.marks = processed_.take_journal();
  out.push_back(std::move(a));
  return true;
}

inbound_result endpoint::decide(opened_wrap w, std::int64_t now_ms) {
  inbound_result r;
  r.verdict = inbound_verdict::processed;
  auto overloaded = [&r]() {
    r.verdict = inbound_verdict::overloaded;
    r.err = make_error(errc::agx_overloaded, "the replay store is full: new work is refused until processed ids expire");
    r.actions.clear();
  };
  if (w.rumor.kind == kReceiptKind) {
    auto rc = read_receipt(w);
    if (!rc) {
      guard_.discarded(w.wrap_id, seconds(now_ms));
      r.verdict = inbound_verdict::discarded;
      r.err = rc.err();
      return r;
    }
    if (!commit(w, 0, now_ms, r.actions)) {
      overloaded();
      return r;
    }
    action a;
    a.kind = action_kind::receipt;
    a.rumor_id = rc->receipt.ref_event_id;
    r.actions.push_back(std::move(a));
    r.receipt = std::move(*rc);
    r.opened = std::move(w);
    return r;
  }
  auto m = read_message(w);
  if (!m) {
    guard_.discarded(w.wrap_id, seconds(now_ms));
    r.verdict = inbound_verdict::discarded;
    r.err = m.err();
    return r;
  }
  // A second result (or update) for one of our requests that settled already: dropped.
  if (m->task && (m->task->t == task_envelope::type::result || m->task->t == task_envelope::type::status)) {
    auto s = settled_.find(m->task->task_id);
    if (s != settled_.end() && s->second.first == m->from && s->second.second > seconds(now_ms)) {
      if (!commit(w, 0, now_ms, r.actions)) {
        overloaded();
        return r;
      }
      action a;
      a.kind = m->task->t == task_envelope::type::result ? action_kind::duplicate_result : action_kind::drop;
      a.task_id = m->task->task_id;
      a.reason = route_reason::matched_result;
      if (a.kind == action_kind::duplicate_result) ++duplicate_results_;
      r.actions.push_back(std::move(a));
      r.message = std::move(*m);
      r.opened = std::move(w);
      return r;
    }
  }
  auto d = route(*m, handlers_, requests_, policy_, &awaiting_, options_.route);
  if (d.reason == route_reason::denied_unconfigured && policy_.take_unconfigured_warning()) {
    action a;
    a.kind = action_kind::warn_unconfigured;
    r.actions.push_back(std::move(a));
  }
  if (d.action == route_action::ask_host) {
    // Claimed: no other wrap of it is acted on until the host answers; nothing recorded yet.
    action a;
    a.kind = action_kind::ask_host;
    a.rumor_id = w.rumor.id;
    a.capability = d.capability;
    a.task_id = d.task_id;
    a.handler_key = d.handler_key;
    r.actions.push_back(std::move(a));
    r.verdict = inbound_verdict::pending;
    claimed_.emplace(w.rumor.id, claim{w, *m, d});
    r.message = std::move(*m);
    r.opened = std::move(w);
    return r;
  }
  final_route(w, *m, d, now_ms, r.actions, r.verdict);
  if (r.verdict == inbound_verdict::overloaded) {
    overloaded();
    return r;
  }
  r.message = std::move(*m);
  r.opened = std::move(w);
  return r;
}

void endpoint::final_route(const opened_wrap& w, const inbound_message& m, const route_decision& d, std::int64_t now_ms,
                           std::vector<action>& out, inbound_verdict& verdict) {
  const std::int64_t now = seconds(now_ms);
  // A task that will run keeps its ids until its request wrap expires (no poll can fetch it after).
  const std::int64_t until = d.action == route_action::run_handler ? std::max(now + kSeenRetention, w.wrap_expires_at) : 0;
  const std::size_t persist_at = out.size();
  if (!commit(w, until, now_ms, out)) {
    verdict = inbound_verdict::overloaded;
    return;
  }
  action a;
  a.rumor_id = w.rumor.id;
  a.task_id = d.task_id;
  a.reason = d.reason;
  a.capability = d.capability;
  a.handler_key = d.handler_key;
  switch (d.action) {
    case route_action::run_handler:
      a.kind = action_kind::run_handler;
      a.until = until;
      a.peer = m.from;
      a.gate = gate_.offer(m.from, now);
      if (a.gate.verdict == task_verdict::run || a.gate.verdict == task_verdict::queued) {
        action rec;
        rec.kind = action_kind::record_task;
        rec.rumor_id = w.rumor.id;
        rec.task_id = d.task_id;
        rec.until = until;
        out.insert(out.begin() + static_cast<std::ptrdiff_t>(persist_at), std::move(rec));
      }
      break;
    case route_action::settle_pending:
      if (requests_.settle(d.task_id, m.from) != settle_outcome::settled) {
        a.kind = action_kind::drop;
        break;
      }
      request_timeouts_.erase(d.task_id);
      remember_settled(d.task_id, m.from, now);
      a.kind = action_kind::settle;
      break;
    case route_action::task_update: {
      a.kind = action_kind::update;
      // The peer is alive and on it: the request's timeout starts again.
      auto t = request_timeouts_.find(d.task_id);
      if (t != request_timeouts_.end() && t->second > 0) {
        auto peer = requests_.peer_of(d.task_id);
        requests_.cancel(d.task_id);
        if (peer) (void)requests_.add(d.task_id, *peer, now_ms + t->second);
      }
      break;
    }
    case route_action::task_input: a.kind = action_kind::input; break;
    case route_action::drop: a.kind = action_kind::drop; break;
    case route_action::deliver_plain:
    case route_action::ask_host:
      a.kind = action_kind::deliver;
      a.may_reply = d.may_reply;
      break;
  }
  out.push_back(std::move(a));
}

std::vector<action> endpoint::host_verdict(std::string_view rumor_id, bool allowed, std::int64_t now_ms) {
  std::vector<action> out;
  auto it = claimed_.find(std::string(rumor_id));
  if (it == claimed_.end()) return out;
  claim c = std::move(it->second);
  claimed_.erase(it);
  if (closed_) return out;  // not recorded: polled again at the next start
  auto d = after_host_verdict(c.decision, allowed);
  inbound_verdict v = inbound_verdict::processed;
  final_route(c.wrap, c.message, d, now_ms, out, v);
  if (v == inbound_verdict::overloaded) out.clear();
  return out;
}

void endpoint::remember_settled(const std::string& task_id, const std::string& peer, std::int64_t now_s) {
  for (auto it = settled_.begin(); it != settled_.end();) {
    if (it->second.second > now_s && settled_.size() < options_.settled_cap) {
      ++it;
      continue;
    }
    it = settled_.erase(it);
    if (settled_.size() < options_.settled_cap) break;
  }
  settled_[task_id] = {peer, now_s + kSeenRetention};
}

// --- outgoing requests

result<void> endpoint::open_request(std::string_view task_id, std::string_view peer_hex, std::string_view rumor_id,
                                    std::int64_t timeout_ms, std::int64_t now_ms) {
  (void)rumor_id;
  if (closed_) return make_error(errc::invalid_argument, "the endpoint was closed");
  auto r = requests_.add(task_id, peer_hex,
                         timeout_ms > 0 ? std::optional<std::int64_t>(now_ms + timeout_ms) : std::nullopt);
  if (!r) return r;
  request_timeouts_[std::string(task_id)] = timeout_ms;
  polls_.request_opened(now_ms);
  return {};
}

settle_outcome endpoint::settle(std::string_view task_id, std::string_view from) {
  auto out = requests_.settle(task_id, from);
  if (out == settle_outcome::settled) request_timeouts_.erase(std::string(task_id));
  return out;
}

bool endpoint::cancel_request(std::string_view task_id) {
  request_timeouts_.erase(std::string(task_id));
  return requests_.cancel(task_id);
}

void endpoint::input_sent(std::string_view task_id, std::int64_t now_ms) {
  if (closed_ || !requests_.contains(task_id)) return;
  polls_.request_opened(now_ms);
}

result<void> endpoint::await_input(std::string_view task_id, std::string_view peer_hex, std::int64_t timeout_ms,
                                   std::int64_t now_ms) {
  if (closed_) return make_error(errc::invalid_argument, "the endpoint was closed");
  return awaiting_.add(task_id, peer_hex,
                       timeout_ms > 0 ? std::optional<std::int64_t>(now_ms + timeout_ms) : std::nullopt);
}

bool endpoint::end_await(std::string_view task_id) { return awaiting_.cancel(task_id); }

// --- polls

poll_window endpoint::poll_begin(std::int64_t now_ms) {
  polling_ = true;
  polls_.poll_started();
  return cursor_.begin(seconds(now_ms));
}

void endpoint::poll_end(const poll_window& w, bool complete, std::int64_t now_ms) {
  polling_ = false;
  if (closed_) return;
  cursor_.finish(w, complete);
  polls_.poll_finished(now_ms, requests_.size() > 0);
}

// --- deadlines

std::int64_t endpoint::next_deadline() const {
  if (closed_) return -1;
  std::int64_t at = -1;
  auto consider = [&at](std::int64_t t) {
    if (t >= 0 && (at < 0 || t < at)) at = t;
  };
  if (auto r = requests_.next_deadline()) consider(*r);
  if (auto a = awaiting_.next_deadline()) consider(*a);
  if (polling_on_ && !polling_) consider(polls_.deadline());
  return at;
}

std::vector<action> endpoint::handle_timeout(std::int64_t now_ms) {
  std::vector<action> out;
  if (closed_) return out;
  for (auto& id : requests_.expire(now_ms)) {
    request_timeouts_.erase(id);
    action a;
    a.kind = action_kind::expire_request;
    a.task_id = std::move(id);
    out.push_back(std::move(a));
  }
  for (auto& id : awaiting_.expire(now_ms)) {
    action a;
    a.kind = action_kind::expire_input;
    a.task_id = std::move(id);
    out.push_back(std::move(a));
  }
  if (polling_on_ && !polling_ && polls_.deadline() >= 0 && polls_.deadline() <= now_ms) {
    action a;
    a.kind = action_kind::poll;
    out.push_back(std::move(a));
  }
  return out;
}

// --- the replay memory

result<std::size_t> endpoint::load(std::string_view snapshot_json, std::int64_t now_ms) {
  auto n = processed_.load_snapshot(snapshot_json, seconds(now_ms));
  (void)processed_.take_journal();  // what was loaded is durable already
  return n;
}

void endpoint::close() {
  closed_ = true;
  claimed_.clear();
}

}  // namespace nostr::agx
