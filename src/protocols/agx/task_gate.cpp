#include "protocols/agx/task_gate.hpp"

#include <algorithm>
#include <cmath>

namespace nostr::agx {

const char* task_verdict_name(task_verdict v) {
  switch (v) {
    case task_verdict::run: return "run";
    case task_verdict::queued: return "queued";
    case task_verdict::rate_limited: return "rate-limited";
    case task_verdict::overloaded: return "overloaded";
  }
  return "overloaded";
}

task_gate::task_gate(task_limits limits) : limits_(limits) {
  limits_.max_concurrent = std::max<std::uint32_t>(1, limits_.max_concurrent);
  limits_.per_peer_concurrent = std::max<std::uint32_t>(1, limits_.per_peer_concurrent);
  limits_.max_tracked_peers = std::max<std::size_t>(1, limits_.max_tracked_peers);
  if (limits_.rate_window < 1) limits_.rate_window = 1;
}

std::uint32_t task_gate::next_ticket() {
  if (++last_ticket_ == 0) ++last_ticket_;  // 0 means "none"
  return last_ticket_;
}

task_gate::peer_state& task_gate::state(std::string_view peer, std::int64_t now) {
  auto it = peers_.find(peer);
  if (it != peers_.end()) return it->second;
  if (peers_.size() >= limits_.max_tracked_peers) {
    // Forget the idle peer untouched the longest: its bucket has refilled the most.
    auto oldest = peers_.end();
    for (auto p = peers_.begin(); p != peers_.end(); ++p)
      if (p->second.running == 0 && p->second.queued == 0 &&
          (oldest == peers_.end() || p->second.updated < oldest->second.updated))
        oldest = p;
    if (oldest != peers_.end()) peers_.erase(oldest);
  }
  peer_state st;
  st.tokens = static_cast<double>(limits_.rate_count);
  st.updated = now;
  return peers_.emplace(std::string(peer), st).first->second;
}

task_admission task_gate::offer(std::string_view peer, std::int64_t now, bool admitted) {
  peer_state& st = state(peer, now);
  task_admission out;
  const bool rated = limits_.rate_count > 0 && !admitted;
  if (rated) {
    const double per_second = static_cast<double>(limits_.rate_count) / static_cast<double>(limits_.rate_window);
    if (now > st.updated)
      st.tokens = std::min(static_cast<double>(limits_.rate_count), st.tokens + static_cast<double>(now - st.updated) * per_second);
    st.updated = std::max(st.updated, now);
    if (st.tokens < 1.0) {
      out.verdict = task_verdict::rate_limited;
      out.retry_after = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil((1.0 - st.tokens) / per_second)));
      return out;
    }
  } else {
    st.updated = std::max(st.updated, now);
  }
  const bool slot = running_ < limits_.max_concurrent && st.running < limits_.per_peer_concurrent;
  if (!slot && !admitted && (queue_.size() >= limits_.max_queued || st.queued >= limits_.per_peer_queued)) {
    out.verdict = task_verdict::overloaded;  // costs no token: the peer may retry when a slot frees
    return out;
  }
  if (rated) st.tokens -= 1.0;
  out.ticket = next_ticket();
  if (slot) {
    ++running_;
    ++st.running;
    out.verdict = task_verdict::run;
    return out;
  }
  queue_.push_back(task_ticket{out.ticket, std::string(peer)});
  ++st.queued;
  out.verdict = task_verdict::queued;
  return out;
}

task_ticket task_gate::release(std::string_view peer) {
  auto it = peers_.find(peer);
  if (it != peers_.end() && it->second.running > 0) --it->second.running;
  if (running_ > 0) --running_;
  if (running_ >= limits_.max_concurrent) return {};
  for (auto q = queue_.begin(); q != queue_.end(); ++q) {
    auto p = peers_.find(q->peer);
    if (p == peers_.end() || p->second.running >= limits_.per_peer_concurrent) continue;
    task_ticket next = std::move(*q);
    queue_.erase(q);
    --p->second.queued;
    ++p->second.running;
    ++running_;
    return next;
  }
  return {};
}

std::vector<task_ticket> task_gate::clear() {
  std::vector<task_ticket> out(queue_.begin(), queue_.end());
  for (const auto& t : out) {
    auto p = peers_.find(t.peer);
    if (p != peers_.end() && p->second.queued > 0) --p->second.queued;
  }
  queue_.clear();
  return out;
}

std::uint32_t task_gate::running_for(std::string_view peer) const {
  auto it = peers_.find(peer);
  return it == peers_.end() ? 0 : it->second.running;
}

}  // namespace nostr::agx
