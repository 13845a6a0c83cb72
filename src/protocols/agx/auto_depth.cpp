#include "protocols/agx/auto_depth.hpp"

#include <algorithm>

namespace nostr::agx {

int reply_depth(int inbound_depth) { return std::clamp(inbound_depth, 0, kMaxAutoDepth - 1) + 1; }

bool within_ceiling(int inbound_depth, int ceiling) { return reply_depth(inbound_depth) <= ceiling; }

const char* auto_reply_verdict_name(auto_reply_verdict v) {
  switch (v) {
    case auto_reply_verdict::allowed: return "allowed";
    case auto_reply_verdict::depth_ceiling: return "depth-ceiling";
    case auto_reply_verdict::conversation_bound: return "conversation-bound";
    case auto_reply_verdict::peer_bound: return "peer-bound";
  }
  return "allowed";
}

void auto_reply_limiter::make_room(std::int64_t now, std::size_t needed) {
  auto full = [&] { return tracked() + needed > limits_.max_tracked; };
  if (!full()) return;
  for (auto it = conversations_.begin(); it != conversations_.end();)
    it = now - it->second.since >= limits_.idle_forget ? conversations_.erase(it) : std::next(it);
  for (auto it = peers_.begin(); it != peers_.end();)
    it = now - it->second.since >= limits_.peer_window ? peers_.erase(it) : std::next(it);
  // Still full: forget the quietest conversation. Forgetting errs towards allowing a reply, but the
  // per-peer counters (kept while their window runs) still bound what a peer can draw out.
  while (full() && !conversations_.empty()) {
    auto oldest = std::min_element(conversations_.begin(), conversations_.end(),
                                   [](const auto& a, const auto& b) { return a.second.since < b.second.since; });
    conversations_.erase(oldest);
  }
  while (full() && !peers_.empty()) {
    auto oldest = std::min_element(peers_.begin(), peers_.end(),
                                   [](const auto& a, const auto& b) { return a.second.since < b.second.since; });
    peers_.erase(oldest);
  }
}

auto_reply_verdict auto_reply_limiter::try_reply(std::string_view peer, std::string_view conversation,
                                                 int inbound_depth, std::int64_t now) {
  if (!within_ceiling(inbound_depth, limits_.ceiling)) return auto_reply_verdict::depth_ceiling;

  conv_key ck{std::string(peer), std::string(conversation)};
  auto conv = conversations_.find(ck);
  if (conv != conversations_.end() && now - conv->second.since >= limits_.idle_forget) {
    conversations_.erase(conv);
    conv = conversations_.end();
  }
  if (conv != conversations_.end() && conv->second.count >= limits_.per_conversation)
    return auto_reply_verdict::conversation_bound;

  // The per-peer bound is what a fresh contextId on every message cannot reset (SPEC.md).
  auto pr = peers_.find(ck.first);
  if (pr != peers_.end() && now - pr->second.since >= limits_.peer_window) {
    peers_.erase(pr);
    pr = peers_.end();
  }
  if (pr != peers_.end() && pr->second.count >= limits_.per_peer) return auto_reply_verdict::peer_bound;

  std::size_t needed = (conv == conversations_.end() ? 1 : 0) + (pr == peers_.end() ? 1 : 0);
  if (needed) {
    make_room(now, needed);
    conv = conversations_.find(ck);
    pr = peers_.find(ck.first);
  }
  if (conv == conversations_.end()) conv = conversations_.emplace(ck, counter{0, now}).first;
  if (pr == peers_.end()) pr = peers_.emplace(ck.first, counter{0, now}).first;
  ++conv->second.count;
  conv->second.since = now;
  ++pr->second.count;
  return auto_reply_verdict::allowed;
}

void auto_reply_limiter::human_reset(std::string_view peer, std::string_view conversation) {
  conversations_.erase(conv_key{std::string(peer), std::string(conversation)});
}

void auto_reply_limiter::reset_peer(std::string_view peer) {
  std::string p(peer);
  peers_.erase(p);
  for (auto it = conversations_.begin(); it != conversations_.end();)
    it = it->first.first == p ? conversations_.erase(it) : std::next(it);
}

}  // namespace nostr::agx
