// The inbox cursor (SPEC.md "Cursor advance (normative)", "Transport envelope"): each poll reaches
// back the overlap plus the whole backdate window behind the cursor; the cursor advances only after
// a complete poll, and then to the poller's own clock read BEFORE the poll, never to an event's
// created_at (sender-declared and, on wraps, backdated).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "protocols/agx/constants.hpp"
#include "util/result.hpp"

namespace nostr::agx {

struct poll_window {
  std::int64_t since = 0;       // the relay filter's since
  std::int64_t started_at = 0;  // the clock read before the poll
};

class inbox_cursor {
 public:
  explicit inbox_cursor(std::int64_t start = 0, std::int64_t overlap = kDefaultPollOverlap)
      : cursor_(std::max<std::int64_t>(start, 0)), overlap_(std::max<std::int64_t>(overlap, 0)) {}

  // since = cursor - (overlap + kMaxWrapBackdate), not below 0.
  poll_window begin(std::int64_t now) const {
    std::int64_t back = overlap_ + kMaxWrapBackdate;
    return {cursor_ > back ? cursor_ - back : 0, now};
  }

  // complete: every source answered, nothing failed to dispatch, and the signer was never
  // unavailable (SPEC.md "Signing": such a poll MUST report itself incomplete).
  void finish(const poll_window& w, bool complete) {
    if (complete && w.started_at > cursor_) cursor_ = w.started_at;
  }

  std::int64_t position() const { return cursor_; }
  std::int64_t lookback() const { return overlap_ + kMaxWrapBackdate; }

 private:
  std::int64_t cursor_;
  std::int64_t overlap_;
};

// A poll overlap (seconds) is usable when the window it makes (overlap + kMaxWrapBackdate) stays
// inside the replay retention: an id is then always remembered for as long as a poll can fetch its
// wrap again. INVALID_ARGUMENT otherwise (negative, or above kMaxPollOverlap).
[[nodiscard]] inline result<void> check_poll_overlap(std::int64_t overlap) {
  if (overlap < 0 || overlap > kMaxPollOverlap)
    return make_error(errc::invalid_argument, "pollOverlap must be 0 to " + std::to_string(kMaxPollOverlap) +
                                                  " s: the poll window (overlap + 172800 s) must stay inside the 259200 s replay retention");
  return {};
}

// An event dated this far ahead is skipped without being marked seen; it is polled again once it
// is no longer ahead (SPEC.md "Cursor advance").
inline bool beyond_future_skew(std::int64_t created_at, std::int64_t now) { return created_at > now + kMaxFutureSkew; }

}  // namespace nostr::agx
