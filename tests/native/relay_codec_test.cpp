// NIP-01 messages both ways: round trips, every malformed-frame error, OK and CLOSED prefixes.
#include <gtest/gtest.h>

#include "event/event.hpp"
#include "relay/client_message.hpp"
#include "relay/reason.hpp"
#include "relay/relay_message.hpp"
#include "relay/sub_id.hpp"
#include "util/hex.hpp"

using namespace nostr;
using namespace nostr::relay;

namespace {

event signed_note(const std::string& content) {
  auto key = *crypto::keypair::from_secret(
      *hex::decode32("67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa"));
  event_template t;
  t.created_at = 1700000000;
  t.kind = 1;
  t.tags = {{"p", std::string(64, 'a')}, {"t", "x\"y"}};
  t.content = content;
  return finalize(t, key, bytes32{});
}

filter kind_filter(std::int64_t kind) {
  filter f;
  f.kinds = std::vector<std::int64_t>{kind};
  return f;
}

template <class T, class V>
const T& as(const V& v) {
  EXPECT_TRUE(std::holds_alternative<T>(v));
  return std::get<T>(v);
}

errc client_code(std::string_view frame) { return decode_client_message(frame).code(); }
errc relay_code(std::string_view frame) { return decode_relay_message(frame).code(); }

const std::string kId(64, 'b');

std::string quoted(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

}  // namespace

// --- Client to relay.

TEST(relay_codec_test, client_event_round_trip) {
  event e = signed_note("hello \n \"world\"");
  std::string frame = encode_client_event(e);
  EXPECT_EQ(frame.rfind("[\"EVENT\",{", 0), 0u);
  auto m = decode_client_message(frame);
  ASSERT_TRUE(m.ok()) << m.err().detail;
  const auto& got = as<client_event>(*m);
  EXPECT_EQ(got.ev.id, e.id);
  EXPECT_EQ(got.ev.content, e.content);
  EXPECT_EQ(got.ev.tags, e.tags);
  EXPECT_TRUE(verify(got.ev).ok());
  EXPECT_EQ(*encode(*m), frame);
}

TEST(relay_codec_test, client_req_round_trip_with_several_filters) {
  filter a = kind_filter(1);
  a.since = 10;
  a.limit = 5;
  filter b;
  b.tags["p"] = {std::string(64, 'c')};
  auto frame = encode_req("sub-1", {a, b});
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(*frame, "[\"REQ\",\"sub-1\",{\"kinds\":[1],\"since\":10,\"limit\":5},{\"#p\":[\"" +
                        std::string(64, 'c') + "\"]}]");
  auto m = decode_client_message(*frame);
  ASSERT_TRUE(m.ok()) << m.err().detail;
  const auto& req = as<client_req>(*m);
  EXPECT_EQ(req.sub_id, "sub-1");
  ASSERT_EQ(req.filters.size(), 2u);
  EXPECT_EQ(req.filters[0].since, 10);
  EXPECT_EQ(req.filters[1].tags.at("p").size(), 1u);
  EXPECT_EQ(*encode(*m), *frame);
}

TEST(relay_codec_test, client_close_auth_count_round_trip) {
  auto close = encode_close("s");
  ASSERT_TRUE(close.ok());
  EXPECT_EQ(*close, "[\"CLOSE\",\"s\"]");
  auto m = decode_client_message(*close);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(as<client_close>(*m).sub_id, "s");

  event e = signed_note("auth");
  auto auth = decode_client_message(encode_client_auth(e));
  ASSERT_TRUE(auth.ok());
  EXPECT_EQ(as<client_auth>(*auth).ev.sig, e.sig);
  EXPECT_EQ(*encode(*auth), encode_client_auth(e));

  auto count = encode_count("c", {kind_filter(7)});
  ASSERT_TRUE(count.ok());
  auto cm = decode_client_message(*count);
  ASSERT_TRUE(cm.ok());
  EXPECT_EQ(as<client_count>(*cm).sub_id, "c");
  EXPECT_EQ(as<client_count>(*cm).filters.at(0).kinds->at(0), 7);
  EXPECT_EQ(*encode(*cm), *count);
}

TEST(relay_codec_test, client_malformed_frames_have_typed_errors) {
  EXPECT_EQ(client_code(""), errc::relay_frame_invalid);
  EXPECT_EQ(client_code("[\"EVENT\","), errc::relay_frame_invalid);
  EXPECT_EQ(client_code("{\"EVENT\":1}"), errc::relay_frame_invalid);
  EXPECT_EQ(client_code("\"REQ\""), errc::relay_frame_invalid);
  EXPECT_EQ(client_code("[]"), errc::relay_frame_invalid);
  EXPECT_EQ(client_code("[1,\"s\"]"), errc::relay_frame_type);
  EXPECT_EQ(client_code("[\"PING\"]"), errc::relay_frame_unknown_verb);
  EXPECT_EQ(client_code("[\"req\",\"s\",{}]"), errc::relay_frame_unknown_verb);  // verbs are case-sensitive
  EXPECT_EQ(client_code("[\"EOSE\",\"s\"]"), errc::relay_frame_unknown_verb);   // wrong direction
  EXPECT_EQ(client_code("[\"OK\",\"" + kId + "\",true,\"\"]"), errc::relay_frame_unknown_verb);
  // Arity.
  EXPECT_EQ(client_code("[\"EVENT\"]"), errc::relay_frame_arity);
  EXPECT_EQ(client_code("[\"EVENT\",{},{}]"), errc::relay_frame_arity);
  EXPECT_EQ(client_code("[\"REQ\",\"s\"]"), errc::relay_frame_arity);
  EXPECT_EQ(client_code("[\"REQ\"]"), errc::relay_frame_arity);
  EXPECT_EQ(client_code("[\"CLOSE\"]"), errc::relay_frame_arity);
  EXPECT_EQ(client_code("[\"CLOSE\",\"s\",\"t\"]"), errc::relay_frame_arity);
  EXPECT_EQ(client_code("[\"AUTH\"]"), errc::relay_frame_arity);
  EXPECT_EQ(client_code("[\"COUNT\",\"s\"]"), errc::relay_frame_arity);
  // Types.
  EXPECT_EQ(client_code("[\"EVENT\",\"not an object\"]"), errc::relay_frame_type);
  EXPECT_EQ(client_code("[\"EVENT\",[1,2]]"), errc::relay_frame_type);
  EXPECT_EQ(client_code("[\"AUTH\",\"challenge\"]"), errc::relay_frame_type);  // a client AUTH carries an event
  EXPECT_EQ(client_code("[\"REQ\",5,{}]"), errc::relay_frame_type);
  EXPECT_EQ(client_code("[\"REQ\",\"s\",{},[]]"), errc::relay_frame_type);
  EXPECT_EQ(client_code("[\"CLOSE\",null]"), errc::relay_frame_type);
  EXPECT_EQ(client_code("[\"COUNT\",\"s\",\"{}\"]"), errc::relay_frame_type);
  // Embedded values.
  EXPECT_EQ(client_code("[\"EVENT\",{\"id\":\"x\"}]"), errc::invalid_event);
  EXPECT_EQ(client_code("[\"REQ\",\"s\",{\"kinds\":\"1\"}]"), errc::invalid_filter);
  EXPECT_EQ(client_code("[\"COUNT\",\"s\",{\"since\":1.5}]"), errc::invalid_filter);
}

TEST(relay_codec_test, sub_id_must_be_1_to_64_characters) {
  EXPECT_EQ(client_code("[\"REQ\",\"\",{}]"), errc::relay_sub_id_invalid);
  EXPECT_EQ(client_code("[\"CLOSE\",\"" + std::string(65, 'x') + "\"]"), errc::relay_sub_id_invalid);
  EXPECT_TRUE(decode_client_message("[\"CLOSE\",\"" + std::string(64, 'x') + "\"]").ok());
  // 64 characters of 2 bytes each: characters, not bytes, are counted.
  std::string wide;
  for (int i = 0; i < 64; ++i) wide += "\xc3\xa9";
  EXPECT_TRUE(valid_sub_id(wide));
  EXPECT_FALSE(valid_sub_id(wide + "\xc3\xa9"));
  EXPECT_EQ(utf8_char_count("a\xe2\x82\xac" "b"), 3u);
  EXPECT_TRUE(decode_client_message("[\"CLOSE\",\"" + wide + "\"]").ok());
  // Encoders refuse what decoders refuse.
  EXPECT_EQ(encode_req("", {kind_filter(1)}).code(), errc::invalid_argument);
  EXPECT_EQ(encode_req("s", {}).code(), errc::invalid_argument);
  EXPECT_EQ(encode_count(std::string(65, 'x'), {kind_filter(1)}).code(), errc::invalid_argument);
  EXPECT_EQ(encode_count("s", {}).code(), errc::invalid_argument);
  EXPECT_EQ(encode_close("").code(), errc::invalid_argument);
  EXPECT_EQ(encode_eose("").code(), errc::invalid_argument);
  EXPECT_EQ(encode_relay_event(std::string(65, 'x'), signed_note("x")).code(), errc::invalid_argument);
  EXPECT_EQ(encode_closed("", "m").code(), errc::invalid_argument);
  EXPECT_EQ(encode_count_result("", 1).code(), errc::invalid_argument);
}

TEST(relay_codec_test, frame_size_limit_is_checked_before_parsing) {
  std::string frame = "[\"NOTICE\",\"" + std::string(100, 'n') + "\"]";
  EXPECT_EQ(decode_relay_message(frame, 50).code(), errc::relay_frame_too_large);
  EXPECT_TRUE(decode_relay_message(frame, frame.size()).ok());
  EXPECT_TRUE(decode_relay_message(frame, 0).ok());
  EXPECT_EQ(decode_client_message("[\"CLOSE\",\"s\"]", 5).code(), errc::relay_frame_too_large);
  // Not JSON at all is still only too large when it is.
  EXPECT_EQ(decode_client_message("{{{{", 3).code(), errc::relay_frame_too_large);
}

// --- Relay to client.

TEST(relay_codec_test, relay_event_round_trip) {
  event e = signed_note("from relay");
  auto frame = encode_relay_event("feed", e);
  ASSERT_TRUE(frame.ok());
  auto m = decode_relay_message(*frame);
  ASSERT_TRUE(m.ok()) << m.err().detail;
  const auto& got = as<relay_event>(*m);
  EXPECT_EQ(got.sub_id, "feed");
  EXPECT_EQ(got.ev.id, e.id);
  EXPECT_TRUE(verify(got.ev).ok());
  EXPECT_EQ(*encode(*m), *frame);
}

TEST(relay_codec_test, relay_ok_round_trip_both_outcomes) {
  auto yes = encode_ok(kId, true, "");
  ASSERT_TRUE(yes.ok());
  EXPECT_EQ(*yes, "[\"OK\",\"" + kId + "\",true,\"\"]");
  auto m = decode_relay_message(*yes);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(as<relay_ok>(*m).accepted);
  EXPECT_EQ(as<relay_ok>(*m).status.reason, reason_code::none);

  auto no = encode_ok(kId, false, "blocked: you are banned from posting here");
  ASSERT_TRUE(no.ok());
  auto n = decode_relay_message(*no);
  ASSERT_TRUE(n.ok());
  const auto& ok = as<relay_ok>(*n);
  EXPECT_FALSE(ok.accepted);
  EXPECT_EQ(ok.event_id, kId);
  EXPECT_EQ(ok.status.reason, reason_code::blocked);
  EXPECT_EQ(ok.status.text(), "you are banned from posting here");
  EXPECT_EQ(*encode(*n), *no);
  EXPECT_EQ(encode_ok("ABC", true, "").code(), errc::invalid_argument);
}

TEST(relay_codec_test, relay_eose_closed_notice_auth_count_round_trip) {
  struct {
    std::string frame;
    std::size_t index;
  } cases[] = {
      {"[\"EOSE\",\"s1\"]", 2},
      {"[\"CLOSED\",\"s1\",\"auth-required: we only serve members\"]", 3},
      {"[\"NOTICE\",\"slow down\"]", 4},
      {"[\"AUTH\",\"challenge-string\"]", 5},
      {"[\"COUNT\",\"s1\",{\"count\":238}]", 6},
      {"[\"COUNT\",\"s1\",{\"count\":93412452,\"approximate\":true}]", 6},
  };
  for (const auto& c : cases) {
    auto m = decode_relay_message(c.frame);
    ASSERT_TRUE(m.ok()) << c.frame << " " << m.err().detail;
    EXPECT_EQ(m->index(), c.index) << c.frame;
    auto back = encode(*m);
    ASSERT_TRUE(back.ok()) << c.frame;
    EXPECT_EQ(*back, c.frame);
  }
  auto closed = decode_relay_message(cases[1].frame);
  EXPECT_EQ(as<relay_closed>(*closed).status.reason, reason_code::auth_required);
  EXPECT_EQ(as<relay_auth>(*decode_relay_message(cases[3].frame)).challenge, "challenge-string");
  auto decoded = decode_relay_message(cases[5].frame);
  ASSERT_TRUE(decoded.ok());
  const auto& count = as<relay_count>(*decoded);
  EXPECT_EQ(count.count, 93412452);
  EXPECT_TRUE(count.approximate);
  // Unknown fields in a COUNT result (NIP-45 "hll") are ignored.
  EXPECT_TRUE(decode_relay_message("[\"COUNT\",\"s\",{\"count\":1,\"hll\":\"00ff\"}]").ok());
  EXPECT_EQ(encode_count_result("s", -1).code(), errc::invalid_argument);
  EXPECT_EQ(encode_notice("a\"b"), "[\"NOTICE\",\"a\\\"b\"]");
}

TEST(relay_codec_test, relay_malformed_frames_have_typed_errors) {
  EXPECT_EQ(relay_code("not json"), errc::relay_frame_invalid);
  EXPECT_EQ(relay_code("42"), errc::relay_frame_invalid);
  EXPECT_EQ(relay_code("[]"), errc::relay_frame_invalid);
  EXPECT_EQ(relay_code("[null]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"REQ\",\"s\",{}]"), errc::relay_frame_unknown_verb);  // wrong direction
  EXPECT_EQ(relay_code("[\"CLOSE\",\"s\"]"), errc::relay_frame_unknown_verb);
  EXPECT_EQ(relay_code("[\"HELLO\",\"s\"]"), errc::relay_frame_unknown_verb);
  // Arity.
  EXPECT_EQ(relay_code("[\"EVENT\",{}]"), errc::relay_frame_arity);
  EXPECT_EQ(relay_code("[\"EVENT\",\"s\",{},1]"), errc::relay_frame_arity);
  EXPECT_EQ(relay_code("[\"OK\",\"" + kId + "\",true]"), errc::relay_frame_arity);
  EXPECT_EQ(relay_code("[\"EOSE\"]"), errc::relay_frame_arity);
  EXPECT_EQ(relay_code("[\"CLOSED\",\"s\"]"), errc::relay_frame_arity);
  EXPECT_EQ(relay_code("[\"NOTICE\"]"), errc::relay_frame_arity);
  EXPECT_EQ(relay_code("[\"NOTICE\",\"a\",\"b\"]"), errc::relay_frame_arity);
  EXPECT_EQ(relay_code("[\"AUTH\"]"), errc::relay_frame_arity);
  EXPECT_EQ(relay_code("[\"COUNT\",\"s\"]"), errc::relay_frame_arity);
  // Types.
  EXPECT_EQ(relay_code("[\"EVENT\",\"s\",\"{}\"]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"EVENT\",7,{}]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"OK\",1,true,\"\"]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"OK\",\"abc\",true,\"\"]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"OK\",\"" + std::string(64, 'B') + "\",true,\"\"]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"OK\",\"" + kId + "\",\"true\",\"\"]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"OK\",\"" + kId + "\",true,null]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"EOSE\",{}]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"CLOSED\",\"s\",3]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"NOTICE\",[]]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"AUTH\",{\"kind\":22242}]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"COUNT\",\"s\",5]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"COUNT\",\"s\",{}]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"COUNT\",\"s\",{\"count\":-1}]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"COUNT\",\"s\",{\"count\":1.5}]"), errc::relay_frame_type);
  EXPECT_EQ(relay_code("[\"COUNT\",\"s\",{\"count\":1,\"approximate\":1}]"), errc::relay_frame_type);
  // Sub ids.
  EXPECT_EQ(relay_code("[\"EOSE\",\"\"]"), errc::relay_sub_id_invalid);
  EXPECT_EQ(relay_code("[\"EVENT\",\"" + std::string(65, 's') + "\",{}]"), errc::relay_sub_id_invalid);
  EXPECT_EQ(relay_code("[\"CLOSED\",\"\",\"x\"]"), errc::relay_sub_id_invalid);
  // Event fields.
  EXPECT_EQ(relay_code("[\"EVENT\",\"s\",{\"id\":1}]"), errc::invalid_event);
  event e = signed_note("x");
  std::string missing_sig = *encode_relay_event("s", e);
  missing_sig.replace(missing_sig.find("\"sig\""), 5, "\"sag\"");
  EXPECT_EQ(relay_code(missing_sig), errc::invalid_event);
}

// --- Machine-readable prefixes.

TEST(relay_codec_test, every_defined_prefix_becomes_its_reason) {
  struct {
    const char* message;
    reason_code reason;
    const char* text;
  } cases[] = {
      {"duplicate: already have this event", reason_code::duplicate, "already have this event"},
      {"pow: difficulty 26 is less than 30", reason_code::pow, "difficulty 26 is less than 30"},
      {"blocked: you are banned", reason_code::blocked, "you are banned"},
      {"rate-limited: slow down there chief", reason_code::rate_limited, "slow down there chief"},
      {"invalid: event creation date is too far off", reason_code::invalid, "event creation date is too far off"},
      {"error: could not connect to the database", reason_code::error, "could not connect to the database"},
      {"auth-required: we only accept events from registered users", reason_code::auth_required,
       "we only accept events from registered users"},
      {"restricted: not allowed to write", reason_code::restricted, "not allowed to write"},
      {"Error:no space", reason_code::error, "no space"},  // case-insensitive, space optional
      {"mute: no one was listening", reason_code::unknown, "no one was listening"},
      {"", reason_code::none, ""},
      {"plain text, no prefix", reason_code::none, "plain text, no prefix"},
      {"two words: are not a prefix", reason_code::none, "two words: are not a prefix"},
      {": empty prefix", reason_code::none, ": empty prefix"},
      {"duplicate", reason_code::none, "duplicate"},
  };
  for (const auto& c : cases) {
    // Through both frames that carry one.
    auto ok = decode_relay_message("[\"OK\",\"" + kId + "\",false," + quoted(c.message) + "]");
    ASSERT_TRUE(ok.ok()) << c.message;
    const auto& status = as<relay_ok>(*ok).status;
    EXPECT_EQ(status.reason, c.reason) << c.message;
    EXPECT_EQ(status.text(), c.text) << c.message;
    EXPECT_EQ(status.message, c.message);
    auto closed = decode_relay_message("[\"CLOSED\",\"s\"," + quoted(c.message) + "]");
    ASSERT_TRUE(closed.ok()) << c.message;
    EXPECT_EQ(as<relay_closed>(*closed).status.reason, c.reason) << c.message;
  }
  EXPECT_EQ(parse_machine_message("mute: x").prefix(), "mute");
  EXPECT_EQ(parse_machine_message("plain").prefix(), "");
}

TEST(relay_codec_test, reason_names_prefixes_and_transience) {
  EXPECT_STREQ(reason_name(reason_code::rate_limited), "rate-limited");
  EXPECT_STREQ(reason_name(reason_code::auth_required), "auth-required");
  EXPECT_STREQ(reason_name(reason_code::none), "none");
  EXPECT_STREQ(reason_name(reason_code::unknown), "unknown");
  EXPECT_EQ(reason_prefix(reason_code::pow), "pow");
  EXPECT_EQ(reason_prefix(reason_code::unknown), "");
  EXPECT_TRUE(reason_is_transient(reason_code::rate_limited));
  EXPECT_TRUE(reason_is_transient(reason_code::error));
  EXPECT_FALSE(reason_is_transient(reason_code::duplicate));
  EXPECT_FALSE(reason_is_transient(reason_code::blocked));
  EXPECT_FALSE(reason_is_transient(reason_code::auth_required));

  auto m = make_machine_message(reason_code::restricted, "members only");
  EXPECT_EQ(m.message, "restricted: members only");
  EXPECT_EQ(m.reason, reason_code::restricted);
  EXPECT_EQ(m.text(), "members only");
  auto plain = make_machine_message(reason_code::none, "fine");
  EXPECT_EQ(plain.message, "fine");
  EXPECT_EQ(plain.reason, reason_code::none);
  // A relay building CLOSED from a reason gives the frame a client classifies back the same way.
  auto frame = encode_closed("s", m.message);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(as<relay_closed>(*decode_relay_message(*frame)).status.reason, reason_code::restricted);
}
