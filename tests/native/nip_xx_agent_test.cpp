#include <gtest/gtest.h>

#include "protocols/nip_xx/agent_admission.hpp"
#include "protocols/nip_xx/agent_run.hpp"
#include "protocols/nip_xx/client_run.hpp"

using namespace nostr;
using namespace nostr::nip_xx;

namespace {

const std::string kAgent(64, 'b');
const std::string kClient(64, 'c');

event prompt_event(const std::string& sender = kClient, std::optional<std::string> session = std::nullopt,
                   const std::string& id = std::string(64, '1')) {
  event e;
  e.kind = 25802;
  e.pubkey = sender;
  e.id = id;
  e.created_at = 100;
  e.tags = prompt_tags(kAgent, session);
  return e;
}

agent_config config() {
  agent_config c;
  c.agent_pubkey = kAgent;
  c.info = *parse_info(R"({"ver":1,"encryption":["nip44"],"tool_names":["calc"],"supported_models":["small","big"],
                          "default_model":"small","tool_schema_version":2,"max_prompt_bytes":20})");
  return c;
}

template <class T>
const rejection* rejected(const T& v) {
  return std::get_if<rejection>(&v);
}

}  // namespace

TEST(nip_xx_agent_test, negotiates_model_and_schema) {
  agent_admission gate(config());
  auto e = prompt_event();
  auto tags = std::get<run_tags>(gate.screen(e, 0));
  auto ok = gate.admit(e, tags, R"({"ver":1,"message":"hi"})");
  ASSERT_FALSE(rejected(ok));
  EXPECT_EQ(*std::get<admitted_prompt>(ok).model, "small");  // default_model when omitted
  EXPECT_EQ(std::get<admitted_prompt>(ok).tool_schema_version, 2);
  EXPECT_EQ(std::get<admitted_prompt>(ok).session, "sender:" + kClient);
  auto big = gate.admit(e, tags, R"({"ver":1,"message":"hi","model":"big"})");
  EXPECT_EQ(*std::get<admitted_prompt>(big).model, "big");
  auto fallback = gate.admit(e, tags, R"({"ver":1,"message":"hi","model":"huge","fallback_models":["nope","big"]})");
  EXPECT_EQ(*std::get<admitted_prompt>(fallback).model, "big");
  EXPECT_EQ(rejected(gate.admit(e, tags, R"({"ver":1,"message":"hi","model":"huge"})"))->code,
            errc::xx_unsupported_model);
  EXPECT_EQ(rejected(gate.admit(e, tags, R"({"ver":1,"message":"hi","tool_schema_version":1})"))->code,
            errc::xx_unsupported_schema_version);
  EXPECT_EQ(rejected(gate.admit(e, tags, R"({"ver":1,"message":"this message is far too long"})"))->code,
            errc::xx_invalid_schema);
  EXPECT_EQ(rejected(gate.admit(e, tags, "nope"))->code, errc::xx_parse_error);
  EXPECT_EQ(rejected(gate.admit(e, tags, R"({"ver":1})"))->code, errc::xx_invalid_schema);
}

TEST(nip_xx_agent_test, sender_policy) {
  auto c = config();
  c.block = {std::string(64, 'd')};
  agent_admission gate(c);
  EXPECT_EQ(rejected(gate.screen(prompt_event(std::string(64, 'd')), 0))->code, errc::xx_blocked_sender);
  c.allow = std::set<std::string>{kClient};
  agent_admission allow(c);
  EXPECT_FALSE(rejected(allow.screen(prompt_event(), 0)));
  EXPECT_EQ(rejected(allow.screen(prompt_event(std::string(64, 'e')), 0))->code, errc::xx_unauthorized);
  auto other_agent = prompt_event();
  other_agent.tags = prompt_tags(std::string(64, 'f'), std::nullopt);
  EXPECT_EQ(rejected(gate.screen(other_agent, 0))->code, errc::xx_invalid_schema);
  auto nip04 = prompt_event();
  nip04.tags = {{"p", kAgent}, {"encryption", "nip04"}};
  EXPECT_EQ(rejected(gate.screen(nip04, 0))->code, errc::xx_unsupported_encryption);
}

