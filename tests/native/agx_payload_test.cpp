#include <gtest/gtest.h>

#include "agx_test_support.hpp"
#include "nips/nip59.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/payload.hpp"
#include "protocols/agx/size.hpp"
#include "protocols/agx/wrap.hpp"

using namespace nostr;
using namespace nostr::agx;
using namespace nostr::agx_test;

namespace {

const std::string kMid = "0123456789abcdef0123456789abcdef";
const std::string kCid = "fedcba9876543210fedcba9876543210";

message_fields fields(std::string text) {
  message_fields f;
  f.text = std::move(text);
  f.message_id = kMid;
  f.context_id = kCid;
  return f;
}

opened_wrap opened(const event& rumor, const std::string& from) {
  opened_wrap w;
  w.from = from;
  w.rumor = rumor;
  w.wrap_id = std::string(64, 'e');
  w.wrap_created_at = rumor.created_at - 10;
  return w;
}

}  // namespace

// AGX-WIRE.md "message rumor": the bytes JSON.stringify gives for the reference's payload.
TEST(agx_payload_test, message_payload_bytes_match_the_reference_shape) {
  EXPECT_EQ(*message_payload_json(fields("hi")),
            "{\"v\":1,\"kind\":\"message\",\"contentType\":\"application/a2a+json\",\"role\":\"user\","
            "\"messageId\":\"0123456789abcdef0123456789abcdef\",\"contextId\":\"fedcba9876543210fedcba9876543210\","
            "\"parts\":[{\"text\":\"hi\"}],\"subject\":null}");
  message_fields f = fields("line\n\"q\"");
  f.subject = "Invoice 1234";
  f.auto_depth = 3;
  EXPECT_EQ(*message_payload_json(f),
            "{\"v\":1,\"kind\":\"message\",\"contentType\":\"application/a2a+json\",\"role\":\"user\","
            "\"messageId\":\"0123456789abcdef0123456789abcdef\",\"contextId\":\"fedcba9876543210fedcba9876543210\","
            "\"parts\":[{\"text\":\"line\\n\\\"q\\\"\"}],\"subject\":\"Invoice 1234\",\"autoDepth\":3}");
  // autoDepth 0 is omitted; out-of-range values are clamped; an empty subject is null.
  f.auto_depth = 0;
  f.subject = "";
  EXPECT_EQ(message_payload_json(f)->find("autoDepth"), std::string::npos);
  EXPECT_NE(message_payload_json(f)->find("\"subject\":null"), std::string::npos);
  f.auto_depth = 1000;
  EXPECT_NE(message_payload_json(f)->find("\"autoDepth\":255}"), std::string::npos);
  f.auto_depth = -4;
  EXPECT_EQ(message_payload_json(f)->find("autoDepth"), std::string::npos);
  // new_id is the reference's randomId: 32 lowercase hex.
  std::uint8_t r16[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
  EXPECT_EQ(new_id(r16), kMid);
}

TEST(agx_payload_test, message_rumor_shape) {
  auto rumor = message_rumor(fields("hello"), alice().pub, bob().pub, kNow);
  ASSERT_TRUE(rumor.ok());
  EXPECT_EQ(rumor->kind, 3838);
  EXPECT_EQ(rumor->created_at, kNow);
  EXPECT_EQ(rumor->tags, (tag_list{{"p", bob().pub}, {"content-type", "application/a2a+json"}}));
  EXPECT_EQ(rumor->content, *message_payload_json(fields("hello")));
  EXPECT_EQ(rumor->id, compute_id_hex(*rumor));
  EXPECT_TRUE(rumor->sig.empty());
  // The rumor JSON the seal encrypts: {id,pubkey,created_at,kind,tags,content}, no sig.
  std::string j = nip59::rumor_to_json(*rumor);
  EXPECT_EQ(j.find("\"sig\""), std::string::npos);
  EXPECT_EQ(j.rfind("{\"id\":\"" + rumor->id + "\",\"pubkey\":\"" + alice().pub + "\",\"created_at\":", 0), 0u);

  EXPECT_EQ(message_rumor(fields("x"), "ALICE", bob().pub, kNow).code(), errc::invalid_public_key);
  EXPECT_EQ(message_rumor(fields(""), alice().pub, bob().pub, kNow).code(), errc::invalid_argument);
  EXPECT_EQ(message_rumor(fields("bad \xff utf8"), alice().pub, bob().pub, kNow).code(), errc::invalid_utf8);
  message_fields f = fields("x");
  f.subject = std::string(201, 's');
  EXPECT_EQ(message_rumor(f, alice().pub, bob().pub, kNow).code(), errc::invalid_argument);
  f.subject = std::string(200, 's');
  EXPECT_TRUE(message_rumor(f, alice().pub, bob().pub, kNow).ok());
  f.message_id = "";
  EXPECT_EQ(message_rumor(f, alice().pub, bob().pub, kNow).code(), errc::invalid_argument);
}

TEST(agx_payload_test, receipt_bytes_match_the_reference_shape) {
  std::string ref(64, 'c');
  auto r = receipt_rumor(ref, kCid, receipt_status::delivered, bob().pub, alice().pub, kNow);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, 3839);
  EXPECT_EQ(r->tags, (tag_list{{"p", alice().pub}, {"e", ref}}));
  EXPECT_EQ(r->content, "{\"v\":1,\"kind\":\"receipt\",\"refEventId\":\"" + ref +
                            "\",\"contextId\":\"fedcba9876543210fedcba9876543210\",\"status\":\"delivered\"}");
  EXPECT_EQ(receipt_rumor("not-an-id", kCid, receipt_status::delivered, bob().pub, alice().pub, kNow).code(),
            errc::invalid_argument);
  EXPECT_EQ(receipt_rumor(ref, "", receipt_status::delivered, bob().pub, alice().pub, kNow).code(),
            errc::invalid_argument);

  // Reading: e tag and refEventId must agree.
  auto ok = read_receipt(opened(*r, bob().pub));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->receipt.context_id, kCid);
  event no_e = *r;
  no_e.tags = {{"p", alice().pub}};
  EXPECT_EQ(read_receipt(opened(no_e, bob().pub)).code(), errc::agx_receipt_invalid);
  event other_e = *r;
  other_e.tags[1][1] = std::string(64, 'd');
  EXPECT_EQ(read_receipt(opened(other_e, bob().pub)).code(), errc::agx_receipt_invalid);
}

