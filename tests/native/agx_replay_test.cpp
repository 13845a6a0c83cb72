#include <gtest/gtest.h>

#include "agx_test_support.hpp"
#include "protocols/agx/cursor.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/seen_store.hpp"
#include "protocols/agx/unwrap.hpp"
#include "protocols/agx/wrap.hpp"

using namespace nostr;
using namespace nostr::agx;
using namespace nostr::agx_test;

namespace {

bytes32 id_n(std::uint8_t n) {
  bytes32 b{};
  b[0] = n;
  b[31] = static_cast<std::uint8_t>(n * 7);
  return b;
}

}  // namespace

TEST(agx_seen_store_test, marks_expire_by_now) {
  memory_seen_store s;
  EXPECT_FALSE(s.seen(id_n(1), kNow));
  s.mark(id_n(1), kNow + 100);
  EXPECT_TRUE(s.seen(id_n(1), kNow));
  EXPECT_TRUE(s.seen(id_n(1), kNow + 99));
  EXPECT_FALSE(s.seen(id_n(1), kNow + 100));  // expired at its expiry
  s.mark(id_n(1), kNow + 50);                 // an earlier expiry does not shorten it
  EXPECT_TRUE(s.seen(id_n(1), kNow + 99));
  s.mark(id_n(1), kNow + 500);  // a later one extends it
  EXPECT_TRUE(s.seen(id_n(1), kNow + 499));
  s.mark(id_n(2), kNow + 10);
  EXPECT_EQ(s.prune(kNow + 10), 1u);
  EXPECT_EQ(s.size(), 1u);
}

TEST(agx_seen_store_test, memory_is_bounded_and_evicts_nearest_expiry) {
  memory_seen_store s(3);
  s.mark(id_n(1), kNow + 30);
  s.mark(id_n(2), kNow + 10);
  s.mark(id_n(3), kNow + 20);
  s.mark(id_n(4), kNow + 40);
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s.evictions(), 1u);
  EXPECT_FALSE(s.seen(id_n(2), kNow));  // the one closest to expiry went
  EXPECT_TRUE(s.seen(id_n(1), kNow));
  EXPECT_TRUE(s.seen(id_n(4), kNow));
  s.mark(id_n(4), kNow + 50);  // re-marking is not an insertion
  EXPECT_EQ(s.evictions(), 1u);
}

TEST(agx_seen_store_test, snapshot_round_trip_and_journal) {
  memory_seen_store a;
  a.mark(id_n(1), kNow + 100);
  a.mark(id_n(2), kNow + 5);
  a.mark(id_n(3), kNow + 200);
  std::string snap = a.snapshot_json(kNow + 10);  // id 2 has expired by then
  EXPECT_EQ(snap.rfind("{\"v\":1,\"seen\":[[\"" + hex::encode(id_n(1)) + "\"," + std::to_string(kNow + 100) + "],", 0),
            0u);
  EXPECT_EQ(snap.find(hex::encode(id_n(2))), std::string::npos);

  memory_seen_store b;
  auto n = b.load_snapshot(snap, kNow + 10);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 2u);
  EXPECT_TRUE(b.seen(id_n(1), kNow + 10));
  EXPECT_TRUE(b.seen(id_n(3), kNow + 150));
  EXPECT_FALSE(b.seen(id_n(2), kNow));
  EXPECT_TRUE(b.take_journal().empty());  // loaded entries are already durable
  // Loading later skips what expired meanwhile.
  memory_seen_store c;
  EXPECT_EQ(*c.load_snapshot(snap, kNow + 150), 1u);

  // Malformed snapshots change nothing.
  for (const char* bad : {"", "[]", "{\"v\":2,\"seen\":[]}", "{\"v\":1}", "{\"v\":1,\"seen\":[[\"ab\",1]]}",
                          "{\"v\":1,\"seen\":[[1,2]]}", "{\"v\":1,\"seen\":[[\"x\"]]}"}) {
    memory_seen_store d;
    d.mark(id_n(9), kNow + 1);
    (void)d.take_journal();
    EXPECT_EQ(d.load_snapshot(bad, kNow).code(), errc::agx_seen_snapshot_invalid) << bad;
    EXPECT_EQ(d.size(), 1u);
  }
  std::string half = "{\"v\":1,\"seen\":[[\"" + hex::encode(id_n(5)) + "\"," + std::to_string(kNow + 9) + "],[\"zz\",1]]}";
  memory_seen_store e;
  EXPECT_FALSE(e.load_snapshot(half, kNow).ok());
  EXPECT_EQ(e.size(), 0u);  // all or nothing

  // The journal lists marks since the last take, for an incremental durable mirror.
  memory_seen_store j(2);
  j.mark(id_n(1), kNow + 1);
  j.mark(id_n(2), kNow + 2);
  auto first = j.take_journal();
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[1].id, id_n(2));
  EXPECT_EQ(first[1].expires_at, kNow + 2);
  EXPECT_TRUE(j.take_journal().empty());
  j.mark(id_n(3), kNow + 3);
  j.mark(id_n(4), kNow + 4);
  j.mark(id_n(5), kNow + 5);
  EXPECT_TRUE(j.journal_overflowed());  // write a snapshot instead
  EXPECT_EQ(j.take_journal().size(), 2u);
  EXPECT_FALSE(j.journal_overflowed());
}

