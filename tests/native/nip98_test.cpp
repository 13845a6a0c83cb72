// NIP-98 HTTP auth: the template, tokens and checks, with the spec's example event and header
// (tests/vectors/nip98.json).
#include "nips/nip98.hpp"

#include <gtest/gtest.h>

#include "crypto/secp256k1.hpp"
#include "util/hex.hpp"
#include "test_support.hpp"

using namespace nostr;

namespace {

constexpr std::int64_t kNow = 1700000000;

event signed_auth(const std::string& url, const std::string& method, std::optional<std::string> payload,
                  std::int64_t created_at = kNow) {
  bytes32 sk{};
  sk[31] = 7;
  auto t = nip98::auth_template(url, method, payload ? std::optional<std::string_view>(*payload) : std::nullopt, created_at);
  EXPECT_TRUE(t.ok());
  return finalize(*t, *crypto::keypair::from_secret(sk), bytes32{});
}

event from_json(const nlohmann::json& j) { return *parse_event(j.dump()); }

}  // namespace

TEST(nip98_test, spec_example_event_and_header) {
  auto v = test::load_vector_json("nip98.json");
  ASSERT_FALSE(v.is_discarded());
  const std::string url = v["url"], method = v["method"];
  std::int64_t at = v["example_event"]["created_at"].get<std::int64_t>();
  // The printed event carries the `u` tag over the id and sig of the older `url` form.
  event printed = from_json(v["example_event"]);
  EXPECT_EQ(nip98::validate(printed, {url, method, std::nullopt}, at).code(), errc::id_mismatch);
  EXPECT_TRUE(nip98::check_url(printed, url).ok());
  // The header's event: validly signed, and its tag is `url`, which the NIP now calls `u`.
  std::string header = v["authorization_header"];
  auto e = nip98::decode_token(header);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->tags, v["header_event_tags"].get<tag_list>());
  EXPECT_TRUE(verify(*e).ok());
  EXPECT_EQ(nip98::validate(*e, {url, method, std::nullopt}, at).code(), errc::nip98_wrong_url);
  EXPECT_TRUE(nip98::check_method(*e, "get").ok());
  EXPECT_TRUE(nip98::check_time(*e, at + 59, 60).ok());
  EXPECT_EQ(nip98::check_time(*e, at + 60, 60).code(), errc::nip98_stale);
  // The same token without the scheme, and encoded back.
  EXPECT_TRUE(nip98::decode_token(header.substr(6)).ok());
  EXPECT_EQ(nip98::decode_token(nip98::encode_token(*e, true))->id, e->id);
}

TEST(nip98_test, template_then_every_check_in_order) {
  const std::string body_hash = nip98::payload_hash(reinterpret_cast<const std::uint8_t*>("{\"a\":1}"), 7);
  event e = signed_auth("https://api.example.com/x?y=1", "POST", body_hash);
  EXPECT_EQ(e.kind, nip98::kKind);
  EXPECT_EQ(e.content, "");
  EXPECT_EQ(e.tags, (tag_list{{"u", "https://api.example.com/x?y=1"}, {"method", "POST"}, {"payload", body_hash}}));
  nip98::request ok{"https://api.example.com/x?y=1", "post", std::string_view(body_hash)};
  EXPECT_TRUE(nip98::validate(e, ok, kNow).ok());
  EXPECT_TRUE(nip98::validate(e, {ok.url, ok.method, std::nullopt}, kNow).ok());  // the server has no body to check
  EXPECT_EQ(nip98::validate(e, {"https://api.example.com/x", "POST", std::nullopt}, kNow).code(), errc::nip98_wrong_url);
  EXPECT_EQ(nip98::validate(e, {ok.url, "PUT", std::nullopt}, kNow).code(), errc::nip98_wrong_method);
  std::string other(64, '0');
  EXPECT_EQ(nip98::validate(e, {ok.url, "POST", std::string_view(other)}, kNow).code(), errc::nip98_wrong_payload);
  EXPECT_EQ(nip98::validate(e, ok, kNow + 60).code(), errc::nip98_stale);
  EXPECT_EQ(nip98::validate(e, ok, kNow - 60).code(), errc::nip98_stale);
  EXPECT_TRUE(nip98::validate(e, ok, kNow - 59).ok());
  event wrong_kind = e;
  wrong_kind.kind = 1;
  EXPECT_EQ(nip98::check_kind(wrong_kind).code(), errc::nip98_wrong_kind);
  event tampered = e;
  tampered.tags[0][1] = "https://evil.example.com/";
  EXPECT_EQ(nip98::validate(tampered, {tampered.tags[0][1], "POST", std::nullopt}, kNow).code(), errc::id_mismatch);
  // Far-off created_at on both sides never overflows.
  event far = e;
  far.created_at = INT64_MAX;
  EXPECT_EQ(nip98::check_time(far, kNow, 60).code(), errc::nip98_stale);
  far.created_at = INT64_MIN;
  EXPECT_EQ(nip98::check_time(far, kNow, 60).code(), errc::nip98_stale);
}

TEST(nip98_test, bad_template_inputs) {
  for (const std::string& url : {"", "/relative", "ftp://x.example.com/", "https://", "https:///x",
                                 "https://a b.example.com/", "https://x.example.com/\n"})
    EXPECT_EQ(nip98::auth_template(url, "GET", std::nullopt, kNow).code(), errc::invalid_argument) << url;
  for (const std::string& m : {"", "GE T", "GET\r\n", "G(ET"})
    EXPECT_EQ(nip98::auth_template("https://x.example.com/", m, std::nullopt, kNow).code(), errc::invalid_argument) << m;
  EXPECT_EQ(nip98::auth_template("https://x.example.com/", "GET", std::string_view("abc"), kNow).code(), errc::invalid_argument);
  EXPECT_TRUE(nip98::auth_template("http://test.com", "get", std::nullopt, kNow).ok());
  // An upper-case payload hash is written in lower case.
  std::string upper(64, 'A');
  EXPECT_EQ(nip98::auth_template("http://test.com", "post", std::string_view(upper), kNow)->tags[2][1], std::string(64, 'a'));
}

TEST(nip98_test, bad_tokens) {
  event e = signed_auth("https://x.example.com/", "GET", std::nullopt);
  std::string token = nip98::encode_token(e, false);
  EXPECT_TRUE(nip98::decode_token("nostr " + token).ok());
  EXPECT_TRUE(nip98::decode_token("Nostr   " + token).ok());
  for (const std::string& bad : {std::string(""), std::string("Nostr "), std::string("fake"), std::string("Nostr"),
                                 std::string("W10="),  // "[]"
                                 std::string("e30="),  // "{}": not an event
                                 token + "=", "Bearer " + token, std::string(70000, 'A')})
    EXPECT_EQ(nip98::decode_token(bad).code(), errc::nip98_invalid_token) << bad.substr(0, 40);
}
