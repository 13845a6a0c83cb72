#include "protocols/agx/pending.hpp"

#include "util/hex.hpp"

namespace nostr::agx {

result<void> pending_requests::add(std::string_view task_id, std::string_view peer_hex,
                                   std::optional<std::int64_t> deadline) {
  if (task_id.empty()) return make_error(errc::invalid_argument, "task id must not be empty");
  bytes32 peer{};
  if (!hex::decode_to(peer_hex, peer.data(), 32)) return make_error(errc::invalid_public_key, "peer must be 64 hex");
  std::string id(task_id);
  if (open_.count(id)) return make_error(errc::agx_pending_exists, "a request with this task id is open");
  if (open_.size() >= cap_) return make_error(errc::agx_pending_full, "too many open requests");
  open_.emplace(id, entry{hex::encode(peer), deadline});
  if (deadline) deadlines_.emplace(*deadline, id);
  return {};
}

std::optional<std::string> pending_requests::peer_of(std::string_view task_id) const {
  auto it = open_.find(std::string(task_id));
  if (it == open_.end()) return std::nullopt;
  return it->second.peer;
}

void pending_requests::erase(std::map<std::string, entry>::iterator it) {
  if (it->second.deadline) {
    auto range = deadlines_.equal_range(*it->second.deadline);
    for (auto d = range.first; d != range.second; ++d) {
      if (d->second == it->first) {
        deadlines_.erase(d);
        break;
      }
    }
  }
  open_.erase(it);
}

settle_outcome pending_requests::settle(std::string_view task_id, std::string_view from) {
  auto it = open_.find(std::string(task_id));
  if (it == open_.end()) return settle_outcome::unknown;
  // taskId alone is forgeable: the responder knows it and may hand it on (SPEC.md, normative).
  if (it->second.peer != from) return settle_outcome::wrong_sender;
  erase(it);
  return settle_outcome::settled;
}

bool pending_requests::cancel(std::string_view task_id) {
  auto it = open_.find(std::string(task_id));
  if (it == open_.end()) return false;
  erase(it);
  return true;
}

std::vector<std::string> pending_requests::expire(std::int64_t now) {
  std::vector<std::string> out;
  while (!deadlines_.empty() && deadlines_.begin()->first <= now) {
    std::string id = deadlines_.begin()->second;
    deadlines_.erase(deadlines_.begin());
    auto it = open_.find(id);
    if (it != open_.end()) {
      it->second.deadline.reset();  // its deadline entry is gone already
      open_.erase(it);
      out.push_back(std::move(id));
    }
  }
  return out;
}

std::optional<std::int64_t> pending_requests::next_deadline() const {
  if (deadlines_.empty()) return std::nullopt;
  return deadlines_.begin()->first;
}

}  // namespace nostr::agx