// An inbox loop as a host runs it: wrap id before decrypting, rumor id after, both recorded.
TEST(agx_replay_test, duplicates_are_dropped_exactly_once) {
  message_fields f;
  f.text = "invoice 1234";
  f.message_id = std::string(32, '1');
  f.context_id = std::string(32, '2');
  event rumor = *message_rumor(f, alice().pub, bob().pub, kNow);
  auto wrap_with = [&](std::uint64_t seed) {
    rng r{seed};
    nip59::wrap_randomness rnd;
    r.fill(rnd);
    return *wrap_rumor(rumor, alice().sk, bob().pub, kNow, rnd);
  };
  event w1 = wrap_with(1);
  event w2 = wrap_with(2);  // the same rumor re-wrapped (a sender's retry)
  ASSERT_NE(w1.id, w2.id);
  rng junk_rng{3};
  event junk = raw_wrap("junk", bob().pub, kNow - 5, agx_tags(bob().pub, kNow - 5), kPowBits, junk_rng);

  memory_seen_store store;
  replay_guard guard(store);
  int processed = 0, skipped_wrap = 0, skipped_rumor = 0, discarded = 0, unwrap_calls = 0;
  auto ingest = [&](const event& w, std::int64_t now) {
    if (guard.known_wrap(w.id, now)) {
      ++skipped_wrap;
      return;
    }
    ++unwrap_calls;
    auto opened = unwrap(w, bob().sk, now);
    if (!opened) {
      if (disposition_of(opened.code()) == disposition::discard) {
        guard.discarded(w.id, now);
        ++discarded;
      }
      return;
    }
    if (guard.known_rumor(opened->rumor.id, now)) {
      guard.discarded(w.id, now);  // remember this envelope too, so it is not reopened
      ++skipped_rumor;
      return;
    }
    ++processed;
    guard.processed(opened->rumor.id, w.id, now);
  };
  for (const event* w : {&w1, &w1, &w2, &w2, &junk, &junk, &w1}) ingest(*w, kNow + 1);
  EXPECT_EQ(processed, 1);
  EXPECT_EQ(skipped_rumor, 1);  // w2 opened once, then known by its rumor id
  EXPECT_EQ(discarded, 1);      // the junk wrap opened once
  EXPECT_EQ(skipped_wrap, 4);
  EXPECT_EQ(unwrap_calls, 3);

  // The memory outlives the whole poll window, then lets go.
  std::int64_t later = kNow + 1 + kDefaultPollOverlap + kMaxWrapBackdate;
  EXPECT_TRUE(guard.known_wrap(w1.id, later));
  EXPECT_FALSE(guard.known_wrap(w1.id, kNow + 1 + kSeenRetention));
  // Malformed ids are never "known".
  EXPECT_FALSE(guard.known_wrap("xyz", kNow));
}

TEST(agx_replay_test, future_wrap_is_not_marked_and_is_processed_later) {
  std::int64_t ahead = kNow + 1000;
  rng r{9};
  message_fields f;
  f.text = "from the future";
  f.message_id = std::string(32, '3');
  f.context_id = std::string(32, '4');
  event rumor = *message_rumor(f, alice().pub, bob().pub, ahead);
  event seal = *nip59::create_seal(rumor, alice().kp(), conv(alice(), bob().pub), r.next32(), r.next32(), ahead);
  event w = raw_wrap(to_json(seal), bob().pub, ahead, agx_tags(bob().pub, ahead), kPowBits, r);

  memory_seen_store store;
  replay_guard guard(store);
  auto first = unwrap(w, bob().sk, kNow);
  ASSERT_EQ(first.code(), errc::agx_wrap_future);
  ASSERT_EQ(disposition_of(first.code()), disposition::retry_later);
  EXPECT_FALSE(guard.known_wrap(w.id, kNow));
  EXPECT_TRUE(beyond_future_skew(w.created_at, kNow));
  EXPECT_FALSE(beyond_future_skew(w.created_at, ahead - kMaxFutureSkew));
  EXPECT_TRUE(unwrap(w, bob().sk, ahead - kMaxFutureSkew).ok());
}

TEST(agx_cursor_test, advances_only_after_complete_polls_to_the_clock_read_before) {
  inbox_cursor c(0);
  auto w = c.begin(kNow);
  EXPECT_EQ(w.since, 0);
  EXPECT_EQ(w.started_at, kNow);
  c.finish(w, /*complete=*/false);  // a relay did not answer, or the signer was unavailable
  EXPECT_EQ(c.position(), 0);
  c.finish(w, true);
  EXPECT_EQ(c.position(), kNow);

  // The next poll reaches back the overlap plus the whole backdate window.
  auto w2 = c.begin(kNow + 60);
  EXPECT_EQ(w2.since, kNow - kDefaultPollOverlap - kMaxWrapBackdate);
  EXPECT_EQ(c.lookback(), 120 + 172800);
  // A poll that started earlier than the cursor never moves it back.
  c.finish({0, kNow - 5}, true);
  EXPECT_EQ(c.position(), kNow);

  // The cursor is our clock, not any event's created_at: nothing else moves it.
  inbox_cursor custom(kNow, 30);
  EXPECT_EQ(custom.begin(kNow).since, kNow - 30 - kMaxWrapBackdate);
  inbox_cursor clamped(-5, -5);
  EXPECT_EQ(clamped.position(), 0);
  EXPECT_EQ(clamped.begin(kNow).since, 0);
}