TEST(agx_payload_test, receipt_parse_rules) {
  EXPECT_TRUE(parse_receipt_payload(
                  "{\"v\":1,\"kind\":\"receipt\",\"refEventId\":\"a\",\"contextId\":\"b\",\"status\":\"quarantined\"}")
                  .ok());
  for (const char* bad : {
           "[]", "nope", "{\"v\":2,\"kind\":\"receipt\",\"refEventId\":\"a\",\"contextId\":\"b\",\"status\":\"delivered\"}",
           "{\"v\":1,\"kind\":\"message\",\"refEventId\":\"a\",\"contextId\":\"b\",\"status\":\"delivered\"}",
           "{\"v\":1,\"kind\":\"receipt\",\"refEventId\":\"\",\"contextId\":\"b\",\"status\":\"delivered\"}",
           "{\"v\":1,\"kind\":\"receipt\",\"refEventId\":\"a\",\"status\":\"delivered\"}",
           "{\"v\":1,\"kind\":\"receipt\",\"refEventId\":\"a\",\"contextId\":\"b\",\"status\":\"read\"}",
           "{\"v\":1,\"kind\":\"receipt\",\"refEventId\":7,\"contextId\":\"b\",\"status\":\"delivered\"}",
       })
    EXPECT_EQ(parse_receipt_payload(bad).code(), errc::agx_receipt_invalid) << bad;
}

