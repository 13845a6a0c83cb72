// NIP-42: the AUTH event template, the relay-side validator, and relay URL normalization.
#include <gtest/gtest.h>

#include "event/event.hpp"
#include "relay/client_message.hpp"
#include "relay/nip42.hpp"
#include "relay/relay_url.hpp"
#include "util/hex.hpp"

using namespace nostr;
using namespace nostr::relay;

namespace {

constexpr std::int64_t kNow = 1700000000;
const char* const kRelay = "wss://relay.example.com";
const char* const kChallenge = "challengestringhere";

crypto::keypair key() {
  return *crypto::keypair::from_secret(
      *hex::decode32("67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa"));
}

event signed_auth(std::string_view relay, std::string_view challenge, std::int64_t created_at) {
  return finalize(auth_template(relay, challenge, created_at), key(), bytes32{});
}

}  // namespace

TEST(relay_nip42_test, template_has_kind_tags_and_time) {
  event_template t = auth_template(kRelay, kChallenge, kNow);
  EXPECT_EQ(t.kind, 22242);
  EXPECT_EQ(t.created_at, kNow);
  EXPECT_EQ(t.content, "");
  ASSERT_EQ(t.tags.size(), 2u);
  EXPECT_EQ(t.tags[0], (tag{"relay", kRelay}));
  EXPECT_EQ(t.tags[1], (tag{"challenge", kChallenge}));
}

TEST(relay_nip42_test, signed_template_validates_through_the_wire) {
  event e = signed_auth(kRelay, kChallenge, kNow);
  // The relay receives it as ["AUTH", <event>].
  auto m = decode_client_message(encode_client_auth(e));
  ASSERT_TRUE(m.ok());
  const event& got = std::get<client_auth>(*m).ev;
  auto r = validate_auth_event(got, kRelay, kChallenge, kNow + 30);
  EXPECT_TRUE(r.ok()) << r.err().detail;
  // URL spelling does not matter.
  EXPECT_TRUE(validate_auth_event(got, "WSS://Relay.Example.com:443/", kChallenge, kNow).ok());
}

TEST(relay_nip42_test, wrong_kind) {
  event_template t = auth_template(kRelay, kChallenge, kNow);
  t.kind = 1;
  event e = finalize(t, key(), bytes32{});
  EXPECT_EQ(validate_auth_event(e, kRelay, kChallenge, kNow).code(), errc::relay_auth_wrong_kind);
}

TEST(relay_nip42_test, wrong_or_missing_relay) {
  EXPECT_EQ(validate_auth_event(signed_auth("wss://other.example.com", kChallenge, kNow), kRelay, kChallenge, kNow)
                .code(),
            errc::relay_auth_wrong_relay);
  EXPECT_EQ(validate_auth_event(signed_auth("ws://relay.example.com", kChallenge, kNow), kRelay, kChallenge, kNow)
                .code(),
            errc::relay_auth_wrong_relay);
  EXPECT_EQ(validate_auth_event(signed_auth("not a url", kChallenge, kNow), kRelay, kChallenge, kNow).code(),
            errc::relay_auth_wrong_relay);
  event_template t = auth_template(kRelay, kChallenge, kNow);
  t.tags.erase(t.tags.begin());
  EXPECT_EQ(validate_auth_event(finalize(t, key(), bytes32{}), kRelay, kChallenge, kNow).code(),
            errc::relay_auth_wrong_relay);
}

TEST(relay_nip42_test, wrong_or_missing_challenge) {
  EXPECT_EQ(validate_auth_event(signed_auth(kRelay, "other", kNow), kRelay, kChallenge, kNow).code(),
            errc::relay_auth_wrong_challenge);
  // Exact: no case folding, no trimming.
  EXPECT_EQ(validate_auth_event(signed_auth(kRelay, "ChallengeStringHere", kNow), kRelay, kChallenge, kNow).code(),
            errc::relay_auth_wrong_challenge);
  event_template t = auth_template(kRelay, kChallenge, kNow);
  t.tags.pop_back();
  EXPECT_EQ(validate_auth_event(finalize(t, key(), bytes32{}), kRelay, kChallenge, kNow).code(),
            errc::relay_auth_wrong_challenge);
}

