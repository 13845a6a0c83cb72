// BIP-340 batch verification (secp256k1_core.c nostr_schnorrsig_verify_batch, through
// crypto::schnorr_verify32_batch, event verify_batch and subscriptions::feed_batch) against
// single verification: random batches of 1 to 4,096 signatures with planted bad signatures, bad
// messages, repeated keys, keys and r values that are not points, out-of-range r and s, and the
// BIP-340 vectors; errors that cancel in an unweighted sum; and the subscription machine's batch
// feed against frame-by-frame feeding.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <sstream>
#include <vector>

#include "crypto/secp256k1.hpp"
#include "event/event.hpp"
#include "relay/relay_message.hpp"
#include "relay/subscriptions.hpp"
#include "test_support.hpp"
#include "util/hex.hpp"

using namespace nostr;

namespace {

using crypto::schnorr_check;

// The order n and the field prime p, big-endian.
const char* const kOrder = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
const char* const kPrime = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f";

std::vector<crypto::keypair> make_keys(std::mt19937_64& rng, std::size_t n) {
  std::vector<crypto::keypair> keys;
  while (keys.size() < n) {
    bytes32 sk{};
    for (auto& b : sk) b = static_cast<std::uint8_t>(rng());
    auto kp = crypto::keypair::from_secret(sk);
    if (kp) keys.push_back(*kp);
  }
  return keys;
}

bytes32 random32(std::mt19937_64& rng) {
  bytes32 b{};
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

// A 32-byte x that is not the x of a curve point (about half are not).
bytes32 non_point_x(std::mt19937_64& rng) {
  for (;;) {
    bytes32 x = random32(rng);
    x[0] &= 0x7f;
    if (!crypto::xonly_public_key_valid(x)) return x;
  }
}

// Damages check c in one of several ways (all of which single verification rejects, except for
// the rare planted key that happens to be a point, which stays a valid-or-not case either way).
void plant(schnorr_check& c, std::mt19937_64& rng) {
  switch (rng() % 8) {
    case 0: c.sig[32 + rng() % 32] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;  // s
    case 1: c.msg[rng() % 32] ^= 1; break;                                                    // the id
    case 2: c.sig[rng() % 32] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;         // r
    case 3: std::copy_n(hex::decode32(kOrder)->begin(), 32, c.sig.begin() + 32); break;       // s = n
    case 4: std::copy_n(hex::decode32(kPrime)->begin(), 32, c.sig.begin()); break;            // r = p
    case 5: {                                                                                 // r not a point
      bytes32 x = non_point_x(rng);
      std::copy_n(x.begin(), 32, c.sig.begin());
      break;
    }
    case 6: c.pub = non_point_x(rng); break;  // key not a point
    default: c.pub[rng() % 32] ^= 1; break;   // another key (maybe not a point)
  }
}

// ok[] of the batch equals schnorr_verify32 of each; returns the number of valid ones.
std::size_t expect_agrees(const std::vector<schnorr_check>& checks) {
  std::unique_ptr<bool[]> ok(new bool[checks.size() + 1]);
  crypto::schnorr_verify32_batch(checks.data(), checks.size(), ok.get());
  std::size_t valid = 0;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const bool single = crypto::schnorr_verify32(checks[i].sig, checks[i].msg, checks[i].pub);
    EXPECT_EQ(ok[i], single) << "signature " << i << " of " << checks.size();
    valid += single;
  }
  return valid;
}

std::vector<schnorr_check> random_batch(std::mt19937_64& rng, const std::vector<crypto::keypair>& keys, std::size_t n) {
  std::vector<schnorr_check> out(n);
  for (auto& c : out) {
    const auto& kp = keys[rng() % keys.size()];
    c.msg = random32(rng);
    c.pub = kp.public_key();
    c.sig = kp.sign32(c.msg, random32(rng));
  }
  return out;
}

}  // namespace

TEST(verify_batch_test, valid_batches_of_every_size_verify) {
  std::mt19937_64 rng(0xba7c4);
  auto keys = make_keys(rng, 40);
  for (std::size_t n : {0u, 1u, 2u, 3u, 4u, 7u, 43u, 44u, 45u, 87u, 88u, 200u, 511u, 512u, 513u, 1025u}) {
    auto batch = random_batch(rng, keys, n);
    EXPECT_EQ(expect_agrees(batch), n) << n;
  }
}

