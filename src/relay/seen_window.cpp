#include "relay/seen_window.hpp"

namespace nostr::relay {

std::optional<std::int64_t> seen_window::find(const bytes32& id) const {
  auto it = index_.find(id);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

void seen_window::insert(const bytes32& id, std::int64_t created_at) {
  if (!index_.emplace(id, created_at).second) return;
  if (ring_.size() < cap_) {
    ring_.push_back(id);
    return;
  }
  index_.erase(ring_[next_]);
  ring_[next_] = id;
  next_ = (next_ + 1) % cap_;
}

}  // namespace nostr::relay
