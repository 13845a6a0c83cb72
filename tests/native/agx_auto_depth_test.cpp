#include <gtest/gtest.h>

#include "protocols/agx/auto_depth.hpp"

using namespace nostr::agx;

namespace {
constexpr std::int64_t kNow = 1760000000;
const std::string kPeer(64, 'a');
const std::string kOther(64, 'b');
}  // namespace

TEST(agx_auto_depth_test, reply_depth_and_ceiling) {
  EXPECT_EQ(reply_depth(0), 1);
  EXPECT_EQ(reply_depth(7), 8);
  EXPECT_EQ(reply_depth(-3), 1);   // unusable counts as 0
  EXPECT_EQ(reply_depth(255), 255);  // clamped, never out of range
  EXPECT_TRUE(within_ceiling(7));    // 8 <= 8
  EXPECT_FALSE(within_ceiling(8));   // 9 > 8
  EXPECT_TRUE(within_ceiling(2, 3));
  EXPECT_FALSE(within_ceiling(3, 3));
}

TEST(agx_auto_depth_test, two_auto_replying_agents_stop_at_the_ceiling) {
  // Each agent answers every message it receives with depth + 1, until its limiter refuses.
  auto_reply_limits lim;
  lim.per_conversation = 100;
  lim.per_peer = 100;
  auto_reply_limiter a(lim), b(lim);
  int depth = 0;  // a human opened the conversation
  int replies = 0;
  auto_reply_verdict last = auto_reply_verdict::allowed;
  for (int turn = 0; turn < 50; ++turn) {
    auto_reply_limiter& who = turn % 2 ? a : b;
    last = who.try_reply(turn % 2 ? kOther : kPeer, "ctx", depth, kNow + turn);
    if (last != auto_reply_verdict::allowed) break;
    depth = reply_depth(depth);
    ++replies;
  }
  EXPECT_EQ(replies, kDefaultAutoDepthCeiling);
  EXPECT_EQ(last, auto_reply_verdict::depth_ceiling);
  EXPECT_STREQ(auto_reply_verdict_name(last), "depth-ceiling");
}

TEST(agx_auto_depth_test, local_bounds_per_conversation_and_per_peer) {
  auto_reply_limits lim;
  lim.per_conversation = 3;
  lim.per_peer = 5;
  lim.peer_window = 100;
  auto_reply_limiter l(lim);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(l.try_reply(kPeer, "c1", 0, kNow), auto_reply_verdict::allowed);
  // autoDepth says 0 every time (a peer may lie): the conversation bound still holds.
  EXPECT_EQ(l.try_reply(kPeer, "c1", 0, kNow), auto_reply_verdict::conversation_bound);
  // A fresh contextId per message sheds the conversation bound but not the per-peer one.
  EXPECT_EQ(l.try_reply(kPeer, "c2", 0, kNow), auto_reply_verdict::allowed);
  EXPECT_EQ(l.try_reply(kPeer, "c3", 0, kNow), auto_reply_verdict::allowed);
  EXPECT_EQ(l.try_reply(kPeer, "c4", 0, kNow), auto_reply_verdict::peer_bound);
  // Other peers are unaffected.
  EXPECT_EQ(l.try_reply(kOther, "c1", 0, kNow), auto_reply_verdict::allowed);
  // The peer window rolls over.
  EXPECT_EQ(l.try_reply(kPeer, "c5", 0, kNow + 100), auto_reply_verdict::allowed);
  // c1 is still at its bound until a human resets it.
  EXPECT_EQ(l.try_reply(kPeer, "c1", 0, kNow + 100), auto_reply_verdict::conversation_bound);
  l.human_reset(kPeer, "c1");
  EXPECT_EQ(l.try_reply(kPeer, "c1", 0, kNow + 100), auto_reply_verdict::allowed);
  // reset_peer clears the peer and all its conversations.
  for (int i = 0; i < 10; ++i) (void)l.try_reply(kPeer, "c9", 0, kNow + 100);
  EXPECT_NE(l.try_reply(kPeer, "c9", 0, kNow + 100), auto_reply_verdict::allowed);
  l.reset_peer(kPeer);
  EXPECT_EQ(l.try_reply(kPeer, "c9", 0, kNow + 100), auto_reply_verdict::allowed);
  // The depth ceiling comes first, whatever the counters say.
  EXPECT_EQ(l.try_reply(kOther, "fresh", 8, kNow), auto_reply_verdict::depth_ceiling);
}

TEST(agx_auto_depth_test, memory_is_bounded) {
  auto_reply_limits lim;
  lim.max_tracked = 10;
  auto_reply_limiter l(lim);
  for (int i = 0; i < 1000; ++i) {
    std::string peer(64, static_cast<char>('a' + i % 6));
    (void)l.try_reply(peer, "ctx" + std::to_string(i), 0, kNow + i);
    EXPECT_LE(l.tracked(), 10u);
  }
}