TEST(verify_batch_test, random_batches_with_planted_faults_agree_with_single_verification) {
  std::mt19937_64 rng(0x5eed340);
  auto keys = make_keys(rng, 200);
  std::size_t total_bad = 0;
  for (int round = 0; round < 24; ++round) {
    // sizes from 1 to 4,096, log-uniform; keys from a few (many repeats) to 200
    const std::size_t n = std::size_t{1} << (rng() % 13);
    const std::size_t size = n + rng() % n;
    std::vector<crypto::keypair> some(keys.begin(), keys.begin() + 1 + rng() % keys.size());
    auto batch = random_batch(rng, some, size > 4096 ? 4096 : size);
    const std::size_t faults = rng() % 4 == 0 ? 0 : 1 + rng() % (1 + batch.size() / 16);
    for (std::size_t k = 0; k < faults; ++k) plant(batch[rng() % batch.size()], rng);
    const std::size_t valid = expect_agrees(batch);
    total_bad += batch.size() - valid;
    if (faults > 0) EXPECT_LT(valid, batch.size()) << "round " << round;
  }
  EXPECT_GT(total_bad, 24u);
}

TEST(verify_batch_test, one_key_repeated_and_a_bad_signature_among_many) {
  std::mt19937_64 rng(0x0e4e);
  auto keys = make_keys(rng, 1);
  auto batch = random_batch(rng, keys, 600);  // two chunks, one key
  EXPECT_EQ(expect_agrees(batch), 600u);
  batch[599].sig[63] ^= 1;  // in the second chunk only
  EXPECT_EQ(expect_agrees(batch), 599u);
  batch[0] = batch[1];  // the same signature twice is fine
  EXPECT_EQ(expect_agrees(batch), 599u);
}

// Errors that cancel in the unweighted sum: s1 + d and s2 - d under one key. Without the random
// weights the batch equation would hold; with them it must not.
TEST(verify_batch_test, errors_that_cancel_without_weights_are_caught) {
  std::mt19937_64 rng(0xcafe);
  auto keys = make_keys(rng, 1);
  auto batch = random_batch(rng, keys, 8);
  // +1 on one s and -1 on another, where the low bytes take it without a carry
  std::size_t up = 0, down = 1;
  while (batch[up].sig[63] == 0xff) ++up;
  while (down == up || batch[down].sig[63] == 0x00) ++down;
  batch[up].sig[63] += 1;
  batch[down].sig[63] -= 1;
  EXPECT_EQ(expect_agrees(batch), 6u);
}

