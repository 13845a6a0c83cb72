#include "nips/nip13.hpp"

#include <gtest/gtest.h>

#include <string>

#include "event/event_json.hpp"
#include "test_support.hpp"
#include "util/hex.hpp"

using namespace nostr;

namespace {

const char* kPubkey = "a48380f4cfcc1ad5378294fcac36439770f9c878dd880ffa94bb74ea54a6f243";

nlohmann::json spec() {
  auto v = test::load_vector_json("nips-spec-examples.json");
  return v.is_discarded() ? nlohmann::json() : v["nip13"];
}

event_template note(std::string content, tag_list tags = {}, std::int64_t created_at = 1651794653) {
  event_template t;
  t.created_at = created_at;
  t.kind = 1;
  t.tags = std::move(tags);
  t.content = std::move(content);
  return t;
}

// The event a nonce gives, hashed the plain NIP-01 way (the reference the miner must agree with).
event with_nonce(const event_template& t, std::uint64_t nonce, int target) {
  event e;
  e.pubkey = kPubkey;
  e.created_at = t.created_at;
  e.kind = t.kind;
  for (const auto& tg : t.tags)
    if (tg.empty() || tg[0] != "nonce") e.tags.push_back(tg);
  e.tags.push_back({"nonce", std::to_string(nonce), std::to_string(target)});
  e.content = t.content;
  e.id = compute_id_hex(e);
  return e;
}

// First nonce >= from whose id meets target, by brute force over the plain serialization.
std::uint64_t reference_first(const event_template& t, std::uint64_t from, int target) {
  for (std::uint64_t n = from;; ++n)
    if (nip13::difficulty(*hex::decode32(with_nonce(t, n, target).id)) >= target) return n;
}

}  // namespace

TEST(nip13_test, spec_difficulty_examples) {
  auto v = spec();
  ASSERT_TRUE(v.is_object());
  int n = 0;
  for (const auto& ex : v["difficulty_examples"]) {
    std::string id = ex.contains("id") ? ex["id"].get<std::string>() : ex["id_prefix_hex"].get<std::string>();
    id.resize(64, 'f');  // "002f..." : whatever follows the prefix cannot add leading zeros
    auto d = nip13::difficulty_hex(id);
    ASSERT_TRUE(d.ok()) << id;
    EXPECT_EQ(*d, ex["difficulty"].get<int>()) << id;
    ++n;
  }
  EXPECT_EQ(n, 2);
}

TEST(nip13_test, spec_mined_event_difficulty_and_commitment) {
  auto v = spec();
  auto e = parse_event(v["mined_event"].dump());
  ASSERT_TRUE(e.ok());
  ASSERT_TRUE(verify(*e).ok());
  EXPECT_EQ(*nip13::difficulty_hex(e->id), v["mined_event_difficulty"].get<int>());
  EXPECT_EQ(nip13::committed_target(e->tags), v["mined_event_target"].get<int>());
  EXPECT_TRUE(*nip13::check_pow(*e, 20));
  EXPECT_TRUE(*nip13::check_pow(*e, 20, /*require_commitment=*/true));
  EXPECT_TRUE(*nip13::check_pow(*e, 0));
  // 21 bits are there, but the miner only committed to 20 (NIP-13: reject the lucky note).
  EXPECT_FALSE(*nip13::check_pow(*e, 21));
  EXPECT_FALSE(*nip13::check_pow(*e, 22));
}

TEST(nip13_test, mining_the_spec_template_finds_the_spec_nonce) {
  auto v = spec();
  auto e = *parse_event(v["mined_event"].dump());
  event_template t = note(e.content, e.tags, e.created_at);  // its nonce tag gets replaced
  // 776797 is the spec's winning nonce; no smaller nonce is needed to prove the serialization.
  auto r = nip13::mine(e.pubkey, t, 20, 776797, 1);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->done);
  EXPECT_EQ(r->ev.id, e.id);
  EXPECT_EQ(r->ev.tags, e.tags);
  EXPECT_EQ(r->ev.created_at, e.created_at);
  // One nonce earlier is not a match, and the call says where to continue.
  auto before = nip13::mine(e.pubkey, t, 20, 776796, 1);
  ASSERT_TRUE(before.ok());
  EXPECT_FALSE(before->done);
  EXPECT_EQ(before->next_nonce, 776797u);
}

