#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "protocols/nip_xx/agent_admission.hpp"
#include "protocols/nip_xx/agent_run.hpp"
#include "protocols/nip_xx/client_run.hpp"
#include "protocols/nip_xx/envelope.hpp"

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

namespace {

// Random text for the verbatim property: pieces of the envelope grammar, whole envelopes of every
// kind (some valid, some broken), and random Unicode (valid UTF-8: any scalar value).
std::string utf8_of(char32_t c) {
  std::string out;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
  return out;
}

std::string random_agent_text(std::mt19937& rng) {
  static const std::vector<std::string> pieces = {
      "event=", "delta", "final", "tool", "error", "|", "phase=", "update", "end", "text=", "block=", "ts=", "1771402400",
      "timestamp=", "mode=thinking", "%", "%20", "%7C", "%E2%82%AC", "%zz", "%E0%A4", "=", "a", " ", "\n", "|event=delta",
      "event=delta|phase=update|text=", "event=final|phase=end|text=", "|ts=1"};
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  std::string s;
  switch (pick(4)) {
    case 0: {  // a whole envelope of some kind, values random
      const char* events[] = {"delta", "final", "tool", "error"};
      std::vector<std::pair<std::string, std::string>> f = {{"event", events[pick(4)]},
                                                            {"phase", pick(2) ? "end" : "update"},
                                                            {"text", utf8_of(0x20 + pick(0x2FFF))}};
      if (pick(4)) f.emplace_back("ts", std::to_string(rng()));
      if (pick(3) == 0) f.emplace_back("mode", "thinking");
      std::shuffle(f.begin(), f.end(), rng);
      return format_envelope(f);
    }
    case 1:  // grammar pieces
      for (std::size_t i = pick(12); i > 0; --i) s += pieces[pick(pieces.size())];
      return s;
    default:  // random scalar values, often after "event="
      if (pick(2)) s = "event=";
      for (std::size_t i = pick(20); i > 0; --i) {
        char32_t c = static_cast<char32_t>(pick(4) ? pick(0x80) : pick(0x110000));
        if (c >= 0xD800 && c <= 0xDFFF) c = 0xFFFD;
        if (c == 0) c = '0';
        s += utf8_of(c);
      }
      return s;
  }
}

}  // namespace

// Any text an agent's handler yields arrives at the client verbatim: every delta and the final
// response, whatever it looks like (NIP-XX's envelope applies only to whole envelopes, and the
// agent sends a look-alike inside one). Agent machine -> client machine, 3000 random runs.
TEST(nip_xx_agent_test, any_text_an_agent_yields_arrives_verbatim) {
  std::mt19937 rng(20260117);
  const std::string prompt_id(64, '1');
  int envelopes = 0;
  for (int round = 0; round < 3000; ++round) {
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
    std::string all;
    for (int i = static_cast<int>(rng() % 4); i >= 0; --i) {
      std::string piece = random_agent_text(rng);
      if (looks_like_envelope(piece, kind::delta)) ++envelopes;
      all += piece;
      auto u = deliver(*agent.delta(piece, std::nullopt, 1771402400));
      ASSERT_EQ(u.type, update_kind::delta) << piece << " / " << u.reason;
      EXPECT_FALSE(u.thinking.has_value()) << piece;
      ASSERT_EQ(client.text(), all) << piece;
    }
    auto t = deliver(*agent.respond(all, std::nullopt, std::nullopt, 1771402401));
    ASSERT_EQ(t.type, update_kind::terminal) << all << " / " << t.reason;
    ASSERT_EQ(client.terminal()->response->text, all);
  }
  EXPECT_GT(envelopes, 100);  // the generator does reach whole envelopes of the kind
}

// "If model is set, the agent MUST have it listed in supported_models" and "MUST return an
// ai.error with UNSUPPORTED_MODEL ... and MUST NOT continue": fallback_models do not lift the MUST.
// They reach the handler as the client's alternatives (supported ones, in the client's order).
TEST(nip_xx_agent_test, fallback_models_never_replace_an_unsupported_model) {
  agent_admission gate(config());
  auto e = prompt_event();
  auto tags = std::get<run_tags>(gate.screen(e, 0));
  auto unsupported = gate.admit(e, tags, R"({"ver":1,"message":"hi","model":"huge","fallback_models":["nope","big"]})");
  ASSERT_TRUE(rejected(unsupported));
  EXPECT_EQ(rejected(unsupported)->code, errc::xx_unsupported_model);
  auto listed = gate.admit(e, tags, R"({"ver":1,"message":"hi","model":"big","fallback_models":["nope","small","big","small"]})");
  ASSERT_FALSE(rejected(listed));
  EXPECT_EQ(*std::get<admitted_prompt>(listed).model, "big");
  EXPECT_EQ(std::get<admitted_prompt>(listed).fallback_models, std::vector<std::string>{"small"});
  auto by_default = gate.admit(e, tags, R"({"ver":1,"message":"hi","fallback_models":["big"]})");
  ASSERT_FALSE(rejected(by_default));
  EXPECT_EQ(*std::get<admitted_prompt>(by_default).model, "small");  // default_model, not a fallback
  EXPECT_EQ(std::get<admitted_prompt>(by_default).fallback_models, std::vector<std::string>{"big"});
}