TEST(verify_batch_test, bip340_vectors_in_a_batch_agree) {
  std::istringstream csv(test::read_file(test::vector_path("bip340-test-vectors.csv")));
  std::string line;
  std::getline(csv, line);  // header
  std::vector<schnorr_check> checks;
  std::vector<bool> expected;
  while (std::getline(csv, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    std::string cell;
    while (std::getline(ls, cell, ',')) f.push_back(cell);
    if (f.size() < 7 || f[4].size() != 64) continue;  // 32-byte messages only
    schnorr_check c;
    auto pub = hex::decode32(f[2]);
    auto msg = hex::decode32(f[4]);
    auto sig = hex::decode(f[5]);
    if (!pub || !msg || !sig || sig->size() != 64) continue;
    c.pub = *pub;
    c.msg = *msg;
    std::copy(sig->begin(), sig->end(), c.sig.begin());
    checks.push_back(c);
    expected.push_back(f[6].rfind("TRUE", 0) == 0);
  }
  ASSERT_GE(checks.size(), 14u);
  // three times over (repeated keys and signatures), so that a batch is formed
  std::vector<schnorr_check> all;
  for (int k = 0; k < 3; ++k) all.insert(all.end(), checks.begin(), checks.end());
  std::unique_ptr<bool[]> ok(new bool[all.size()]);
  crypto::schnorr_verify32_batch(all.data(), all.size(), ok.get());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(ok[i], expected[i % checks.size()]) << "row " << i % checks.size();
  expect_agrees(all);
  // the valid rows alone verify as a batch
  std::vector<schnorr_check> valid;
  for (std::size_t i = 0; i < checks.size(); ++i)
    if (expected[i]) valid.push_back(checks[i]);
  EXPECT_EQ(expect_agrees(valid), valid.size());
}

TEST(verify_batch_test, events_verify_batch_matches_verify) {
  std::mt19937_64 rng(0xe7e7);
  auto keys = make_keys(rng, 5);
  std::vector<event> evs;
  for (int i = 0; i < 300; ++i) {
    event_template t;
    t.created_at = 1700000000 + i;
    t.kind = 1;
    t.content = "note " + std::to_string(i);
    evs.push_back(finalize(t, keys[i % 5], random32(rng)));
  }
  evs[10].content += "!";       // id mismatch
  evs[20].sig[5] = evs[20].sig[5] == 'a' ? 'b' : 'a';  // bad signature
  evs[30].pubkey = "XYZ";       // shape
  evs[40].sig[70] = evs[40].sig[70] == '0' ? '1' : '0';
  std::vector<const event*> ptrs;
  for (const auto& e : evs) ptrs.push_back(&e);
  auto out = verify_batch(ptrs.data(), ptrs.size());
  ASSERT_EQ(out.size(), evs.size());
  for (std::size_t i = 0; i < evs.size(); ++i) {
    auto single = verify(evs[i]);
    EXPECT_EQ(out[i].code(), single.code()) << i;
    EXPECT_EQ(out[i].err().detail, single.err().detail) << i;
  }
  EXPECT_EQ(out[10].code(), errc::id_mismatch);
  EXPECT_EQ(out[20].code(), errc::invalid_signature);
  EXPECT_EQ(out[30].code(), errc::invalid_event);
  EXPECT_EQ(out[40].code(), errc::invalid_signature);
}

// feed_batch gives the outcomes feeding frame by frame gives: duplicates within the batch (the
// first copy bad, the second good), EOSE in the middle, a CLOSED, events for another
// subscription, malformed frames.
TEST(verify_batch_test, subscriptions_feed_batch_matches_feed) {
  using namespace nostr::relay;
  std::mt19937_64 rng(0xfeed);
  auto keys = make_keys(rng, 7);
  auto frame = [](const std::string& sub, const event& e) { return *encode_relay_event(sub, e); };
  std::vector<std::string> frames;
  std::vector<event> evs;
  std::size_t forged = 0;  // bad copies of matching events
  for (int i = 0; i < 120; ++i) {
    event_template t;
    t.created_at = 1000 + i;
    t.kind = i % 10 == 9 ? 7 : 1;  // kind 7 does not match
    t.content = "e" + std::to_string(i);
    evs.push_back(finalize(t, keys[i % 7], random32(rng)));
  }
  for (int i = 0; i < 120; ++i) {
    event e = evs[i];
    if (i % 13 == 4) {  // a bad copy first...
      e.sig[100] = e.sig[100] == 'f' ? 'e' : 'f';
      forged += evs[i].kind == 1;
    }
    frames.push_back(frame("s", e));
    if (i % 13 == 4) frames.push_back(frame("s", evs[i]));  // ...then the good one
    if (i % 17 == 0) frames.push_back(frame("s", evs[i]));  // a duplicate
    if (i % 29 == 3) frames.push_back(frame("t", evs[i]));
    if (i == 60) frames.push_back("[\"EOSE\",\"s\"]");
    if (i == 70) frames.push_back("[\"EVENT\",\"s\",{]");
    if (i == 90) frames.push_back("[\"CLOSED\",\"t\",\"error: bye\"]");
  }
  filter f;
  f.kinds = std::vector<std::int64_t>{1};
  auto fresh = [&] {
    auto s = std::make_unique<subscriptions>();
    EXPECT_TRUE(s->open("s", {f}).ok());
    EXPECT_TRUE(s->open("t", {f}).ok());
    EXPECT_TRUE(s->req_for("s", "wss://r", 0).ok());
    EXPECT_TRUE(s->req_for("t", "wss://r", 0).ok());
    return s;
  };
  auto one = fresh(), batch = fresh();
  std::vector<outcome> single;
  for (const auto& fr : frames) single.push_back(one->feed("wss://r", fr));
  std::vector<outcome> together = batch->feed_batch("wss://r", frames);
  ASSERT_EQ(single.size(), together.size());
  std::size_t delivered = 0, bad = 0;
  for (std::size_t i = 0; i < single.size(); ++i) {
    ASSERT_EQ(single[i].index(), together[i].index()) << "frame " << i;
    if (auto* d = std::get_if<deliver>(&single[i])) {
      EXPECT_EQ(d->ev.id, std::get<deliver>(together[i]).ev.id);
      ++delivered;
    } else if (auto* x = std::get_if<dropped>(&single[i])) {
      const auto& y = std::get<dropped>(together[i]);
      EXPECT_EQ(x->reason, y.reason) << "frame " << i;
      EXPECT_EQ(x->err.code, y.err.code) << "frame " << i;
      bad += x->reason == drop_reason::bad_signature;
    }
  }
  EXPECT_GT(delivered, 100u);
  EXPECT_EQ(bad, forged);
  EXPECT_GT(forged, 5u);
  EXPECT_EQ(one->seen_count("s"), batch->seen_count("s"));
}