TEST(nip13_test, mined_events_have_the_difficulty_and_keep_created_at) {
  for (int target = 8; target <= 16; ++target) {
    event_template t = note("pow at " + std::to_string(target) + " bits \"\\\n\xc3\xa9",
                            {{"p", kPubkey}, {"nonce", "5", "99"}, {"t", "x"}}, 1600000000 - target);
    auto r = nip13::mine(kPubkey, t, target, 0, UINT64_MAX);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->done);
    const event& e = r->ev;
    EXPECT_EQ(e.created_at, t.created_at);
    EXPECT_EQ(e.id, compute_id_hex(e));
    EXPECT_GE(*nip13::difficulty_hex(e.id), target);
    // Old nonce tag gone, other tags kept in order, ours last with the committed target.
    ASSERT_EQ(e.tags.size(), 3u);
    EXPECT_EQ(e.tags[0], (tag{"p", kPubkey}));
    EXPECT_EQ(e.tags[1], (tag{"t", "x"}));
    EXPECT_EQ(e.tags[2][0], "nonce");
    EXPECT_EQ(e.tags[2][2], std::to_string(target));
    EXPECT_EQ(nip13::committed_target(e.tags), target);
    EXPECT_TRUE(*nip13::check_pow(e, target, true));
    // The first match from 0, by brute force (kept to low targets: slow under sanitizers).
    if (target <= 10) EXPECT_EQ(e.tags[2][1], std::to_string(reference_first(t, 0, target)));
  }
}

TEST(nip13_test, signed_mined_event_verifies) {
  auto kp = *crypto::keypair::from_secret(
      *hex::decode32("67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa"));
  std::string pub = hex::encode(kp.public_key());
  event_template t = note("signed after mining");
  auto r = nip13::mine(pub, t, 10, 0, UINT64_MAX);
  ASSERT_TRUE(r.ok() && r->done);
  event_template mined = note(r->ev.content, r->ev.tags, r->ev.created_at);
  event s = finalize(mined, kp, bytes32{});
  EXPECT_EQ(s.id, r->ev.id);
  EXPECT_TRUE(verify(s).ok());
}

TEST(nip13_test, bounded_slices_find_the_same_nonce_as_one_call) {
  event_template t = note("sliced");
  auto whole = nip13::mine(kPubkey, t, 12, 0, UINT64_MAX);
  ASSERT_TRUE(whole.ok() && whole->done);
  std::uint64_t next = 0;
  int calls = 0;
  for (;;) {
    auto r = nip13::mine(kPubkey, t, 12, next, 100);
    ASSERT_TRUE(r.ok());
    ++calls;
    if (r->done) {
      EXPECT_EQ(r->ev.id, whole->ev.id);
      EXPECT_EQ(r->ev.tags, whole->ev.tags);
      break;
    }
    EXPECT_EQ(r->next_nonce, next + 100);
    next = r->next_nonce;
    ASSERT_LT(calls, 100000);
  }
  EXPECT_GT(calls, 1);
  auto none = nip13::mine(kPubkey, t, 12, 7, 0);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->done);
  EXPECT_EQ(none->next_nonce, 7u);
}

TEST(nip13_test, nonce_digits_carry_across_widths) {
  // Starts just below 10^k make the in-place decimal counter grow a digit mid-search.
  event_template t = note("carry");
  auto m = nip13::miner::for_template(kPubkey, t, 5);
  ASSERT_TRUE(m.ok());
  std::uint64_t p = 1;
  for (int k = 1; k <= 7; ++k) {
    p *= 10;
    for (std::uint64_t back : {1u, 2u, 3u}) {
      std::uint64_t from = p - back;
      auto s = m->search(from, 1u << 20);
      ASSERT_TRUE(s.found);
      std::uint64_t want = reference_first(t, from, 5);
      EXPECT_EQ(s.nonce, want) << from;
      EXPECT_EQ(hex::encode(s.id), with_nonce(t, want, 5).id) << from;
    }
  }
}

TEST(nip13_test, every_prefix_alignment_hashes_right) {
  // Tag lengths 0..70 move the nonce across every offset in a 64-byte block (the midstate split).
  for (std::size_t len = 0; len <= 70; ++len) {
    event_template t = note(std::string(len % 7, 'c'), {{"x", std::string(len, 'a')}});
    for (std::uint64_t n : {0ull, 9ull, 12345ull, 18446744073709551615ull}) {
      auto m = nip13::miner::for_template(kPubkey, t, 0);
      ASSERT_TRUE(m.ok());
      auto s = m->search(n, 1);
      ASSERT_TRUE(s.found);
      EXPECT_EQ(s.nonce, n);
      EXPECT_EQ(hex::encode(s.id), with_nonce(t, n, 0).id) << len << " " << n;
    }
  }
}

