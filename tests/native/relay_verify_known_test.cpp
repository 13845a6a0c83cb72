// subscriptions::feed_batch with known_valid (what a worker verified, js/relay/verify-workers.js):
// given the flags a worker computes (decode_relay_message + verify on the same bytes), the
// outcomes are exactly those of feeding frame by frame; the flag is what skips the check (a
// forged frame flagged valid would be delivered, unflagged it is dropped), and a flag on a frame
// that is no event, or an event that never reaches verification, changes nothing.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <variant>
#include <vector>

#include "crypto/secp256k1.hpp"
#include "event/event.hpp"
#include "relay/relay_message.hpp"
#include "relay/subscriptions.hpp"

using namespace nostr;
using namespace nostr::relay;

namespace {

std::vector<crypto::keypair> keys_for(std::mt19937_64& rng, std::size_t n) {
  std::vector<crypto::keypair> keys;
  while (keys.size() < n) {
    bytes32 sk{};
    for (auto& b : sk) b = static_cast<std::uint8_t>(rng());
    if (auto kp = crypto::keypair::from_secret(sk)) keys.push_back(*kp);
  }
  return keys;
}

// The worker's answer: 1 when the frame is an EVENT whose event verifies.
std::vector<std::uint8_t> worker_flags(const std::vector<std::string_view>& frames) {
  std::vector<std::uint8_t> out;
  for (auto f : frames) {
    auto m = decode_relay_message(f);
    auto* ev = m ? std::get_if<relay_event>(&*m) : nullptr;
    out.push_back(ev && verify(ev->ev).ok() ? 1 : 0);
  }
  return out;
}

std::unique_ptr<subscriptions> fresh() {
  filter f;
  f.kinds = std::vector<std::int64_t>{1};
  auto s = std::make_unique<subscriptions>();
  EXPECT_TRUE(s->open("s", {f}).ok());
  EXPECT_TRUE(s->req_for("s", "wss://r", 0).ok());
  return s;
}

}  // namespace

TEST(relay_verify_known_test, worker_flags_give_the_outcomes_of_feed) {
  std::mt19937_64 rng(0x3e11);
  auto keys = keys_for(rng, 5);
  std::vector<std::string> frames;
  std::size_t forged = 0;
  for (int i = 0; i < 150; ++i) {
    event_template t;
    t.created_at = 2000 + i;
    t.kind = i % 11 == 10 ? 2 : 1;
    t.content = "m" + std::to_string(i);
    bytes32 aux{};
    event e = finalize(t, keys[i % 5], aux);
    event bad = e;
    if (i % 9 == 2) {
      bad.sig[7] = bad.sig[7] == 'a' ? 'b' : 'a';
      frames.push_back(*encode_relay_event("s", bad));
      forged += e.kind == 1;
    }
    frames.push_back(*encode_relay_event("s", e));
    if (i % 23 == 5) frames.push_back(*encode_relay_event("s", e));  // duplicate
    if (i == 40) frames.push_back("[\"EOSE\",\"s\"]");
    if (i == 41) frames.push_back("[\"EVENT\",\"s\",{]");
  }
  std::vector<std::string_view> views(frames.begin(), frames.end());
  auto flags = worker_flags(views);
  auto one = fresh(), known = fresh();
  std::vector<outcome> single;
  for (auto f : views) single.push_back(one->feed("wss://r", f));
  std::vector<outcome> got = known->feed_batch("wss://r", views, flags);
  ASSERT_EQ(single.size(), got.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < single.size(); ++i) {
    ASSERT_EQ(single[i].index(), got[i].index()) << "frame " << i;
    if (auto* x = std::get_if<dropped>(&single[i])) {
      const auto& y = std::get<dropped>(got[i]);
      EXPECT_EQ(x->reason, y.reason) << "frame " << i;
      EXPECT_EQ(x->err.code, y.err.code) << "frame " << i;
      EXPECT_EQ(x->err.detail, y.err.detail) << "frame " << i;
      bad += x->reason == drop_reason::bad_signature;
    } else if (auto* d = std::get_if<deliver>(&single[i])) {
      EXPECT_EQ(d->ev.id, std::get<deliver>(got[i]).ev.id);
    }
  }
  EXPECT_EQ(bad, forged);
  EXPECT_GT(forged, 10u);
}

TEST(relay_verify_known_test, the_flag_is_what_skips_the_check) {
  std::mt19937_64 rng(7);
  auto keys = keys_for(rng, 1);
  event_template t;
  t.created_at = 5;
  t.kind = 1;
  t.content = "x";
  bytes32 aux{};
  event e = finalize(t, keys[0], aux);
  e.sig[0] = e.sig[0] == '0' ? '1' : '0';
  std::string forged = *encode_relay_event("s", e);
  std::vector<std::string_view> frames{forged, "[\"EOSE\",\"s\"]"};
  auto checked = fresh()->feed_batch("wss://r", frames, std::vector<std::uint8_t>{0, 1});
  EXPECT_EQ(std::get<dropped>(checked[0]).reason, drop_reason::bad_signature);
  EXPECT_TRUE(std::holds_alternative<eose>(checked[1]));  // a flag on a non-event changes nothing
  auto trusted = fresh()->feed_batch("wss://r", frames, std::vector<std::uint8_t>{1, 0});
  EXPECT_TRUE(std::holds_alternative<deliver>(trusted[0]));
}