TEST(agx_payload_test, parse_follows_the_reference_schema) {
  auto p = parse_message_payload(*message_payload_json(fields("hello")));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->text, "hello");
  EXPECT_EQ(p->role, "user");
  EXPECT_EQ(p->cls, content_class::text);
  EXPECT_FALSE(p->subject);
  EXPECT_EQ(p->auto_depth, 0);
  EXPECT_FALSE(p->auto_depth_present);

  // Defaults: no contentType means A2A; no role means user; parts are joined.
  auto d = parse_message_payload(
      "{\"v\":1,\"kind\":\"message\",\"messageId\":\"m\",\"contextId\":\"c\",\"parts\":[{\"text\":\"a\"},{\"text\":\"b\","
      "\"extra\":1}],\"role\":\"agent\",\"unknown\":true}");
  ASSERT_TRUE(d.ok()) << d.err().detail;
  EXPECT_EQ(d->content_type, "application/a2a+json");
  EXPECT_EQ(d->role, "agent");
  EXPECT_EQ(d->text, "ab");

  const std::string base = "\"v\":1,\"kind\":\"message\",\"messageId\":\"m\",\"contextId\":\"c\"";
  for (const std::string& bad : {
           std::string("{") + "\"v\":1,\"kind\":\"message\",\"messageId\":\"m\",\"contextId\":\"c\"}",  // no parts
           "{" + base + ",\"parts\":[]}",
           "{" + base + ",\"parts\":[{\"text\":\"\"}]}",  // empty text
           "{" + base + ",\"parts\":[{\"txt\":\"a\"}]}",
           "{" + base + ",\"parts\":[\"a\"]}",
           "{" + base + ",\"parts\":[{\"text\":\"a\"}],\"role\":\"system\"}",
           "{" + base + ",\"parts\":[{\"text\":\"a\"}],\"contentType\":null}",
           "{" + base + ",\"parts\":[{\"text\":\"a\"}],\"contentType\":\"" + std::string(129, 'x') + "\"}",
           "{" + base + ",\"parts\":[{\"text\":\"a\"}],\"subject\":5}",
           std::string("{\"v\":1,\"kind\":\"message\",\"messageId\":\"\",\"contextId\":\"c\",\"parts\":[{\"text\":\"a\"}]}"),
           std::string("{\"v\":1,\"kind\":\"message\",\"messageId\":\"") + std::string(201, 'm') +
               "\",\"contextId\":\"c\",\"parts\":[{\"text\":\"a\"}]}",
           std::string("{\"v\":\"1\",\"kind\":\"message\",\"messageId\":\"m\",\"contextId\":\"c\",\"parts\":[{\"text\":\"a\"}]}"),
           std::string("{\"v\":1,\"kind\":\"receipt\",\"messageId\":\"m\",\"contextId\":\"c\",\"parts\":[{\"text\":\"a\"}]}"),
           std::string("not json"),
           std::string("[1]"),
           std::string(1000, '[') + std::string(1000, ']'),  // nested too deeply
       })
    EXPECT_EQ(parse_message_payload(bad).code(), errc::agx_payload_invalid) << bad.substr(0, 120);

  std::string many_parts = "{" + base + ",\"parts\":[";
  for (int i = 0; i < 65; ++i) many_parts += std::string(i ? "," : "") + "{\"text\":\"a\"}";
  EXPECT_EQ(parse_message_payload(many_parts + "]}").code(), errc::agx_payload_invalid);

  // 200 units counted as JS does: 100 astral characters (2 units each) fit, 101 do not.
  std::string astral;
  for (int i = 0; i < 100; ++i) astral += "\xf0\x9f\x98\x80";
  EXPECT_TRUE(parse_message_payload("{\"v\":1,\"kind\":\"message\",\"messageId\":\"" + astral +
                                    "\",\"contextId\":\"c\",\"parts\":[{\"text\":\"a\"}]}")
                  .ok());
  EXPECT_EQ(parse_message_payload("{\"v\":1,\"kind\":\"message\",\"messageId\":\"" + astral + "\xf0\x9f\x98\x80" +
                                  "\",\"contextId\":\"c\",\"parts\":[{\"text\":\"a\"}]}")
                .code(),
            errc::agx_payload_invalid);
}

TEST(agx_payload_test, long_subject_is_shortened_not_fatal) {
  std::string j = "{\"v\":1,\"kind\":\"message\",\"messageId\":\"m\",\"contextId\":\"c\",\"parts\":[{\"text\":\"a\"}],"
                  "\"subject\":\"" + std::string(5000, 's') + "\"}";
  auto p = parse_message_payload(j);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->subject->size(), 200u);
}

TEST(agx_payload_test, auto_depth_unusable_counts_as_absent_and_never_fails_delivery) {
  auto with = [](const std::string& v) {
    return parse_message_payload("{\"v\":1,\"kind\":\"message\",\"messageId\":\"m\",\"contextId\":\"c\",\"parts\":[{"
                                 "\"text\":\"a\"}],\"autoDepth\":" + v + "}");
  };
  for (const char* bad : {"-1", "1.5", "256", "1e300", "\"3\"", "null", "true", "[3]", "{}", "99999999999999999999"}) {
    auto p = with(bad);
    ASSERT_TRUE(p.ok()) << bad;
    EXPECT_EQ(p->auto_depth, 0) << bad;
    EXPECT_FALSE(p->auto_depth_present) << bad;
  }
  for (auto [text, want] : {std::pair{"0", 0}, {"7", 7}, {"255", 255}, {"3.0", 3}}) {
    auto p = with(text);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->auto_depth, want) << text;
    EXPECT_TRUE(p->auto_depth_present);
  }
}

