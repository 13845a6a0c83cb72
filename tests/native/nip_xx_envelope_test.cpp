#include <gtest/gtest.h>

#include "protocols/nip_xx/client_run.hpp"
#include "protocols/nip_xx/envelope.hpp"

using namespace nostr;
using namespace nostr::nip_xx;

TEST(nip_xx_envelope_test, parses_the_seed_examples) {
  auto env = parse_envelope(
      "event=tool|phase=start|name=web_fetch|call_id=call_123|target=https%3A%2F%2Fexample.com|ts=1771402416");
  ASSERT_TRUE(env.ok()) << env.err().detail;
  EXPECT_EQ(*env->get("target"), "https://example.com");
  EXPECT_EQ(*env->get("name"), "web_fetch");
  EXPECT_TRUE(check_envelope_for_kind(*env, kind::tool_call).ok());

  auto final_env = parse_envelope(
      "event=final|phase=end|text=Here%20is%20the%20answer...|finish_reason=stop|run_id=abc123|session_id=sender%3Aabc|"
      "ts=1771402425");
  ASSERT_TRUE(final_env.ok());
  EXPECT_EQ(*final_env->get("text"), "Here is the answer...");
  EXPECT_EQ(*final_env->get("session_id"), "sender:abc");
  EXPECT_TRUE(check_envelope_for_kind(*final_env, kind::response).ok());
  EXPECT_EQ(check_envelope_for_kind(*final_env, kind::delta).code(), errc::xx_invalid_schema);
}

TEST(nip_xx_envelope_test, aliases_unknown_keys_and_order) {
  auto env = parse_envelope("event=delta|phase=update|runId=r1|sessionId=s1|timestamp=5|text=a|zzz=ignored|text=b");
  ASSERT_TRUE(env.ok());
  EXPECT_EQ(*env->get("run_id"), "r1");
  EXPECT_EQ(*env->get("session_id"), "s1");
  EXPECT_EQ(*env->get("ts"), "5");
  EXPECT_EQ(*env->get("text"), "a");  // first value wins
  EXPECT_TRUE(check_envelope_for_kind(*env, kind::delta).ok());
  // Parts without '=' or with an empty key are skipped, as the seed's helper does.
  EXPECT_TRUE(parse_envelope("event=delta|junk|=x|phase=update|ts=1|block=b").ok());
}

TEST(nip_xx_envelope_test, required_keys_and_malformed_escapes) {
  EXPECT_EQ(parse_envelope("event=final|phase=end|text=x").code(), errc::xx_invalid_schema);  // no ts
  EXPECT_EQ(parse_envelope("phase=end|ts=1|text=x").code(), errc::xx_invalid_schema);        // no event
  EXPECT_EQ(parse_envelope("event=final|phase=end|ts=1|text=%E0%A4").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_envelope("event=final|phase=end|ts=1|text=%zz").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_envelope("event=final|phase=end|ts=1|text=%4").code(), errc::xx_invalid_schema);
  auto err = parse_envelope("event=error|phase=end|ts=1|code=RATE_LIMIT");
  ASSERT_TRUE(err.ok());
  EXPECT_EQ(check_envelope_for_kind(*err, kind::error).code(), errc::xx_invalid_schema);  // no text
  auto tool = parse_envelope("event=tool|phase=start|ts=1");
  ASSERT_TRUE(tool.ok());
  EXPECT_EQ(check_envelope_for_kind(*tool, kind::tool_call).code(), errc::xx_invalid_schema);
}

TEST(nip_xx_envelope_test, percent_encoding_matches_encodeURIComponent) {
  EXPECT_EQ(percent_encode("a b|c=d%e"), "a%20b%7Cc%3Dd%25e");
  EXPECT_EQ(percent_encode("-_.!~*'()"), "-_.!~*'()");
  EXPECT_EQ(percent_encode("\xc3\xa9"), "%C3%A9");
  EXPECT_EQ(*percent_decode("%C3%A9%7c"), "\xc3\xa9|");
  std::string all;
  for (int c = 1; c < 128; ++c) all.push_back(static_cast<char>(c));
  all += "\xf0\x9f\x92\x9c";
  EXPECT_EQ(*percent_decode(percent_encode(all)), all);
  auto text = format_envelope({{"event", "final"}, {"phase", "end"}, {"text", "x|y=z"}, {"ts", "1"}});
  EXPECT_EQ(text, "event=final|phase=end|text=x%7Cy%3Dz|ts=1");
  EXPECT_EQ(*parse_envelope(text)->get("text"), "x|y=z");
  EXPECT_EQ(to_snake_case("finishReason"), "finish_reason");
}

