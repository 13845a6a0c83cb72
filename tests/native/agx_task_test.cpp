#include <gtest/gtest.h>

#include "agx_test_support.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/size.hpp"
#include "protocols/agx/task.hpp"

using namespace nostr;
using namespace nostr::agx;
using namespace nostr::agx_test;

// AGX-WIRE.md "tasks": {"t":"req","taskId","capability","payload"} and
// {"t":"res","taskId","status","output"?,"error"?}, as JSON.stringify writes them.
TEST(agx_task_test, envelope_bytes_match_the_reference_shape) {
  EXPECT_EQ(*task_request_json("t1", "invoice.review", std::string_view("{\"amount\":4200}")),
            "{\"t\":\"req\",\"taskId\":\"t1\",\"capability\":\"invoice.review\",\"payload\":{\"amount\":4200}}");
  EXPECT_EQ(*task_request_json("t1", "ping", std::nullopt), "{\"t\":\"req\",\"taskId\":\"t1\",\"capability\":\"ping\"}");
  EXPECT_EQ(*task_request_json("t1", "ping", std::string_view("  null \n")),
            "{\"t\":\"req\",\"taskId\":\"t1\",\"capability\":\"ping\",\"payload\":null}");
  EXPECT_EQ(*task_result_json("t1", completed_result(std::string("{\"approved\":true,\"flags\":[]}"))),
            "{\"t\":\"res\",\"taskId\":\"t1\",\"status\":\"completed\",\"output\":{\"approved\":true,\"flags\":[]}}");
  EXPECT_EQ(*task_result_json("t1", completed_result(std::nullopt)),
            "{\"t\":\"res\",\"taskId\":\"t1\",\"status\":\"completed\"}");
  EXPECT_EQ(*task_result_json("t1", failed_result(std::nullopt)),
            "{\"t\":\"res\",\"taskId\":\"t1\",\"status\":\"failed\",\"error\":\"handler failed\"}");
}

TEST(agx_task_test, building_rejects_bad_input) {
  EXPECT_EQ(task_request_json("", "c", std::nullopt).code(), errc::invalid_argument);
  EXPECT_EQ(task_request_json(std::string(201, 't'), "c", std::nullopt).code(), errc::invalid_argument);
  EXPECT_EQ(task_request_json("t", "", std::nullopt).code(), errc::invalid_argument);
  EXPECT_EQ(task_request_json("t", "c\xc0", std::nullopt).code(), errc::invalid_utf8);
  EXPECT_EQ(task_request_json("t", "c", std::string_view("{unquoted:1}")).code(), errc::invalid_argument);
  EXPECT_EQ(task_request_json("t", "c", std::string_view("1 2")).code(), errc::invalid_argument);
  EXPECT_EQ(task_request_json("t", "c", std::string_view("")).code(), errc::invalid_argument);
  std::string deep = std::string(200, '[') + std::string(200, ']');
  EXPECT_EQ(task_request_json("t", "c", std::string_view(deep)).code(), errc::invalid_argument);
  task_result bad_out = completed_result(std::string("{"));
  EXPECT_EQ(task_result_json("t", bad_out).code(), errc::invalid_argument);
  task_result long_err;
  long_err.status = result_status::failed;
  long_err.error = std::string(2001, 'e');
  EXPECT_EQ(task_result_json("t", long_err).code(), errc::invalid_argument);
}

TEST(agx_task_test, error_boundary) {
  // A thrown error never crosses: only "handler failed".
  EXPECT_EQ(*failed_result(std::nullopt).error, "handler failed");
  // An AgxPublicError's text is forwarded verbatim...
  EXPECT_EQ(*failed_result(std::string_view("invoice not found")).error, "invoice not found");
  EXPECT_EQ(failed_result(std::string_view("x")).status, result_status::failed);
  // ...cut to the 2000 units the reference's schema accepts (so the result is not dropped)...
  EXPECT_EQ(failed_result(std::string_view(std::string(5000, 'e'))).error->size(), 2000u);
  // ...and never as bytes that are not UTF-8.
  EXPECT_EQ(*failed_result(std::string_view("bad \xff")).error, "handler failed");
}

