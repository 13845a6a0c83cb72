#include <gtest/gtest.h>

#include <functional>

#include "event/event.hpp"
#include "event/event_json.hpp"
#include "event/filter.hpp"
#include "test_support.hpp"
#include "util/hex.hpp"

using namespace nostr;

namespace {

const bytes32 kAux{};

crypto::keypair test_key() {
  return *crypto::keypair::from_secret(
      *hex::decode32("67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa"));
}

event signed_note(const std::string& content, tag_list tags = {}) {
  event_template t;
  t.created_at = 1700000000;
  t.kind = 1;
  t.tags = std::move(tags);
  t.content = content;
  return finalize(t, test_key(), kAux);
}

}  // namespace

TEST(event_test, serialization_escapes_like_json_stringify) {
  std::string s;
  append_json_string(s, std::string("a\"b\\c\nd\re\tf\bg\fh\x01i\x1fj\x7fk\xc3\xa9l", 24));
  EXPECT_EQ(s, std::string("\"a\\\"b\\\\c\\nd\\re\\tf\\bg\\fh\\u0001i\\u001fj\x7fk\xc3\xa9l\""));
  EXPECT_EQ(serialize_for_id("ab", 5, 1, {{"e", "x"}, {"p"}}, "hi"), "[0,\"ab\",5,1,[[\"e\",\"x\"],[\"p\"]],\"hi\"]");
}

TEST(event_test, spec_examples_verify) {
  auto v = test::load_vector_json("nips-spec-examples.json");
  ASSERT_FALSE(v.is_discarded());
  int checked = 0;
  // Every fully signed event in the spec examples (NIP-13 mined event, NIP-59 seal and wrap).
  std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& j) {
    if (j.is_object() && j.contains("sig") && j.contains("id") && j.contains("pubkey")) {
      auto e = parse_event(j.dump());
      ASSERT_TRUE(e.ok()) << j.dump();
      auto r = verify(*e);
      EXPECT_TRUE(r.ok()) << j.dump() << " " << (r.ok() ? "" : r.err().detail);
      ++checked;
    }
    if (j.is_structured())
      for (const auto& c : j) walk(c);
  };
  walk(v);
  EXPECT_GE(checked, 3);
}

TEST(event_test, finalize_then_verify_round_trip) {
  event e = signed_note("hello\nworld \xf0\x9f\x92\x9c", {{"p", std::string(64, 'a')}});
  EXPECT_TRUE(verify(e).ok());
  auto parsed = parse_event(to_json(e));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->id, e.id);
  EXPECT_EQ(parsed->content, e.content);
  EXPECT_TRUE(verify(*parsed).ok());
}

TEST(event_test, tampering_is_detected_with_distinct_codes) {
  event e = signed_note("original");
  event c = e;
  c.content = "changed";
  EXPECT_EQ(verify(c).code(), errc::id_mismatch);
  event s = e;
  s.sig[0] = s.sig[0] == '0' ? '1' : '0';
  EXPECT_EQ(verify(s).code(), errc::invalid_signature);
  event up = e;
  up.id[0] = 'A';
  EXPECT_EQ(verify(up).code(), errc::invalid_event);
  event k = e;
  k.kind = 70000;
  EXPECT_EQ(verify(k).code(), errc::invalid_event);
}

TEST(event_test, parse_rejects_malformed) {
  EXPECT_EQ(parse_event("{").code(), errc::invalid_json);
  EXPECT_EQ(parse_event("[]").code(), errc::invalid_event);
  EXPECT_EQ(parse_event(R"({"id":"a","pubkey":"b","created_at":1.5,"kind":1,"tags":[],"content":"","sig":""})").code(),
            errc::invalid_event);
  EXPECT_EQ(parse_event(R"({"id":"a","pubkey":"b","created_at":1,"kind":1,"tags":[[1]],"content":"","sig":""})").code(),
            errc::invalid_event);
  EXPECT_EQ(parse_event(R"({"id":"a","pubkey":"b","created_at":1,"kind":1,"tags":[],"sig":""})").code(),
            errc::invalid_event);
}

TEST(event_test, kind_classes) {
  EXPECT_EQ(classify_kind(1), kind_class::regular);
  EXPECT_EQ(classify_kind(0), kind_class::replaceable);
  EXPECT_EQ(classify_kind(3), kind_class::replaceable);
  EXPECT_EQ(classify_kind(10002), kind_class::replaceable);
  EXPECT_EQ(classify_kind(25800), kind_class::ephemeral);
  EXPECT_EQ(classify_kind(31340), kind_class::addressable);
  EXPECT_EQ(classify_kind(40000), kind_class::unknown);
  EXPECT_EQ(classify_kind(500), kind_class::regular);
  EXPECT_EQ(classify_kind(9999), kind_class::regular);
  EXPECT_EQ(classify_kind(39999), kind_class::addressable);
  EXPECT_EQ(classify_kind(65535), kind_class::unknown);
  EXPECT_EQ(classify_kind(-1), kind_class::unknown);
  EXPECT_EQ(classify_kind(65536), kind_class::unknown);
  EXPECT_EQ(classify_kind(1059), kind_class::regular);
}

TEST(event_test, filter_matching) {
  event e = signed_note("x", {{"p", "abc"}, {"t", "nostr"}});
  auto f = [](const char* json) { return *parse_filter(json); };
  EXPECT_TRUE(matches(f("{}"), e));
  EXPECT_TRUE(matches(f(R"({"kinds":[1,2]})"), e));
  EXPECT_FALSE(matches(f(R"({"kinds":[2]})"), e));
  EXPECT_FALSE(matches(f(R"({"kinds":[]})"), e));
  EXPECT_TRUE(matches(f(("{\"authors\":[\"" + e.pubkey + "\"]}").c_str()), e));
  EXPECT_TRUE(matches(f(("{\"ids\":[\"" + e.id + "\"]}").c_str()), e));
  EXPECT_FALSE(matches(f(R"({"ids":["00"]})"), e));
  EXPECT_TRUE(matches(f(R"({"#p":["zzz","abc"]})"), e));
  EXPECT_FALSE(matches(f(R"({"#p":["zzz"]})"), e));
  EXPECT_FALSE(matches(f(R"({"#e":["abc"]})"), e));
  EXPECT_TRUE(matches(f(R"({"#t":["nostr"],"#p":["abc"]})"), e));
  EXPECT_TRUE(matches(f(R"({"since":1700000000,"until":1700000000})"), e));
  EXPECT_FALSE(matches(f(R"({"since":1700000001})"), e));
  EXPECT_FALSE(matches(f(R"({"until":1699999999})"), e));
  EXPECT_TRUE(matches(f(R"({"limit":0})"), e));
  EXPECT_EQ(parse_filter(R"({"kinds":["1"]})").code(), errc::invalid_filter);
  EXPECT_EQ(parse_filter(R"({"#p":"abc"})").code(), errc::invalid_filter);
  EXPECT_EQ(parse_filter("[").code(), errc::invalid_json);
  EXPECT_EQ(to_json(f(R"({"kinds":[1],"#p":["a"],"limit":3})")), R"({"kinds":[1],"#p":["a"],"limit":3})");
}