TEST(nip_xx_agent_test, rate_limit_with_retry_after_and_bounded_memory) {
  auto c = config();
  c.prompts_per_minute = 6;  // one every 10 s
  c.burst = 2;
  c.max_tracked = 3;
  agent_admission gate(c);
  EXPECT_FALSE(rejected(gate.screen(prompt_event(), 1000)));
  EXPECT_FALSE(rejected(gate.screen(prompt_event(), 1000)));
  auto limited = gate.screen(prompt_event(), 1000);
  ASSERT_TRUE(rejected(limited));
  EXPECT_EQ(rejected(limited)->code, errc::xx_rate_limit);
  EXPECT_EQ(*rejected(limited)->retry_after, 10);
  EXPECT_TRUE(rejected(gate.screen(prompt_event(), 1005)));
  EXPECT_FALSE(rejected(gate.screen(prompt_event(), 1010)));
  // Other senders are unaffected, and tracking many senders does not grow without bound.
  for (char s = 'd'; s <= 'z'; ++s) EXPECT_FALSE(rejected(gate.screen(prompt_event(std::string(64, s)), 1010)));
}

TEST(nip_xx_agent_test, session_turn_limit_per_sender_and_session) {
  auto c = config();
  c.max_session_turns = 2;
  agent_admission gate(c);
  auto e = prompt_event(kClient, std::string("session:x"));
  auto tags = std::get<run_tags>(gate.screen(e, 0));
  const char* p = R"({"ver":1,"message":"hi"})";
  EXPECT_FALSE(rejected(gate.admit(e, tags, p)));
  EXPECT_FALSE(rejected(gate.admit(e, tags, p)));
  EXPECT_EQ(rejected(gate.admit(e, tags, p))->code, errc::xx_session_limit);
  auto other = prompt_event(std::string(64, 'd'), std::string("session:x"));
  EXPECT_FALSE(rejected(gate.admit(other, std::get<run_tags>(gate.screen(other, 0)), p)));
}

TEST(nip_xx_agent_test, run_invariants_seq_one_terminal_cancel) {
  agent_run run(std::string(64, '1'), kClient, std::nullopt, config().info);
  EXPECT_TRUE(run.status("thinking", 10).ok());
  EXPECT_EQ(run.status("sleeping").code(), errc::xx_invalid_schema);
  auto d0 = run.delta("Hel");
  auto d1 = run.delta("lo");
  ASSERT_TRUE(d0.ok() && d1.ok());
  EXPECT_EQ(*parse_delta(d0->plaintext)->seq, 0);
  EXPECT_EQ(*parse_delta(d1->plaintext)->seq, 1);
  tool_call_payload unknown;
  unknown.name = "rm";
  unknown.phase = "start";
  EXPECT_EQ(run.tool_call(unknown).code(), errc::xx_unsupported_feature);
  tool_call_payload calc;
  calc.name = "calc";
  calc.phase = "start";
  calc.arguments = json{{"expr", "1+1"}};
  auto t = run.tool_call(calc);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->tags[2], (tag{"tool", "calc"}));
  auto r = run.respond("Hello");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->k, kind::response);
  EXPECT_TRUE(run.finished());
  EXPECT_FALSE(run.respond("again").ok());
  EXPECT_FALSE(run.delta("late").ok());
  EXPECT_FALSE(run.cancel().has_value());  // cancel after the terminal: no-op
}

TEST(nip_xx_agent_test, cancel_once_and_empty_response) {
  agent_run run(std::string(64, '1'), kClient, std::string("s1"), config().info);
  auto c = run.cancel();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->k, kind::error);
  EXPECT_EQ(parse_error(c->plaintext)->code, "CANCELLED");
  EXPECT_FALSE(run.cancel().has_value());
  EXPECT_FALSE(run.respond("x").ok());

  agent_run empty(std::string(64, '2'), kClient, std::nullopt, config().info);
  auto e = empty.respond("");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(parse_error(e->plaintext)->code, "EMPTY_RESPONSE");
  EXPECT_EQ(agent_run(std::string(64, '3'), kClient, std::nullopt, config().info).fail(errc::invalid_hex, "x").code(),
            errc::invalid_argument);
}