TEST(agx_task_test, parse_rules) {
  auto req = parse_task_envelope("{\"t\":\"req\",\"taskId\":\"t1\",\"capability\":\"a.b\",\"payload\":{\"k\":[1,2.5,\"s\"]}}");
  ASSERT_TRUE(req.ok());
  EXPECT_EQ(req->t, task_envelope::type::request);
  EXPECT_EQ(req->task_id, "t1");
  EXPECT_EQ(req->capability, "a.b");
  EXPECT_EQ(*req->payload_json, "{\"k\":[1,2.5,\"s\"]}");
  auto no_payload = parse_task_envelope("{\"t\":\"req\",\"taskId\":\"t1\",\"capability\":\"a\"}");
  ASSERT_TRUE(no_payload.ok());
  EXPECT_FALSE(no_payload->payload_json);

  auto res = parse_task_envelope("{\"t\":\"res\",\"taskId\":\"t1\",\"status\":\"failed\",\"error\":\"nope\",\"x\":1}");
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res->t, task_envelope::type::result);
  EXPECT_EQ(res->status, result_status::failed);
  EXPECT_EQ(*res->error, "nope");
  EXPECT_FALSE(res->output_json);
  auto out = parse_task_envelope("{\"t\":\"res\",\"taskId\":\"t1\",\"status\":\"completed\",\"output\":null}");
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out->output_json, "null");

  for (const std::string& bad : {
           std::string("not json"), std::string("[]"), std::string("{\"t\":\"ack\",\"taskId\":\"t\"}"),
           std::string("{\"taskId\":\"t\",\"capability\":\"c\"}"),
           std::string("{\"t\":\"req\",\"taskId\":\"\",\"capability\":\"c\"}"),
           std::string("{\"t\":\"req\",\"taskId\":5,\"capability\":\"c\"}"),
           std::string("{\"t\":\"req\",\"taskId\":\"t\"}"),
           std::string("{\"t\":\"req\",\"taskId\":\"t\",\"capability\":\"") + std::string(201, 'c') + "\"}",
           std::string("{\"t\":\"res\",\"taskId\":\"t\",\"status\":\"working\"}"),
           std::string("{\"t\":\"res\",\"taskId\":\"t\"}"),
           std::string("{\"t\":\"res\",\"taskId\":\"t\",\"status\":\"failed\",\"error\":null}"),
           std::string("{\"t\":\"res\",\"taskId\":\"t\",\"status\":\"failed\",\"error\":\"") + std::string(2001, 'e') + "\"}",
           std::string("{\"t\":\"req\",\"taskId\":\"t\",\"capability\":\"c\",\"payload\":") + std::string(500, '[') +
               std::string(500, ']') + "}",
       })
    EXPECT_EQ(parse_task_envelope(bad).code(), errc::agx_task_invalid) << bad.substr(0, 100);
}

TEST(agx_task_test, states_and_transitions) {
  using s = task_state;
  const s all[] = {s::submitted, s::working, s::input_required, s::completed, s::failed, s::canceled};
  EXPECT_STREQ(task_state_name(s::input_required), "input-required");
  for (s st : all) EXPECT_EQ(parse_task_state(task_state_name(st)), st);
  EXPECT_FALSE(parse_task_state("done"));

  EXPECT_TRUE(can_transition(s::submitted, s::working));
  EXPECT_TRUE(can_transition(s::submitted, s::input_required));
  EXPECT_TRUE(can_transition(s::working, s::input_required));
  EXPECT_TRUE(can_transition(s::input_required, s::working));
  for (s from : {s::submitted, s::working, s::input_required})
    for (s to : {s::completed, s::failed, s::canceled}) EXPECT_TRUE(can_transition(from, to));
  // Nothing leaves a terminal state; nothing goes back to submitted; no self-moves.
  for (s from : {s::completed, s::failed, s::canceled})
    for (s to : all) EXPECT_FALSE(can_transition(from, to));
  for (s from : all) EXPECT_FALSE(can_transition(from, s::submitted));
  for (s st : all) EXPECT_FALSE(can_transition(st, st));

  EXPECT_EQ(*transition(s::submitted, s::working), s::working);
  EXPECT_EQ(transition(s::completed, s::working).code(), errc::agx_task_transition);
  EXPECT_EQ(state_of(result_status::completed), s::completed);
  EXPECT_EQ(state_of(result_status::failed), s::failed);
  EXPECT_TRUE(is_terminal(s::canceled));
  EXPECT_FALSE(is_terminal(s::input_required));
}