// The envelope is recognized only where the seed says it applies: a whole envelope, with the
// required keys of the event's kind. Everything else is that kind's plain text.
TEST(nip_xx_envelope_test, only_whole_envelopes_of_the_kind_are_envelopes) {
  // The seed's own examples, each for its kind.
  EXPECT_TRUE(looks_like_envelope(
      "event=final|phase=end|text=Here%20is%20the%20answer...|finish_reason=stop|run_id=abc123|session_id=sender%3Aabc|"
      "ts=1771402425",
      kind::response));
  EXPECT_TRUE(looks_like_envelope(
      "event=delta|mode=thinking|status=update|phase=update|block=Looking%20up%20latest%20pricing|text=Looking%20up%20"
      "latest%20pricing|run_id=abc123|session_id=sender%3Aabc|ts=1771402418",
      kind::delta));
  EXPECT_TRUE(looks_like_envelope(
      "event=tool|phase=start|name=web_fetch|call_id=call_123|target=https%3A%2F%2Fexample.com|ts=1771402416",
      kind::tool_call));
  EXPECT_TRUE(looks_like_envelope("event=error|phase=end|code=TOOL_ERROR|text=failed|ts=1", kind::error));
  EXPECT_TRUE(looks_like_envelope("phase=update|text=x|timestamp=5|event=delta", kind::delta));  // any order, alias
  // Plain text that merely starts like one.
  for (const char* plain : {"event=", "event=x", "event=delta", "event=click fired twice", "event=delta|phase=update",
                            "event=delta|phase=update|text=hi",                 // no ts
                            "event=delta|phase=update|text=hi|ts=soon",         // ts not a number
                            "event=delta|phase=update|ts=1",                    // neither text nor block
                            "event=delta|phase=update|text=100%zz|ts=1",        // not percent-encoded
                            "event=delta|phase=update|text=%E0%A4|ts=1",        // not UTF-8
                            "event=delta|phase=update|text=hi|ts=1|",           // an empty part
                            "event=delta|phase=update|text=hi|ts=1|and more",   // a part that is no field
                            "event=delta| phase=update|text=hi|ts=1",           // a key with a space
                            "event=delta|phase=update|my key=1|text=hi|ts=1",
                            "Event=delta|phase=update|text=hi|ts=1", "text=hi|phase=update|ts=1"})
    EXPECT_FALSE(looks_like_envelope(plain, kind::delta)) << plain;
  // A whole envelope, but of another kind.
  EXPECT_FALSE(looks_like_envelope("event=final|phase=end|text=x|ts=1", kind::delta));
  EXPECT_FALSE(looks_like_envelope("event=delta|phase=update|text=x|ts=1", kind::response));
  EXPECT_FALSE(looks_like_envelope("event=final|phase=start|text=x|ts=1", kind::response));
  // Kinds without an envelope.
  for (kind k : {kind::status, kind::prompt, kind::cancel, kind::info})
    EXPECT_FALSE(looks_like_envelope("event=delta|phase=update|text=x|ts=1", k));
}

// What an agent sends for any text reads back as exactly that text (visible_text, the client's
// reading): plain text as it is, envelope look-alikes inside an envelope of the kind.
TEST(nip_xx_envelope_test, text_for_wire_reads_back_verbatim) {
  EXPECT_EQ(text_for_wire(kind::delta, "event=click", 5), "event=click");
  EXPECT_EQ(text_for_wire(kind::delta, "event=delta|phase=update|text=hi|ts=1", 5),
            "event=delta|phase=update|text=event%3Ddelta%7Cphase%3Dupdate%7Ctext%3Dhi%7Cts%3D1|ts=5");
  EXPECT_EQ(text_for_wire(kind::response, "event=final|phase=end|text=x|ts=1", 7),
            "event=final|phase=end|text=event%3Dfinal%7Cphase%3Dend%7Ctext%3Dx%7Cts%3D1|ts=7");
  for (kind k : {kind::delta, kind::response}) {
    for (const char* text :
         {"", "hello", "event=", "event=delta", "event=delta|phase=update|text=hi|ts=1",
          "event=final|phase=end|text=Here%20is|ts=1771402425", "event=delta|mode=thinking|phase=update|block=b|ts=1",
          "event=delta|phase=update|text=%25|ts=1", "event=final|phase=end|text=%E2%82%AC|ts=9|x=%F0%9F%92%9C"}) {
      std::string wire = text_for_wire(k, text, 1771402400);
      auto seen = visible_text(k, wire);
      ASSERT_TRUE(seen.ok()) << text;
      EXPECT_EQ(seen->text, text);
      EXPECT_FALSE(seen->thinking) << text;
    }
  }
}