TEST(nip_xx_agent_test, privacy_first_strips_tool_io) {
  agent_run run(std::string(64, '1'), kClient, std::nullopt, config().info, /*privacy_first=*/true);
  tool_call_payload calc;
  calc.name = "calc";
  calc.phase = "result";
  calc.arguments = json{{"expr", "secret"}};
  calc.output = json{{"stdout", "42"}};
  calc.success = true;
  auto t = run.tool_call(calc);
  ASSERT_TRUE(t.ok());
  auto back = parse_tool_call(t->plaintext);
  EXPECT_FALSE(back->arguments.has_value());
  EXPECT_FALSE(back->output.has_value());
  EXPECT_TRUE(*back->success);
}

TEST(nip_xx_agent_test, agent_and_client_machines_agree) {
  // What the agent machine produces, the client machine accepts and reconstructs.
  const std::string prompt_id(64, '1');
  agent_run agent(prompt_id, kClient, std::nullopt, config().info);
  client_run client(prompt_id, kAgent, kClient);
  int n = 0;
  auto deliver = [&](const outgoing& o) {
    event e;
    e.kind = static_cast<std::int64_t>(o.k);
    e.pubkey = kAgent;
    e.created_at = 100;
    e.tags = o.tags;
    std::string id = std::to_string(++n);
    e.id = std::string(64 - id.size(), '0') + id;
    return client.on_event(e, o.plaintext);
  };
  EXPECT_EQ(deliver(*agent.status("thinking")).type, update_kind::status);
  for (const char* piece : {"The ", "answer ", "is 42"}) EXPECT_EQ(deliver(*agent.delta(piece)).type, update_kind::delta);
  EXPECT_EQ(client.text(), "The answer is 42");
  EXPECT_EQ(deliver(*agent.respond("The answer is 42.", usage_info{3, 5})).type, update_kind::terminal);
  EXPECT_EQ(client.terminal()->response->text, "The answer is 42.");
  EXPECT_EQ(client.terminal()->response->usage->output_tokens, 5);
}

// Issue 16 item 6: safe defaults. A sender gets a burst of 10 and then 20 a minute; at most 8 runs
// are admitted at once in all, each until run_ended(); 0 turns either off.
TEST(nip_xx_agent_test, default_rate_limit_and_concurrency_cap) {
  agent_config defaults;
  EXPECT_EQ(defaults.prompts_per_minute, 20);
  EXPECT_EQ(defaults.burst, 10);
  EXPECT_EQ(defaults.max_concurrent, 8u);

  agent_admission gate(config());
  auto e = prompt_event();
  for (int i = 0; i < 10; ++i) ASSERT_FALSE(rejected(gate.screen(e, 0))) << i;
  auto limited = gate.screen(e, 0);
  ASSERT_TRUE(rejected(limited));
  EXPECT_EQ(rejected(limited)->code, errc::xx_rate_limit);
  EXPECT_EQ(*rejected(limited)->retry_after, 3);  // one token every 3 s

  auto tags = std::get<run_tags>(gate.screen(prompt_event(std::string(64, 'd')), 0));
  for (int i = 0; i < 8; ++i) ASSERT_FALSE(rejected(gate.admit(e, tags, R"({"ver":1,"message":"hi"})"))) << i;
  EXPECT_EQ(gate.running(), 8u);
  auto busy = gate.admit(e, tags, R"({"ver":1,"message":"hi"})");
  ASSERT_TRUE(rejected(busy));
  EXPECT_EQ(rejected(busy)->code, errc::xx_rate_limit);
  EXPECT_EQ(*rejected(busy)->retry_after, 5);
  gate.run_ended();
  EXPECT_FALSE(rejected(gate.admit(e, tags, R"({"ver":1,"message":"hi"})")));

  agent_config off = config();
  off.prompts_per_minute = 0;
  off.max_concurrent = 0;
  agent_admission open(off);
  for (int i = 0; i < 50; ++i) {
    auto t = open.screen(e, 0);
    ASSERT_FALSE(rejected(t)) << i;
    ASSERT_FALSE(rejected(open.admit(e, std::get<run_tags>(t), R"({"ver":1,"message":"hi"})"))) << i;
  }
}
