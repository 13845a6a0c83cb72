#include <gtest/gtest.h>

#include "agx_test_support.hpp"
#include "nips/nip44.hpp"
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
  ASSERT_TRUE(s.mark(id_n(1), kNow + 100, kNow).ok());
  EXPECT_TRUE(s.seen(id_n(1), kNow));
  EXPECT_TRUE(s.seen(id_n(1), kNow + 99));
  EXPECT_FALSE(s.seen(id_n(1), kNow + 100));  // expired at its expiry
  ASSERT_TRUE(s.mark(id_n(1), kNow + 50, kNow).ok());  // an earlier expiry does not shorten it
  EXPECT_TRUE(s.seen(id_n(1), kNow + 99));
  ASSERT_TRUE(s.mark(id_n(1), kNow + 500, kNow).ok());  // a later one extends it
  EXPECT_TRUE(s.seen(id_n(1), kNow + 499));
  ASSERT_TRUE(s.mark(id_n(2), kNow + 10, kNow).ok());
  EXPECT_EQ(s.prune(kNow + 10), 1u);
  EXPECT_EQ(s.size(), 1u);
}

TEST(agx_seen_store_test, a_full_store_refuses_and_never_forgets_before_expiry) {
  memory_seen_store s(3);
  for (std::uint8_t n : {1, 2, 3}) ASSERT_TRUE(s.mark(id_n(n), kNow + 10 * n, kNow).ok());
  EXPECT_FALSE(s.has_room(1, kNow));
  auto r = s.mark(id_n(4), kNow + 40, kNow);
  EXPECT_EQ(r.code(), errc::agx_overloaded);
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s.evictions(), 0u);
  for (std::uint8_t n : {1, 2, 3}) EXPECT_TRUE(s.seen(id_n(n), kNow + 9)) << int(n);
  EXPECT_FALSE(s.seen(id_n(4), kNow));
  ASSERT_TRUE(s.mark(id_n(3), kNow + 60, kNow).ok());  // re-marking a known id is not an insertion
  // Time makes room: id 1 expires at kNow + 10.
  EXPECT_TRUE(s.has_room(1, kNow + 10));
  ASSERT_TRUE(s.mark(id_n(4), kNow + 40, kNow + 10).ok());
  EXPECT_FALSE(s.seen(id_n(1), kNow + 10));
  EXPECT_TRUE(s.seen(id_n(2), kNow + 10));
}

TEST(agx_seen_store_test, a_cache_evicts_nearest_expiry) {
  memory_seen_store s(3, when_full::evict);
  ASSERT_TRUE(s.mark(id_n(1), kNow + 30, kNow).ok());
  ASSERT_TRUE(s.mark(id_n(2), kNow + 10, kNow).ok());
  ASSERT_TRUE(s.mark(id_n(3), kNow + 20, kNow).ok());
  ASSERT_TRUE(s.mark(id_n(4), kNow + 40, kNow).ok());
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s.evictions(), 1u);
  EXPECT_FALSE(s.seen(id_n(2), kNow));  // the one closest to expiry went
  EXPECT_TRUE(s.seen(id_n(1), kNow));
  EXPECT_TRUE(s.seen(id_n(4), kNow));
  ASSERT_TRUE(s.mark(id_n(4), kNow + 50, kNow).ok());  // re-marking is not an insertion
  EXPECT_EQ(s.evictions(), 1u);
  EXPECT_TRUE(s.take_journal().empty());  // a cache is not mirrored
}