TEST(agx_task_test, request_and_result_rumors) {
  task_request_fields f;
  f.task_id = "0123456789abcdef0123456789abcdef";
  f.capability = "invoice.review";
  f.payload_json = "{\"amount\":4200}";
  f.message_id = std::string(32, '9');
  auto req = task_request_rumor(f, bob().pub, alice().pub, kNow);
  ASSERT_TRUE(req.ok());
  EXPECT_EQ(req->tags[1], (tag{"content-type", "application/agx-task+json"}));
  auto parsed = parse_message_payload(req->content);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->context_id, f.task_id);  // contextId = taskId
  EXPECT_EQ(parsed->cls, content_class::task);
  EXPECT_EQ(parsed->text, *task_request_json(f.task_id, f.capability, std::string_view(*f.payload_json)));

  // An oversize request fails before anything is sent.
  f.payload_json = "\"" + std::string(30000, 'x') + "\"";
  EXPECT_EQ(task_request_rumor(f, bob().pub, alice().pub, kNow).code(), errc::agx_too_large);

  // A result carries no autoDepth and keeps contextId = taskId.
  auto res = task_result_rumor(f.task_id, completed_result(std::string("42")), std::string(32, '8'), alice().pub,
                               bob().pub, kNow);
  ASSERT_TRUE(res.ok());
  EXPECT_FALSE(res->replaced_too_large);
  EXPECT_EQ(res->rumor.content.find("autoDepth"), std::string::npos);
  EXPECT_EQ(parse_message_payload(res->rumor.content)->context_id, f.task_id);

  // An oversize result becomes failed "result too large", not a truncated envelope.
  auto big = task_result_rumor(f.task_id, completed_result("\"" + std::string(40000, 'x') + "\""),
                               std::string(32, '8'), alice().pub, bob().pub, kNow);
  ASSERT_TRUE(big.ok());
  EXPECT_TRUE(big->replaced_too_large);
  EXPECT_TRUE(fits_interop(big->rumor));
  auto env = parse_task_envelope(parse_message_payload(big->rumor.content)->text);
  ASSERT_TRUE(env.ok());
  EXPECT_EQ(env->status, result_status::failed);
  EXPECT_EQ(*env->error, "result too large");
}

