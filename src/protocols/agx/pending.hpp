// The initiator's open requests (SPEC.md "Correlation & replay", "Result sender binding"): each
// request is bound to the peer it was sent to; a result settles it only when its sender is that
// peer, and a forged one leaves it open for the genuine result or the timeout. Sans-IO: deadlines
// are absolute times the caller compares against its `now`; memory is bounded by a cap.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace nostr::agx {

enum class settle_outcome {
  settled,       // the request's peer answered: the request is closed
  wrong_sender,  // someone else answered: dropped, the request stays open
  unknown,       // no open request has this task id (late, unmatched or never ours)
};

class pending_requests {
 public:
  explicit pending_requests(std::size_t cap = 10000) : cap_(cap == 0 ? 1 : cap) {}

  // Opens a request. peer: 64 hex (either case, stored lowercase). deadline: absolute time, or
  // nullopt for none. AGX_PENDING_EXISTS for a task id already open, AGX_PENDING_FULL at the cap,
  // INVALID_PUBLIC_KEY, INVALID_ARGUMENT (empty task id).
  result<void> add(std::string_view task_id, std::string_view peer_hex, std::optional<std::int64_t> deadline);

  bool contains(std::string_view task_id) const { return open_.count(std::string(task_id)) != 0; }
  // The peer a task id was sent to.
  std::optional<std::string> peer_of(std::string_view task_id) const;

  // A result for task_id arrived from `from` (the seal signer, lowercase hex).
  settle_outcome settle(std::string_view task_id, std::string_view from);

  // Closes a request locally (publish failure, caller abort); true when it was open.
  bool cancel(std::string_view task_id);

  // Closes and returns every request whose deadline is at or before `now` (timed out).
  std::vector<std::string> expire(std::int64_t now);
  // The earliest deadline, for the host's next wake-up.
  std::optional<std::int64_t> next_deadline() const;

  std::size_t size() const { return open_.size(); }

 private:
  struct entry {
    std::string peer;
    std::optional<std::int64_t> deadline;
  };
  void erase(std::map<std::string, entry>::iterator it);

  std::size_t cap_;
  std::map<std::string, entry> open_;
  std::multimap<std::int64_t, std::string> deadlines_;
};

}  // namespace nostr::agx