TEST(relay_nip42_test, stale_either_side_of_the_window) {
  event e = signed_auth(kRelay, kChallenge, kNow);
  EXPECT_TRUE(validate_auth_event(e, kRelay, kChallenge, kNow + 600).ok());
  EXPECT_TRUE(validate_auth_event(e, kRelay, kChallenge, kNow - 600).ok());
  EXPECT_EQ(validate_auth_event(e, kRelay, kChallenge, kNow + 601).code(), errc::relay_auth_stale);
  EXPECT_EQ(validate_auth_event(e, kRelay, kChallenge, kNow - 601).code(), errc::relay_auth_stale);
  EXPECT_EQ(validate_auth_event(e, kRelay, kChallenge, kNow + 61, 60).code(), errc::relay_auth_stale);
  // A hostile created_at cannot overflow the comparison.
  event far = e;
  far.created_at = INT64_MAX;
  EXPECT_EQ(validate_auth_event(far, kRelay, kChallenge, kNow).code(), errc::relay_auth_stale);
}

TEST(relay_nip42_test, bad_signature_and_tampering) {
  event e = signed_auth(kRelay, kChallenge, kNow);
  event bad_sig = e;
  bad_sig.sig[0] = bad_sig.sig[0] == '0' ? '1' : '0';
  EXPECT_EQ(validate_auth_event(bad_sig, kRelay, kChallenge, kNow).code(), errc::invalid_signature);
  // Re-tagging a signed event for another challenge breaks the id.
  event replayed = signed_auth(kRelay, "old challenge", kNow);
  replayed.tags[1][1] = kChallenge;
  EXPECT_EQ(validate_auth_event(replayed, kRelay, kChallenge, kNow).code(), errc::id_mismatch);
  event no_sig = e;
  no_sig.sig.clear();
  EXPECT_EQ(validate_auth_event(no_sig, kRelay, kChallenge, kNow).code(), errc::invalid_event);
}

TEST(relay_nip42_test, relay_url_normalization) {
  struct {
    const char* in;
    const char* out;
  } ok[] = {
      {"wss://relay.example.com", "wss://relay.example.com"},
      {"  WSS://Relay.Example.COM/  ", "wss://relay.example.com"},
      {"wss://relay.example.com:443", "wss://relay.example.com"},
      {"wss://relay.example.com:8443/", "wss://relay.example.com:8443"},
      {"ws://127.0.0.1:80", "ws://127.0.0.1"},
      {"ws://127.0.0.1:443", "ws://127.0.0.1:443"},
      {"ws://localhost:7777//", "ws://localhost:7777"},
      {"wss://relay.example.com/Path/Sub/", "wss://relay.example.com/Path/Sub"},
      {"wss://relay.example.com/?token=A", "wss://relay.example.com?token=A"},
      {"wss://relay.example.com/#frag", "wss://relay.example.com"},
      {"wss://relay.example.com:", "wss://relay.example.com"},
      {"ws://[::1]:80/", "ws://[::1]"},
      {"ws://[::1]:7000", "ws://[::1]:7000"},
      {"ws://[::1]", "ws://[::1]"},
  };
  for (const auto& c : ok) {
    auto r = normalize_relay_url(c.in);
    ASSERT_TRUE(r.ok()) << c.in << ": " << r.err().detail;
    EXPECT_EQ(*r, c.out) << c.in;
  }
  for (const char* bad : {"", "relay.example.com", "https://relay.example.com", "wss://", "wss:///path",
                          "wss://:443", "wss://host:44x3", "wss://ho st", "wss://host/\x01"}) {
    EXPECT_EQ(normalize_relay_url(bad).code(), errc::relay_url_invalid) << bad;
  }
  EXPECT_TRUE(same_relay_url("wss://A.example/", "wss://a.example:443"));
  EXPECT_FALSE(same_relay_url("wss://a.example", "ws://a.example"));
  EXPECT_FALSE(same_relay_url("bad", "bad"));
}
