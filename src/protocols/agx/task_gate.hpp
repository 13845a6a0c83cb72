// Flood limits for the tasks an agent serves (issue 8: "a peer flooding tasks"). SPEC.md bounds
// automated replies per peer ("Automated-reply depth") but says nothing of inbound task floods, so
// these are local policy: how many handlers run at once (in all and per peer), how many accepted
// tasks may wait for a slot (in all and per peer), and a per-peer rate, a token bucket of `count`
// refilled evenly over `window` seconds (as NIP-XX's prompt limit, nip_xx/agent_admission).
// Sans-IO: `now` is a parameter; the tasks are tickets the host maps to its jobs. Memory is
// bounded: the queue by max_queued, the per-peer state by max_tracked_peers (an idle peer, the
// longest untouched, is forgotten first; a busy one holds a slot or a queue place, so busy peers
// are bounded by max_concurrent + max_queued).
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace nostr::agx {

struct task_limits {
  std::uint32_t max_concurrent = 16;
  std::uint32_t per_peer_concurrent = 4;
  std::uint32_t max_queued = 256;
  std::uint32_t per_peer_queued = 32;
  std::uint32_t rate_count = 300;  // tasks per rate_window per peer; 0 = no rate
  std::int64_t rate_window = 60;   // seconds
  std::size_t max_tracked_peers = 10000;
};

enum class task_verdict {
  run,           // it holds a slot now: start it, then release(peer)
  queued,        // it waits; release() hands its ticket out later
  rate_limited,  // the peer's bucket is empty: retry_after seconds until the next token
  overloaded,    // no slot and no queue place (in all or for this peer)
};

const char* task_verdict_name(task_verdict v);

struct task_admission {
  task_verdict verdict = task_verdict::overloaded;
  std::uint32_t ticket = 0;        // run / queued: never 0
  std::int64_t retry_after = 0;    // rate_limited: >= 1
};

struct task_ticket {
  std::uint32_t ticket = 0;
  std::string peer;
};

class task_gate {
 public:
  explicit task_gate(task_limits limits = {});

  // One task from `peer`. admitted: a task accepted before (run again after a restart): neither
  // counted against the rate nor refused for a full queue.
  task_admission offer(std::string_view peer, std::int64_t now, bool admitted = false);
  // A task of `peer` ended: its slot is freed. Returns the next queued ticket to start (it now holds
  // the slot; fair: the first one whose peer is under per_peer_concurrent), or ticket 0.
  task_ticket release(std::string_view peer);
  // Drops every queued ticket and returns them (the host stopped).
  std::vector<task_ticket> clear();

  std::size_t running() const { return running_; }
  std::size_t queued() const { return queue_.size(); }
  std::size_t tracked_peers() const { return peers_.size(); }
  std::uint32_t running_for(std::string_view peer) const;
  const task_limits& limits() const { return limits_; }

 private:
  struct peer_state {
    double tokens = 0;
    std::int64_t updated = 0;
    std::uint32_t running = 0;
    std::uint32_t queued = 0;
  };
  peer_state& state(std::string_view peer, std::int64_t now);
  std::uint32_t next_ticket();

  task_limits limits_;
  std::map<std::string, peer_state, std::less<>> peers_;
  std::deque<task_ticket> queue_;
  std::size_t running_ = 0;
  std::uint32_t last_ticket_ = 0;
};

}  // namespace nostr::agx