TEST(agx_payload_test, content_types_dispatch_and_unknown_is_never_misparsed) {
  EXPECT_EQ(classify_content_type("application/a2a+json"), content_class::text);
  EXPECT_EQ(classify_content_type("application/agx+json"), content_class::text);
  EXPECT_EQ(classify_content_type("application/json"), content_class::text);
  EXPECT_EQ(classify_content_type("application/agx-task+json"), content_class::task);
  EXPECT_EQ(classify_content_type("application/x-custom"), content_class::unknown);
  EXPECT_EQ(classify_content_type("APPLICATION/A2A+JSON"), content_class::unknown);

  // An unknown type is delivered as unknown, its text untouched and no task parsed out of it.
  message_fields f = fields("{\"t\":\"req\",\"taskId\":\"t\",\"capability\":\"c\"}");
  f.content_type = "application/x-custom";
  auto m = read_message(opened(*message_rumor(f, alice().pub, bob().pub, kNow), alice().pub));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->payload.cls, content_class::unknown);
  EXPECT_FALSE(m->task);
  EXPECT_EQ(m->payload.text, f.text);

  // A content-type tag that contradicts the payload's label: unknown, not either guess.
  f.content_type = std::string(kTaskContentType);
  event rumor = *message_rumor(f, alice().pub, bob().pub, kNow);
  rumor.tags[1][1] = "application/a2a+json";
  auto mixed = read_message(opened(rumor, alice().pub));
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(mixed->payload.cls, content_class::unknown);
  EXPECT_FALSE(mixed->task);

  // The matching label yields the task.
  auto task = read_message(opened(*message_rumor(f, alice().pub, bob().pub, kNow), alice().pub));
  ASSERT_TRUE(task.ok());
  ASSERT_TRUE(task->task);
  EXPECT_EQ(task->task->capability, "c");

  // A task-labelled text that is not an envelope: a message flagged malformed, not an error.
  f.text = "just words";
  auto malformed = read_message(opened(*message_rumor(f, alice().pub, bob().pub, kNow), alice().pub));
  ASSERT_TRUE(malformed.ok());
  EXPECT_TRUE(malformed->task_malformed);
  EXPECT_FALSE(malformed->task);

  // A bad payload in a 3838 rumor is AGX_PAYLOAD_INVALID; another kind is AGX_RUMOR_KIND.
  event junk = make_unsigned(event_template{kNow, 3838, {{"p", bob().pub}}, "{}"}, alice().pub);
  EXPECT_EQ(read_message(opened(junk, alice().pub)).code(), errc::agx_payload_invalid);
  junk.kind = 3839;
  EXPECT_EQ(read_message(opened(junk, alice().pub)).code(), errc::agx_rumor_kind);
}

TEST(agx_payload_test, interop_size_bound_is_derived_and_applies_to_the_serialized_rumor) {
  // SPEC.md "Message size": 28672, derived from a 65536-byte relay and two NIP-44 layers.
  EXPECT_EQ(derive_interop_max_rumor_bytes(), kInteropMaxRumorBytes);
  EXPECT_LE(worst_case_wrap_bytes(28672), 65536u);
  EXPECT_GT(worst_case_wrap_bytes(28673), 65536u);
  // NIP-44 v2 spec vector for calc_padded_len(74123) = 81920, through the payload formula.
  EXPECT_EQ(nip44_payload_bytes(74123), 4 * ((1 + 32 + 6 + 81920 + 32 + 2) / 3));

  // The check counts escaping: 10000 newlines are 10000 bytes of text but 40000+ in the rumor.
  std::string newlines(10000, '\n');
  EXPECT_EQ(message_rumor(fields(newlines), alice().pub, bob().pub, kNow).code(), errc::agx_too_large);
  // Find the largest plain text that fits and check the bound lands on the rumor's bytes.
  std::size_t lo = 1, hi = 40000;
  while (lo < hi) {
    std::size_t mid = (lo + hi + 1) / 2;
    if (message_rumor(fields(std::string(mid, 'x')), alice().pub, bob().pub, kNow).ok())
      lo = mid;
    else
      hi = mid - 1;
  }
  auto at_limit = message_rumor(fields(std::string(lo, 'x')), alice().pub, bob().pub, kNow);
  ASSERT_TRUE(at_limit.ok());
  EXPECT_EQ(rumor_bytes(*at_limit), kInteropMaxRumorBytes);
  EXPECT_TRUE(fits_interop(*at_limit));

  // And a wrap of the largest rumor really is within 65536 bytes.
  rng r{71};
  nip59::wrap_randomness rnd;
  r.fill(rnd);
  auto w = wrap_rumor(*at_limit, alice().sk, bob().pub, kNow, rnd);
  ASSERT_TRUE(w.ok());
  EXPECT_LE(to_json(*w).size(), kInteropMaxEventBytes);
}