TEST(nip13_test, nonce_space_end_is_reported) {
  event_template t = note("end");
  auto m = nip13::miner::for_template(kPubkey, t, 256);  // an all-zero id: never found
  ASSERT_TRUE(m.ok());
  auto s = m->search(nip13::kMaxNonce - 2, 10);
  EXPECT_FALSE(s.found);
  EXPECT_TRUE(s.exhausted);
  auto r = nip13::mine(kPubkey, t, 256, nip13::kMaxNonce - 2, 10);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.code(), errc::pow_exhausted);
  auto mid = m->search(1000, 10);
  EXPECT_FALSE(mid.found);
  EXPECT_FALSE(mid.exhausted);
  EXPECT_EQ(mid.nonce, 1010u);
}

TEST(nip13_test, target_zero_takes_the_first_nonce) {
  auto r = nip13::mine(kPubkey, note("easy"), 0, 42, 1);
  ASSERT_TRUE(r.ok() && r->done);
  EXPECT_EQ(r->ev.tags.back(), (tag{"nonce", "42", "0"}));
}

TEST(nip13_test, invalid_targets_and_events_are_typed_errors) {
  for (int bad : {-1, 257, -1000, 100000}) {
    EXPECT_EQ(nip13::mine(kPubkey, note("x"), bad, 0, 10).code(), errc::pow_invalid_target) << bad;
    EXPECT_EQ(nip13::miner::from_parts("[", "]", bad).code(), errc::pow_invalid_target);
    event e = with_nonce(note("x"), 1, 0);
    EXPECT_EQ(nip13::check_pow(e, bad).code(), errc::pow_invalid_target);
  }
  EXPECT_EQ(nip13::mine("AB", note("x"), 8, 0, 10).code(), errc::invalid_event);
  EXPECT_EQ(nip13::mine(std::string(64, 'A'), note("x"), 8, 0, 10).code(), errc::invalid_event);
  event_template bad_kind = note("x");
  bad_kind.kind = 70000;
  EXPECT_EQ(nip13::mine(kPubkey, bad_kind, 8, 0, 10).code(), errc::invalid_event);
  event_template bad_time = note("x");
  bad_time.created_at = -5;
  EXPECT_EQ(nip13::mine(kPubkey, bad_time, 8, 0, 10).code(), errc::invalid_event);
  EXPECT_EQ(nip13::difficulty_hex("00").code(), errc::invalid_hex);
  EXPECT_EQ(nip13::difficulty_hex(std::string(64, 'g')).code(), errc::invalid_hex);
  event e = with_nonce(note("x"), 1, 0);
  e.id = "zz";
  EXPECT_EQ(nip13::check_pow(e, 1).code(), errc::invalid_hex);
}

TEST(nip13_test, difficulty_counts_leading_zero_bits) {
  bytes32 id{};
  EXPECT_EQ(nip13::difficulty(id), 256);
  EXPECT_TRUE(nip13::meets_target(id, 256));
  for (int bit = 0; bit < 256; ++bit) {
    bytes32 one{};
    one[bit / 8] = static_cast<std::uint8_t>(0x80 >> (bit % 8));
    EXPECT_EQ(nip13::difficulty(one), bit);
    EXPECT_TRUE(nip13::meets_target(one, bit));
    EXPECT_FALSE(nip13::meets_target(one, bit + 1));
    one[31] |= 1;  // lower bits never matter
    EXPECT_EQ(nip13::difficulty(one), bit);
  }
  EXPECT_EQ(*nip13::difficulty_hex(std::string("0F") + std::string(62, 'f')), 4);  // either case
}

TEST(nip13_test, committed_target_reads_the_first_nonce_tag) {
  using nip13::committed_target;
  EXPECT_EQ(committed_target({{"nonce", "1", "20"}}), 20);
  EXPECT_EQ(committed_target({{"e", "x"}, {"nonce", "1", "0"}, {"nonce", "1", "30"}}), 0);
  EXPECT_EQ(committed_target({{"nonce", "1", "256"}}), 256);
  EXPECT_EQ(committed_target({}), std::nullopt);
  EXPECT_EQ(committed_target({{"nonce", "1"}}), std::nullopt);
  EXPECT_EQ(committed_target({{"nonce"}}), std::nullopt);
  for (const char* bad : {"", "-1", "+5", "257", "2a", " 20", "1000", "0x1"})
    EXPECT_EQ(committed_target({{"nonce", "1", bad}, {"nonce", "1", "20"}}), std::nullopt) << bad;
  // A missing commitment passes unless one is required (NIP-13: clients MAY reject).
  event e = with_nonce(note("x"), 1, 0);
  e.tags = {};
  e.id = std::string(16, '0') + std::string(48, 'f');  // 64 bits
  EXPECT_TRUE(*nip13::check_pow(e, 40));
  EXPECT_FALSE(*nip13::check_pow(e, 40, true));
  EXPECT_FALSE(*nip13::check_pow(e, 65));
}
