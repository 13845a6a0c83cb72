#include <gtest/gtest.h>

#include "protocols/nip_xx/payload.hpp"

using namespace nostr;
using namespace nostr::nip_xx;

TEST(nip_xx_payload_test, prompt_valid_and_round_trip) {
  auto p = parse_prompt(
      R"({"ver":1,"message":"hi","thinking":"high","model":"m","tool_schema_version":2,"fallback_models":["a","b"],"extra":{"x":1}})");
  ASSERT_TRUE(p.ok()) << p.err().detail;
  EXPECT_EQ(p->message, "hi");
  EXPECT_EQ(*p->thinking, "high");
  EXPECT_EQ(*p->tool_schema_version, 2);
  EXPECT_EQ(p->fallback_models->size(), 2u);
  auto again = parse_prompt(to_json(*p));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->model, p->model);
  // JSON Schema integers and const accept integral floats.
  EXPECT_TRUE(parse_prompt(R"({"ver":1.0,"message":"x","tool_schema_version":3.0})").ok());
}

TEST(nip_xx_payload_test, prompt_errors_are_typed) {
  EXPECT_EQ(parse_prompt("{").code(), errc::xx_parse_error);
  EXPECT_EQ(parse_prompt("").code(), errc::xx_parse_error);
  EXPECT_EQ(parse_prompt("[]").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_prompt(R"({"message":"x"})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_prompt(R"({"ver":2,"message":"x"})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_prompt(R"({"ver":"1","message":"x"})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_prompt(R"({"ver":1})").code(), errc::xx_invalid_schema);  // conformance example 1
  EXPECT_EQ(parse_prompt(R"({"ver":1,"message":""})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_prompt(R"({"ver":1,"message":"x","thinking":"extreme"})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_prompt(R"({"ver":1,"message":"x","model":""})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_prompt(R"({"ver":1,"message":"x","tool_schema_version":0})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_prompt(R"({"ver":1,"message":"x","tool_schema_version":1.5})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_prompt(R"({"ver":1,"message":"x","fallback_models":[1]})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_prompt(R"({"ver":1,"message":7})").code(), errc::xx_invalid_schema);
}

TEST(nip_xx_payload_test, cancel_status_delta_response) {
  EXPECT_TRUE(parse_cancel(R"({"ver":1,"reason":"timeout"})").ok());
  EXPECT_EQ(parse_cancel(R"({"ver":1,"reason":"bored"})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_cancel(R"({"ver":1})").code(), errc::xx_invalid_schema);

  auto s = parse_status(R"({"ver":1,"state":"tool_use","progress":100,"info":"x"})");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s->progress, 100);
  EXPECT_EQ(parse_status(R"({"ver":1,"state":"tool_use","progress":101})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_status(R"({"ver":1,"state":"sleeping"})").code(), errc::xx_invalid_schema);

  auto d = parse_delta(R"({"ver":1,"text":"","seq":0})");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d->seq, 0);
  EXPECT_EQ(parse_delta(R"({"ver":1,"text":"a","seq":-1})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_delta(R"({"ver":1,"seq":1})").code(), errc::xx_invalid_schema);

  auto r = parse_response(R"({"ver":1,"text":"done","usage":{"input_tokens":1,"output_tokens":2}})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->usage->output_tokens, 2);
  EXPECT_EQ(parse_response(R"({"ver":1,"text":"done","usage":{"input_tokens":1}})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_response(R"({"ver":1,"text":"done","usage":[]})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_response(R"({"ver":1,"text":"done","timestamp":-5})").code(), errc::xx_invalid_schema);
}

TEST(nip_xx_payload_test, tool_call_one_of) {
  EXPECT_TRUE(parse_tool_call(R"({"ver":1,"name":"calc","phase":"start","arguments":{"expr":"1+1"}})").ok());
  EXPECT_TRUE(parse_tool_call(R"({"ver":1,"text":"event=tool|phase=start|name=x|ts=1"})").ok());
  // Both branches of oneOf hold: invalid. Neither holds: invalid.
  EXPECT_EQ(parse_tool_call(R"({"ver":1,"text":"t","name":"calc","phase":"start"})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_tool_call(R"({"ver":1,"name":"calc"})").code(), errc::xx_invalid_schema);
  // Text plus only a name: the second branch does not hold, so exactly one does.
  EXPECT_TRUE(parse_tool_call(R"({"ver":1,"text":"t","name":"calc"})").ok());
  EXPECT_EQ(parse_tool_call(R"({"ver":1,"name":"calc","phase":"middle"})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_tool_call(R"({"ver":1,"name":"calc","phase":"start","arguments":[1]})").code(),
            errc::xx_invalid_schema);
  EXPECT_EQ(parse_tool_call(R"({"ver":1,"name":"calc","phase":"result","success":"yes"})").code(),
            errc::xx_invalid_schema);
  EXPECT_EQ(parse_tool_call(R"({"ver":1,"name":"calc","phase":"result","duration_ms":-1})").code(),
            errc::xx_invalid_schema);
}

TEST(nip_xx_payload_test, error_codes) {
  auto e = parse_error(R"({"ver":1,"code":"RATE_LIMIT","message":"slow down","retry_after":30,"details":{"a":1}})");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(*e->retry_after, 30);
  EXPECT_EQ(parse_error(R"({"ver":1,"code":"NOPE","message":"x"})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_error(R"({"ver":1,"code":"CANCELLED","message":""})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_error(R"({"ver":1,"code":"CANCELLED","message":"x","retry_after":0})").code(),
            errc::xx_invalid_schema);
  for (const char* c : {"UNSUPPORTED_ENCRYPTION", "INVALID_SEQUENCE", "INTERNAL_ERROR", "EMPTY_RESPONSE"})
    EXPECT_TRUE(is_protocol_error_code(c)) << c;
}

TEST(nip_xx_payload_test, info_from_the_seed_example) {
  const char* seed = R"({
    "ver": 1, "supports_streaming": true, "supports_nip59": true, "dvm_compatible": false,
    "encryption": ["nip44"], "supported_models": ["gpt-4.1-mini", "llama-3.1-70b"],
    "default_model": "gpt-4.1-mini", "tool_names": ["web_fetch", "calculator"],
    "tool_schema_version": 1, "max_prompt_bytes": 32000, "max_context_tokens": 128000,
    "tool_schemas": {"calculator": {"schema_version": 1, "description": "Evaluate arithmetic expressions",
      "requires_approval": false, "input_schema": {"type": "object", "properties": {"expr": {"type": "string"},
      "precision": {"type": "number"}}, "required": ["expr"]}}},
    "pricing_hints": {"currency": "USD", "per_1k_prompt_tokens": 0.002, "per_1k_output_tokens": 0.004}})";
  auto info = parse_info(seed);
  ASSERT_TRUE(info.ok()) << info.err().detail;
  EXPECT_EQ(info->tool_names.size(), 2u);
  ASSERT_EQ(info->tool_schemas.size(), 1u);
  EXPECT_EQ(info->tool_schemas[0].first, "calculator");
  EXPECT_EQ(*info->max_prompt_bytes, 32000);
  auto again = parse_info(to_json(*info));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->default_model, info->default_model);

  EXPECT_EQ(parse_info(R"({"ver":1,"encryption":["nip04"],"tool_names":[]})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_info(R"({"ver":1,"encryption":["nip44"]})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(parse_info(R"({"ver":1,"encryption":["nip44"],"tool_names":[],"tool_schemas":{"x":{"schema_version":1,"description":"d"}}})")
                .code(),
            errc::xx_invalid_schema);
  EXPECT_EQ(parse_info(R"({"ver":1,"encryption":["nip44"],"tool_names":[],"max_prompt_bytes":0})").code(),
            errc::xx_invalid_schema);
  auto d = default_info();
  EXPECT_TRUE(*d.supports_streaming);
  EXPECT_TRUE(d.tool_names.empty());
  EXPECT_TRUE(parse_info(to_json(d)).ok());
}

TEST(nip_xx_payload_test, validate_payload_dispatches_by_kind) {
  EXPECT_TRUE(validate_payload(25801, R"({"ver":1,"text":"x"})").ok());
  EXPECT_EQ(validate_payload(25803, R"({"ver":1})").code(), errc::xx_invalid_schema);
  EXPECT_EQ(validate_payload(1, R"({"ver":1})").code(), errc::invalid_argument);
}

// The privacy-first rumor's content: the payload itself (a JSON object), or NIP-44 ciphertext
// (base64, which never holds '{') from a peer that encrypts the rumor too.
TEST(nip_xx_payload_test, rumor_content_form) {
  EXPECT_TRUE(rumor_content_is_payload(R"({"ver":1,"message":"hi"})"));
  EXPECT_TRUE(rumor_content_is_payload(" \n\t{\"ver\":1}"));
  EXPECT_FALSE(rumor_content_is_payload("AgH0b2xkIHRleHQ="));  // a NIP-44 v2 payload starts with "A"
  EXPECT_FALSE(rumor_content_is_payload(""));
  EXPECT_FALSE(rumor_content_is_payload("[1]"));
  EXPECT_FALSE(rumor_content_is_payload("not json {"));
}
