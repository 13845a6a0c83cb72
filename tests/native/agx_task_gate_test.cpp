#include <gtest/gtest.h>

#include "protocols/agx/task_gate.hpp"

using namespace nostr::agx;

namespace {
constexpr std::int64_t kNow = 1760000000;
const std::string kA(64, 'a');
const std::string kB(64, 'b');
const std::string kC(64, 'c');

task_limits small() {
  task_limits l;
  l.max_concurrent = 2;
  l.per_peer_concurrent = 1;
  l.max_queued = 2;
  l.per_peer_queued = 1;
  l.rate_count = 3;
  l.rate_window = 30;
  l.max_tracked_peers = 2;
  return l;
}
}  // namespace

TEST(agx_task_gate_test, slots_queue_bounds_and_fair_hand_out) {
  task_gate g(small());
  auto a1 = g.offer(kA, kNow);
  EXPECT_EQ(a1.verdict, task_verdict::run);
  EXPECT_NE(a1.ticket, 0u);
  auto a2 = g.offer(kA, kNow);
  EXPECT_EQ(a2.verdict, task_verdict::queued);  // a is at its per-peer limit
  EXPECT_EQ(g.offer(kA, kNow).verdict, task_verdict::overloaded);  // and its queue place is taken
  EXPECT_EQ(g.offer(kB, kNow).verdict, task_verdict::run);  // another peer still gets a slot
  auto b2 = g.offer(kB, kNow);
  EXPECT_EQ(b2.verdict, task_verdict::queued);
  EXPECT_EQ(g.running(), 2u);
  EXPECT_EQ(g.queued(), 2u);
  // a's slot frees: a's queued task takes it (b's is blocked by b's per-peer limit, not first in line)
  auto next = g.release(kA);
  EXPECT_EQ(next.ticket, a2.ticket);
  EXPECT_EQ(next.peer, kA);
  EXPECT_EQ(g.release(kB).ticket, b2.ticket);
  EXPECT_EQ(g.release(kA).ticket, 0u);
  EXPECT_EQ(g.release(kB).ticket, 0u);
  EXPECT_EQ(g.running(), 0u);
  EXPECT_EQ(g.running_for(kA), 0u);
}

TEST(agx_task_gate_test, rate_is_a_token_bucket_with_retry_after) {
  task_gate g(small());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(g.offer(kA, kNow).verdict, i == 0 ? task_verdict::run : i == 1 ? task_verdict::queued : task_verdict::overloaded);
  }
  // the overloaded one cost no token: one left
  g.release(kA);  // a2 runs
  g.release(kA);
  EXPECT_EQ(g.offer(kA, kNow).verdict, task_verdict::run);
  auto limited = g.offer(kA, kNow);
  EXPECT_EQ(limited.verdict, task_verdict::rate_limited);
  EXPECT_EQ(limited.retry_after, 10);  // 3 per 30 s: one every 10 s
  EXPECT_STREQ(task_verdict_name(limited.verdict), "rate-limited");
  g.release(kA);
  EXPECT_EQ(g.offer(kA, kNow + 5).verdict, task_verdict::rate_limited);
  EXPECT_EQ(g.offer(kA, kNow + 10).verdict, task_verdict::run);  // refilled
  g.release(kA);
  // a clock that goes back does not refill
  EXPECT_EQ(g.offer(kA, kNow).verdict, task_verdict::rate_limited);
}

TEST(agx_task_gate_test, admitted_tasks_skip_the_rate_and_the_queue_bound) {
  task_limits l = small();
  l.rate_count = 1;
  task_gate g(l);
  EXPECT_EQ(g.offer(kA, kNow).verdict, task_verdict::run);
  g.release(kA);
  EXPECT_EQ(g.offer(kA, kNow).verdict, task_verdict::rate_limited);
  EXPECT_EQ(g.offer(kA, kNow, true).verdict, task_verdict::run);
  EXPECT_EQ(g.offer(kA, kNow, true).verdict, task_verdict::queued);
  EXPECT_EQ(g.offer(kA, kNow, true).verdict, task_verdict::queued);  // past per_peer_queued: admitted before
  auto dropped = g.clear();
  EXPECT_EQ(dropped.size(), 2u);
  EXPECT_EQ(g.queued(), 0u);
}

TEST(agx_task_gate_test, tracked_peers_are_bounded_idle_ones_forgotten_first) {
  task_gate g(small());
  EXPECT_EQ(g.offer(kA, kNow).verdict, task_verdict::run);  // a busy
  EXPECT_EQ(g.offer(kB, kNow + 1).verdict, task_verdict::run);
  g.release(kB);  // b idle
  EXPECT_EQ(g.offer(kC, kNow + 2).verdict, task_verdict::run);  // b forgotten, not the busy a
  EXPECT_EQ(g.tracked_peers(), 2u);
  EXPECT_EQ(g.running_for(kA), 1u);
  // a flood of new peers: the map never grows past the bound plus the busy ones
  for (int i = 0; i < 1000; ++i) {
    std::string p(64, '0');
    p.replace(0, std::to_string(i).size(), std::to_string(i));
    auto v = g.offer(p, kNow + 3 + i);
    if (v.verdict == task_verdict::run) g.release(p);
  }
  EXPECT_LE(g.tracked_peers(), 2u + g.running() + g.queued());
}

TEST(agx_task_gate_test, misuse_is_clamped_not_a_crash) {
  task_limits l;
  l.max_concurrent = 0;
  l.per_peer_concurrent = 0;
  l.rate_window = 0;
  l.max_tracked_peers = 0;
  task_gate g(l);
  EXPECT_EQ(g.offer(kA, kNow).verdict, task_verdict::run);  // at least one slot
  EXPECT_EQ(g.release(kB).ticket, 0u);  // an unknown peer's release
  EXPECT_EQ(g.release(kA).ticket, 0u);
  EXPECT_EQ(g.release(kA).ticket, 0u);  // one too many: counts stay at 0
  EXPECT_EQ(g.running(), 0u);
}