TEST(agx_seen_store_test, snapshot_round_trip_and_journal) {
  memory_seen_store a;
  ASSERT_TRUE(a.mark(id_n(1), kNow + 100, kNow).ok());
  ASSERT_TRUE(a.mark(id_n(2), kNow + 5, kNow).ok());
  ASSERT_TRUE(a.mark(id_n(3), kNow + 200, kNow).ok());
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
  // Loaded entries were processed: a store smaller than the snapshot takes them all and refuses
  // new marks instead.
  memory_seen_store small(1);
  EXPECT_EQ(*small.load_snapshot(snap, kNow + 10), 2u);
  EXPECT_TRUE(small.seen(id_n(1), kNow + 10));
  EXPECT_TRUE(small.seen(id_n(3), kNow + 10));
  EXPECT_EQ(small.mark(id_n(7), kNow + 300, kNow + 10).code(), errc::agx_overloaded);

  // Malformed snapshots change nothing.
  for (const char* bad : {"", "[]", "{\"v\":2,\"seen\":[]}", "{\"v\":1}", "{\"v\":1,\"seen\":[[\"ab\",1]]}",
                          "{\"v\":1,\"seen\":[[1,2]]}", "{\"v\":1,\"seen\":[[\"x\"]]}"}) {
    memory_seen_store d;
    ASSERT_TRUE(d.mark(id_n(9), kNow + 1, kNow).ok());
    (void)d.take_journal();
    EXPECT_EQ(d.load_snapshot(bad, kNow).code(), errc::agx_seen_snapshot_invalid) << bad;
    EXPECT_EQ(d.size(), 1u);
  }
  std::string half = "{\"v\":1,\"seen\":[[\"" + hex::encode(id_n(5)) + "\"," + std::to_string(kNow + 9) + "],[\"zz\",1]]}";
  memory_seen_store e;
  EXPECT_FALSE(e.load_snapshot(half, kNow).ok());
  EXPECT_EQ(e.size(), 0u);  // all or nothing

  // The journal lists marks since the last take, for an incremental durable mirror.
  memory_seen_store j(8);
  ASSERT_TRUE(j.mark(id_n(1), kNow + 1, kNow).ok());
  ASSERT_TRUE(j.mark(id_n(2), kNow + 2, kNow).ok());
  auto first = j.take_journal();
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[1].id, id_n(2));
  EXPECT_EQ(first[1].expires_at, kNow + 2);
  EXPECT_TRUE(j.take_journal().empty());
  for (std::uint8_t n = 3; n <= 10; ++n) ASSERT_TRUE(j.mark(id_n(n), kNow + 100 + n, kNow + 3).ok());
  EXPECT_FALSE(j.journal_overflowed());
  // Later, the eight have expired and make room: a ninth mark since the last take cuts the journal.
  ASSERT_TRUE(j.mark(id_n(11), kNow + 300, kNow + 200).ok());
  EXPECT_TRUE(j.journal_overflowed());  // write a snapshot instead
  EXPECT_EQ(j.take_journal().size(), 8u);
  EXPECT_FALSE(j.journal_overflowed());
}

// An inbox loop as a host runs it: wrap id before decrypting, rumor id after, both recorded; a
// public-check failure recorded nowhere, an opening failure in the cache.
struct inbox {
  memory_seen_store processed_ids;
  memory_seen_store cache;
  replay_guard guard;
  int processed = 0, skipped_wrap = 0, skipped_rumor = 0, discarded = 0, ignored = 0, overloaded = 0, unwrap_calls = 0;
  explicit inbox(std::size_t cap = kSeenCap, std::size_t cache_cap = kDiscardedCap)
      : processed_ids(cap), cache(cache_cap, when_full::evict), guard(processed_ids, cache) {}

