// When the inbox is polled (SPEC.md "Cursor advance" says how a poll reads and moves the cursor,
// not when it runs). The live subscription brings most traffic and a catch-up poll every `idle`
// ms covers what it missed. Some relays never push live events: the reference's dev relay answers
// a REQ with its stored events and EOSE, nothing after. So while one of our requests waits for its
// answer, the inbox is polled after `pending` ms (the reference polls every 3 s), then at intervals
// growing by half each time up to kPendingPollCapMs: an answer arrives within seconds there too,
// and a long task costs a few polls a minute. A new request starts the short interval again.
// Sans-IO: the host passes its clock (ms) in and sets one timer for deadline().
#pragma once
#include <cstdint>

namespace nostr::agx {

constexpr std::int64_t kDefaultIdlePollMs = 60000;
constexpr std::int64_t kDefaultPendingPollMs = 3000;  // reference DEFAULT_POLL_INTERVAL_MS
constexpr std::int64_t kPendingPollCapMs = 30000;

class poll_schedule {
 public:
  // idle_ms: the catch-up interval (0: none); pending_ms: the first interval while a request
  // waits (0: none, the idle interval only). Negative values count as 0.
  explicit poll_schedule(std::int64_t idle_ms = kDefaultIdlePollMs, std::int64_t pending_ms = kDefaultPendingPollMs);

  // A request of ours was sent at now_ms: the next poll comes within the short interval.
  void request_opened(std::int64_t now_ms);
  // A poll began: no deadline until it ends (polls never overlap).
  void poll_started();
  // A poll ended at now_ms; pending_open: requests of ours still wait for their answers.
  void poll_finished(std::int64_t now_ms, bool pending_open);

  // When the next poll is due (ms, the host's clock), or -1 for none.
  std::int64_t deadline() const { return deadline_; }
  // The interval the next poll while requests wait will follow (for tests and diagnostics).
  std::int64_t pending_interval() const { return interval_; }

 private:
  std::int64_t idle_;
  std::int64_t pending_;
  std::int64_t interval_;  // the current short interval (grows while requests wait)
  std::int64_t deadline_ = -1;
  bool polling_ = false;
};

}  // namespace nostr::agx