// Our status envelopes (working / input-required, SPEC.md "Task lifecycle") and the input answer.
TEST(agx_task_test, status_and_input_envelopes) {
  EXPECT_EQ(*task_status_json("t1", task_state::working, std::nullopt), "{\"t\":\"status\",\"taskId\":\"t1\",\"status\":\"working\"}");
  EXPECT_EQ(*task_status_json("t1", task_state::input_required, std::string_view("PIN?")),
            "{\"t\":\"status\",\"taskId\":\"t1\",\"status\":\"input-required\",\"message\":\"PIN?\"}");
  EXPECT_EQ(task_status_json("t1", task_state::completed, std::nullopt).code(), errc::invalid_argument);
  EXPECT_EQ(task_status_json("t1", task_state::working, std::string_view(std::string(2001, 'm'))).code(), errc::invalid_argument);
  EXPECT_EQ(task_status_json("", task_state::working, std::nullopt).code(), errc::invalid_argument);
  EXPECT_EQ(*task_input_json("t1", std::string_view(" {\"pin\":1} ")), "{\"t\":\"input\",\"taskId\":\"t1\",\"input\":{\"pin\":1}}");
  EXPECT_EQ(*task_input_json("t1", std::nullopt), "{\"t\":\"input\",\"taskId\":\"t1\"}");
  EXPECT_EQ(task_input_json("t1", std::string_view("{nope")).code(), errc::invalid_argument);

  auto s = parse_task_envelope("{\"t\":\"status\",\"taskId\":\"t1\",\"status\":\"input-required\",\"message\":\"PIN?\",\"x\":1}");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->t, task_envelope::type::status);
  EXPECT_EQ(s->update_state, task_state::input_required);
  EXPECT_EQ(*s->message, "PIN?");
  auto i = parse_task_envelope("{\"t\":\"input\",\"taskId\":\"t1\",\"input\":[1,2]}");
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->t, task_envelope::type::input);
  EXPECT_EQ(*i->input_json, "[1,2]");
  for (const char* bad : {"{\"t\":\"status\",\"taskId\":\"t1\",\"status\":\"completed\"}",
                          "{\"t\":\"status\",\"taskId\":\"t1\"}",
                          "{\"t\":\"status\",\"taskId\":\"t1\",\"status\":\"working\",\"message\":7}",
                          "{\"t\":\"input\",\"taskId\":\"\"}", "{\"t\":\"update\",\"taskId\":\"t1\"}"})
    EXPECT_EQ(parse_task_envelope(bad).code(), errc::agx_task_invalid) << bad;

  auto rumor = task_envelope_rumor(*task_input_json("t1", std::nullopt), "t1", std::string(32, 'a'), alice().pub, bob().pub, 1700000000);
  ASSERT_TRUE(rumor.ok());
  EXPECT_EQ(rumor->kind, kMessageKind);
  EXPECT_EQ(task_envelope_rumor(*task_input_json("t1", std::nullopt), "t2", std::string(32, 'a'), alice().pub, bob().pub, 1700000000).code(),
            errc::invalid_argument);
}

// A requester that understands our status and input envelopes says so in its request ("accepts");
// a responder sends them only then, and an input-required only when it can be answered. A request
// in the reference's shape accepts neither.
TEST(agx_task_test, a_request_says_which_updates_its_requester_understands) {
  EXPECT_EQ(*task_request_json("t1", "ping", std::nullopt, true),
            "{\"t\":\"req\",\"taskId\":\"t1\",\"capability\":\"ping\",\"accepts\":[\"status\",\"input\"]}");
  auto ours = parse_task_envelope(*task_request_json("t1", "ping", std::string_view("{}"), true));
  ASSERT_TRUE(ours.ok());
  EXPECT_TRUE(may_send_status(*ours));
  EXPECT_TRUE(may_request_input(*ours));
  EXPECT_EQ(*ours->payload_json, "{}");

  auto reference = parse_task_envelope(*task_request_json("t1", "ping", std::string_view("{}")));
  ASSERT_TRUE(reference.ok());
  EXPECT_FALSE(may_send_status(*reference));
  EXPECT_FALSE(may_request_input(*reference));

  struct {
    const char* accepts;
    bool status, input;
  } cases[] = {
      {"[\"status\"]", true, false},        // progress notes only: input-required cannot be answered
      {"[\"input\"]", false, false},        // input without the status that asks for it is nothing
      {"[\"status\",7,null,\"input\"]", true, true},
      {"\"status\"", false, false},         // not an array: nothing
      {"{\"status\":true}", false, false},
      {"[\"STATUS\",\"inputs\"]", false, false},
  };
  for (const auto& c : cases) {
    std::string text = std::string("{\"t\":\"req\",\"taskId\":\"t1\",\"capability\":\"c\",\"accepts\":") + c.accepts + "}";
    auto e = parse_task_envelope(text);
    ASSERT_TRUE(e.ok()) << text;  // never a reason to refuse the request itself
    EXPECT_EQ(may_send_status(*e), c.status) << text;
    EXPECT_EQ(may_request_input(*e), c.input) << text;
  }

  task_request_fields f;
  f.task_id = "t9";
  f.capability = "ping";
  f.message_id = std::string(32, 'a');
  f.accepts_updates = true;
  auto rumor = task_request_rumor(f, alice().pub, bob().pub, 1700000000);
  ASSERT_TRUE(rumor.ok());
  EXPECT_NE(rumor->content.find("\\\"accepts\\\":[\\\"status\\\",\\\"input\\\"]"), std::string::npos) << rumor->content;
}