  void ingest(const event& w, std::int64_t now) {
    if (guard.known_wrap(w.id, now)) {
      ++skipped_wrap;
      return;
    }
    if (!guard.has_room(now)) {
      ++overloaded;  // refused before decrypting: not recorded, polled again later
      return;
    }
    ++unwrap_calls;
    auto checked = check_wrap(w, bob().pub, now);
    if (!checked) {
      if (disposition_of(checked.code(), unwrap_stage::public_checks) == disposition::ignore) ++ignored;
      return;
    }
    auto opened = unwrap_checked(w, [](const bytes32& peer) { return nip44::get_conversation_key(bob().sk, peer); },
                                 bob().pub);
    if (!opened) {
      if (disposition_of(opened.code(), unwrap_stage::opening) == disposition::discard) {
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
    if (!guard.processed(opened->rumor.id, w.id, now).ok()) {
      ++overloaded;
      return;
    }
    ++processed;
  }
};

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
  event forged = w1;  // a copy of a real wrap's id over other content: fails the id check
  forged.content[5] = forged.content[5] == 'A' ? 'B' : 'A';

  inbox in;
  for (const event* w : {&forged, &w1, &w1, &w2, &w2, &junk, &junk, &w1}) in.ingest(*w, kNow + 1);
  EXPECT_EQ(in.processed, 1);  // the forged copy seen first did not hide the real one
  EXPECT_EQ(in.ignored, 1);
  EXPECT_EQ(in.skipped_rumor, 1);  // w2 opened once, then known by its rumor id
  EXPECT_EQ(in.discarded, 1);      // the junk wrap opened once
  EXPECT_EQ(in.skipped_wrap, 4);
  EXPECT_EQ(in.unwrap_calls, 4);
  EXPECT_EQ(in.processed_ids.size(), 2u);  // w1 and its rumor; the rest only in the cache
  EXPECT_EQ(in.cache.size(), 2u);

  // The memory outlives the whole poll window, then lets go.
  std::int64_t later = kNow + 1 + kDefaultPollOverlap + kMaxWrapBackdate;
  EXPECT_TRUE(in.guard.known_wrap(w1.id, later));
  EXPECT_FALSE(in.guard.known_wrap(w1.id, kNow + 1 + kSeenRetention));
  // Malformed ids are never "known".
  EXPECT_FALSE(in.guard.known_wrap("xyz", kNow));
}

// Issue 16 item 2: a flood of junk beyond every cap never pushes a processed id out.
TEST(agx_replay_test, a_junk_flood_cannot_undo_exactly_once) {
  message_fields f;
  f.text = "pay 10";
  f.message_id = std::string(32, '5');
  f.context_id = std::string(32, '6');
  event rumor = *message_rumor(f, alice().pub, bob().pub, kNow);
  rng r{21};
  nip59::wrap_randomness rnd;
  r.fill(rnd);
  event real = *wrap_rumor(rumor, alice().sk, bob().pub, kNow, rnd);

  inbox in(/*cap=*/64, /*cache_cap=*/8);
  in.ingest(real, kNow);
  ASSERT_EQ(in.processed, 1);
  // Junk failing each public check (ids differ, so none is a replay), 10x the caps, later in time.
  event base = real;
  for (int i = 0; i < 640; ++i) {
    event j = base;
    j.id = hex::encode(id_n(static_cast<std::uint8_t>(i % 251)));
    j.id[60] = "0123456789abcdef"[i % 16];
    j.id[61] = "0123456789abcdef"[(i / 16) % 16];
    j.id[62] = "0123456789abcdef"[(i / 256) % 16];
    if (i % 3 == 0) j.tags.push_back({"p", bob().pub});  // two p tags
    if (i % 3 == 1) j.sig[0] = j.sig[0] == 'f' ? 'e' : 'f';  // id mismatch / signature
    if (i % 3 == 2) j.tags = {{"p", bob().pub}};          // no expiration
    in.ingest(j, kNow + 1 + i);
  }
  // And junk that passes the public checks but does not open, beyond the cache's cap.
  for (int i = 0; i < 20; ++i) in.ingest(raw_wrap("junk", bob().pub, kNow - 5, agx_tags(bob().pub, kNow - 5), kPowBits, r), kNow + 700);
  EXPECT_EQ(in.ignored, 640);
  EXPECT_EQ(in.discarded, 20);
  EXPECT_EQ(in.processed_ids.size(), 2u);
  EXPECT_EQ(in.processed_ids.evictions(), 0u);
  EXPECT_LE(in.cache.size(), 8u);  // bounded
  // The re-poll: the real wrap comes again and is a replay.
  in.ingest(real, kNow + 800);
  EXPECT_EQ(in.processed, 1);
  EXPECT_EQ(in.skipped_wrap, 1);
}

TEST(agx_replay_test, a_full_store_refuses_new_work_until_ids_expire) {
  inbox in(/*cap=*/4);
  std::vector<event> wraps;
  for (char c : {'a', 'b', 'c'}) {
    message_fields f;
    f.text = std::string("note ") + c;
    f.message_id = std::string(32, c);
    f.context_id = std::string(32, c);
    rng r{static_cast<std::uint64_t>(c)};
    nip59::wrap_randomness rnd;
    r.fill(rnd);
    wraps.push_back(*wrap_rumor(*message_rumor(f, alice().pub, bob().pub, kNow), alice().sk, bob().pub, kNow, rnd));
  }
  in.ingest(wraps[0], kNow);
  in.ingest(wraps[1], kNow + 10);
  in.ingest(wraps[2], kNow + 20);  // no room for two more ids: refused, nothing forgotten
  EXPECT_EQ(in.processed, 2);
  EXPECT_EQ(in.overloaded, 1);
  EXPECT_FALSE(in.guard.known_wrap(wraps[2].id, kNow + 20));  // left for a later poll
  EXPECT_TRUE(in.guard.known_wrap(wraps[0].id, kNow + 20));
  // The direct mark is refused too, all or nothing.
  EXPECT_EQ(in.guard.processed(std::string(64, 'e'), std::string(64, 'f'), kNow + 20).code(), errc::agx_overloaded);
  EXPECT_FALSE(in.guard.known_rumor(std::string(64, 'e'), kNow + 20));
  // Once the first event's ids expire, the refused one goes through.
  in.ingest(wraps[2], kNow + kSeenRetention);
  EXPECT_EQ(in.processed, 3);
  EXPECT_TRUE(in.guard.known_wrap(wraps[1].id, kNow + kSeenRetention));
}

TEST(agx_replay_test, a_task_is_remembered_until_its_wrap_expires) {
  memory_seen_store processed;
  memory_seen_store cache(16, when_full::evict);
  replay_guard guard(processed, cache);
  std::string rumor(64, 'a'), wrap(64, 'b');
  std::int64_t wrap_expires = kNow + kWrapTtl;
  ASSERT_TRUE(guard.processed(rumor, wrap, kNow, wrap_expires).ok());
  EXPECT_TRUE(guard.known_rumor(rumor, kNow + kSeenRetention + 1));
  EXPECT_TRUE(guard.known_rumor(rumor, wrap_expires - 1));
  EXPECT_FALSE(guard.known_rumor(rumor, wrap_expires));
  // An until before now + retention never shortens the retention.
  ASSERT_TRUE(guard.processed(std::string(64, 'c'), std::string(64, 'd'), kNow, kNow + 5).ok());
  EXPECT_TRUE(guard.known_rumor(std::string(64, 'c'), kNow + kSeenRetention - 1));
}

TEST(agx_cursor_test, a_poll_overlap_reaching_past_the_retention_is_refused) {
  EXPECT_TRUE(check_poll_overlap(0).ok());
  EXPECT_TRUE(check_poll_overlap(kDefaultPollOverlap).ok());
  EXPECT_TRUE(check_poll_overlap(kMaxPollOverlap).ok());
  EXPECT_LT(kMaxPollOverlap + kMaxWrapBackdate, kSeenRetention);
  EXPECT_EQ(check_poll_overlap(kMaxPollOverlap + 1).code(), errc::invalid_argument);
  EXPECT_EQ(check_poll_overlap(-1).code(), errc::invalid_argument);
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
  memory_seen_store cache(16, when_full::evict);
  replay_guard guard(store, cache);
  auto first = unwrap(w, bob().sk, kNow);
  ASSERT_EQ(first.code(), errc::agx_wrap_future);
  ASSERT_EQ(disposition_of(first.code(), unwrap_stage::public_checks), disposition::retry_later);
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
