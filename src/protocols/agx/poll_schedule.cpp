#include "protocols/agx/poll_schedule.hpp"

#include <algorithm>

namespace nostr::agx {
namespace {

std::int64_t grown(std::int64_t interval, std::int64_t pending) {
  return std::min(std::max(pending, kPendingPollCapMs), interval + interval / 2);
}

}  // namespace

poll_schedule::poll_schedule(std::int64_t idle_ms, std::int64_t pending_ms)
    : idle_(std::max<std::int64_t>(idle_ms, 0)), pending_(std::max<std::int64_t>(pending_ms, 0)), interval_(pending_) {}

void poll_schedule::request_opened(std::int64_t now_ms) {
  interval_ = pending_;
  if (pending_ == 0 || polling_) return;  // a running poll sets the deadline when it ends
  const std::int64_t due = now_ms + pending_;
  // Never later than the deadline already set: a stream of requests cannot starve the poll.
  if (deadline_ >= 0 && deadline_ <= due) return;
  deadline_ = due;
  interval_ = grown(interval_, pending_);
}

void poll_schedule::poll_started() {
  polling_ = true;
  deadline_ = -1;
}

void poll_schedule::poll_finished(std::int64_t now_ms, bool pending_open) {
  polling_ = false;
  if (!pending_open || pending_ == 0) {
    interval_ = pending_;
    deadline_ = idle_ > 0 ? now_ms + idle_ : -1;
    return;
  }
  // A shorter catch-up interval still applies.
  deadline_ = now_ms + (idle_ > 0 ? std::min(interval_, idle_) : interval_);
  interval_ = grown(interval_, pending_);
}

}  // namespace nostr::agx
