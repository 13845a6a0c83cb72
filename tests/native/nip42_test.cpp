// NIP-42's canonical AUTH event (tests/vectors/nip42.json) from the core's template and checks.
#include "relay/nip42.hpp"

#include <gtest/gtest.h>

#include "crypto/secp256k1.hpp"
#include "test_support.hpp"

using namespace nostr;

TEST(nip42_test, spec_auth_event) {
  auto v = test::load_vector_json("nip42.json");
  ASSERT_FALSE(v.is_discarded());
  const std::string relay_url = v["relay"], challenge = v["challenge"];
  auto t = relay::auth_template(relay_url, challenge, 1700000000);
  EXPECT_EQ(t.kind, v["event_partial"]["kind"].get<std::int64_t>());
  EXPECT_EQ(t.tags, v["event_partial"]["tags"].get<tag_list>());
  EXPECT_EQ(t.content, "");
  bytes32 sk{};
  sk[31] = 9;
  event e = finalize(t, *crypto::keypair::from_secret(sk), bytes32{});
  std::int64_t window = v["window_seconds"];
  EXPECT_EQ(window, relay::default_auth_window);
  EXPECT_TRUE(relay::validate_auth_event(e, "wss://RELAY.example.com:443", challenge, 1700000000 + window).ok());
  EXPECT_EQ(relay::validate_auth_event(e, relay_url, challenge, 1700000000 + window + 1).code(), errc::relay_auth_stale);
}
