// The NIP-XX machines' deadlines, incremental text, requests, ai.info choice and the agent inbox
// (dedupe, freshness, cancel authorization): the rules the JS driver used to decide, stepped here
// with a manual clock.
#include <gtest/gtest.h>

#include "protocols/nip_xx/agent_inbox.hpp"
#include "protocols/nip_xx/agent_run.hpp"
#include "protocols/nip_xx/client_requests.hpp"
#include "protocols/nip_xx/client_run.hpp"
#include "protocols/nip_xx/tags.hpp"

using namespace nostr;
using namespace nostr::nip_xx;

namespace {

const std::string kPrompt(64, 'a');
const std::string kAgent(64, 'b');
const std::string kClient(64, 'c');
const std::string kOther(64, 'd');

std::string id_of(const std::string& suffix) { return std::string(64 - suffix.size(), '0') + suffix; }

event from_agent(kind k, std::int64_t created_at, const std::string& suffix) {
  event e;
  e.kind = static_cast<std::int64_t>(k);
  e.pubkey = kAgent;
  e.created_at = created_at;
  e.tags = run_event_tags(kClient, kPrompt, std::nullopt);
  e.id = id_of(suffix);
  return e;
}

std::string delta(const std::string& text, std::optional<std::int64_t> seq) { return to_json(delta_payload{text, seq, std::nullopt}); }
std::string response(const std::string& text) { return to_json(response_payload{text, std::nullopt, std::nullopt}); }

event prompt_from(const std::string& client, const std::string& suffix, std::int64_t created_at,
                  const std::string& to = kAgent) {
  event e;
  e.kind = static_cast<std::int64_t>(kind::prompt);
  e.pubkey = client;
  e.created_at = created_at;
  e.tags = prompt_tags(to, std::nullopt);
  e.id = id_of(suffix);
  return e;
}

event cancel_from(const std::string& client, const std::string& prompt_id, tag_list tags = {}) {
  event e;
  e.kind = static_cast<std::int64_t>(kind::cancel);
  e.pubkey = client;
  e.created_at = 100;
  e.tags = tags.empty() ? cancel_tags(kAgent, prompt_id, std::nullopt) : std::move(tags);
  e.id = id_of("cc" + prompt_id.substr(0, 4));
  return e;
}

const std::string kCancel = R"({"ver":1,"reason":"user_cancel"})";

}  // namespace

TEST(nip_xx_machines_test, delta_text_is_handed_out_incrementally) {
  client_run run(kPrompt, kAgent, kClient);
  auto a = run.on_event(from_agent(kind::delta, 10, "1"), delta("ab", 0), 0);
  EXPECT_EQ(a.append, "ab");
  EXPECT_FALSE(a.text_reset);
  auto c = run.on_event(from_agent(kind::delta, 10, "3"), delta("ef", 2), 0);  // past a gap: still at the end
  EXPECT_EQ(c.append, "ef");
  EXPECT_TRUE(c.degraded);
  auto b = run.on_event(from_agent(kind::delta, 10, "2"), delta("cd", 1), 0);  // before the end: reset
  EXPECT_TRUE(b.text_reset);
  EXPECT_FALSE(b.degraded);
  EXPECT_EQ(run.text(), "abcdef");
}

TEST(nip_xx_machines_test, plain_deltas_append_unless_older) {
  client_run run(kPrompt, kAgent, kClient);
  EXPECT_EQ(run.on_event(from_agent(kind::delta, 10, "2"), delta("x", std::nullopt), 0).append, "x");
  auto older = run.on_event(from_agent(kind::delta, 9, "1"), delta("w", std::nullopt), 0);
  EXPECT_TRUE(older.text_reset);
  EXPECT_EQ(run.text(), "wx");
}

// Validation and failure rules, MAY: a run missing its terminal after a reasonable timeout is an
// incomplete run; the idle deadline moves with every applied event, not with ignored ones.
TEST(nip_xx_machines_test, idle_deadline_ends_a_silent_run) {
  client_run run(kPrompt, kAgent, kClient, default_terminal_grace_ms, 1000);
  EXPECT_FALSE(run.next_deadline());
  run.start(0);
  EXPECT_EQ(*run.next_deadline(), 1000);
  run.on_event(from_agent(kind::delta, 10, "1"), delta("a", 0), 600);
  EXPECT_EQ(*run.next_deadline(), 1600);
  event stranger = from_agent(kind::delta, 10, "2");
  stranger.pubkey = kOther;
  run.on_event(stranger, delta("b", 1), 900);  // ignored: does not move it
  EXPECT_EQ(*run.next_deadline(), 1600);
  EXPECT_EQ(run.handle_timeout(1599), timeout_outcome::none);
  EXPECT_EQ(run.handle_timeout(1600), timeout_outcome::idle);
  EXPECT_TRUE(run.closed());
  // No action after close: events are ignored, no deadline fires again.
  EXPECT_EQ(run.on_event(from_agent(kind::response, 11, "9"), response("late"), 1700).type, update_kind::ignored);
  EXPECT_FALSE(run.next_deadline());
  EXPECT_EQ(run.handle_timeout(99999), timeout_outcome::none);
}

TEST(nip_xx_machines_test, idle_timeout_zero_waits_for_the_terminal_only) {
  client_run run(kPrompt, kAgent, kClient, 0, 0);
  run.start(0);
  EXPECT_FALSE(run.next_deadline());
  EXPECT_EQ(run.on_event(from_agent(kind::response, 10, "1"), response("ok"), 5).type, update_kind::terminal);
  EXPECT_EQ(run.handle_timeout(5), timeout_outcome::settled);  // grace 0: at once
}

// Cancel: after ai.cancel the expected terminal is CANCELLED; without one in time the run ends
// locally; a terminal that comes in time replaces the cancel deadline by the grace.
TEST(nip_xx_machines_test, cancel_deadline_and_may_cancel) {
  client_run run(kPrompt, kAgent, kClient, 1500, 120000);
  run.start(0);
  EXPECT_TRUE(run.may_cancel());
  run.cancel_sent(100, 1000);
  EXPECT_EQ(*run.next_deadline(), 1100);
  EXPECT_EQ(run.handle_timeout(1100), timeout_outcome::cancel_unconfirmed);
  EXPECT_FALSE(run.may_cancel());

  client_run answered(kPrompt, kAgent, kClient, 1500, 120000);
  answered.start(0);
  answered.cancel_sent(100, 1000);
  error_payload cancelled{"CANCELLED", "run cancelled by the client", std::nullopt, std::nullopt};
  EXPECT_EQ(answered.on_event(from_agent(kind::error, 10, "e"), to_json(cancelled), 500).type, update_kind::terminal);
  EXPECT_FALSE(answered.may_cancel());
  EXPECT_EQ(*answered.next_deadline(), 2000);  // the grace, not the cancel deadline
  EXPECT_EQ(answered.handle_timeout(1100), timeout_outcome::none);
  EXPECT_EQ(answered.handle_timeout(2000), timeout_outcome::settled);
  EXPECT_EQ(answered.terminal()->error->code, "CANCELLED");
}

// Definitions: Session (MAY, ours): prompts name their session in s, the default one too.
TEST(nip_xx_machines_test, prompt_and_cancel_events_carry_the_session_and_nip44) {
  auto p = prompt_event(kAgent, kClient, std::nullopt, R"({"ver":1,"message":"hi","extra":1})");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->k, kind::prompt);
  tag_list want{{"p", kAgent}, {"s", "sender:" + kClient}, {"encryption", "nip44"}};
  EXPECT_EQ(p->tags, want);
  EXPECT_EQ(p->plaintext.find("extra"), std::string::npos);  // canonical: unknown fields dropped
  EXPECT_EQ(parse_prompt(p->plaintext)->message, "hi");
  auto named = prompt_event(kAgent, kClient, std::string("chat-1"), R"({"ver":1,"message":"hi"})");
  EXPECT_EQ(named->tags[1], (tag{"s", "chat-1"}));

  auto c = cancel_event(kAgent, kClient, kPrompt, std::nullopt, "timeout");
  ASSERT_TRUE(c);
  tag_list want_cancel{{"p", kAgent}, {"e", kPrompt, "", "root"}, {"s", "sender:" + kClient}, {"encryption", "nip44"}};
  EXPECT_EQ(c->tags, want_cancel);
  EXPECT_TRUE(parse_cancel(c->plaintext));
  // The events pass the receiving side's tag rules.
  event e;
  e.kind = static_cast<std::int64_t>(kind::cancel);
  e.tags = c->tags;
  EXPECT_TRUE(check_tags(e));
}

// Conformance example 1: ai.prompt without message is rejected; bad JSON is PARSE_ERROR.
TEST(nip_xx_machines_test, prompt_and_cancel_payloads_are_checked_before_sending) {
  EXPECT_EQ(prompt_event(kAgent, kClient, std::nullopt, R"({"ver":1})").err().code, errc::xx_invalid_schema);
  EXPECT_EQ(prompt_event(kAgent, kClient, std::nullopt, "{").err().code, errc::xx_parse_error);
  EXPECT_EQ(cancel_event(kAgent, kClient, kPrompt, std::nullopt, "bored").err().code, errc::xx_invalid_schema);
}

// ai.info: clients cache the newest valid ai.info by (created_at, id); invalid ones never win.
TEST(nip_xx_machines_test, selects_the_newest_valid_info) {
  auto info = [](std::int64_t at, const std::string& suffix, std::string content, std::string author = kAgent) {
    event e;
    e.kind = static_cast<std::int64_t>(kind::info);
    e.pubkey = std::move(author);
    e.created_at = at;
    e.tags = info_tags("agent-info");
    e.content = std::move(content);
    e.id = id_of(suffix);
    return e;
  };
  std::string ok = to_json(default_info());
  std::vector<event> v{info(10, "1", ok), info(20, "2", ok), info(20, "3", ok), info(30, "4", "{not json"),
                       info(40, "5", ok, kOther)};
  EXPECT_EQ(*select_info(v, kAgent), 2u);  // created_at 20, higher id
  v[2].tags.clear();                        // no d tag: invalid
  EXPECT_EQ(*select_info(v, kAgent), 1u);
  EXPECT_FALSE(select_info({info(1, "1", R"({"ver":1})")}, kAgent));  // schema: encryption missing
  EXPECT_FALSE(select_info({}, kAgent));
}

// Prompts are handled once (dedupe), only when addressed to this agent, and only while fresh.
TEST(nip_xx_machines_test, inbox_dedupes_and_checks_the_recipient) {
  agent_inbox inbox(kAgent, 1000, 900);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "1", 1000), 1100), prompt_disposition::handle);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "1", 1000), 1100), prompt_disposition::duplicate);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "2", 1000, kOther), 1100), prompt_disposition::not_addressed);
}

// The seen set is bounded, but a flood of new ids cannot evict a prompt still in flight: its copy
// is a duplicate until the run ended (exactly once per prompt id).
TEST(nip_xx_machines_test, inbox_seen_set_is_bounded_but_keeps_what_is_in_flight) {
  agent_inbox inbox(kAgent, 0, 900, 2);
  inbox.go_live();
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "1", 1000), 1000), prompt_disposition::handle);
  inbox.run_started(id_of("1"), kClient);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "2", 1000), 1000), prompt_disposition::handle);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "3", 1000), 1000), prompt_disposition::handle);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "3", 1000), 1000), prompt_disposition::duplicate);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "1", 1000), 1000), prompt_disposition::duplicate);  // running
  inbox.prompt_done(id_of("1"));
  inbox.prompt_done(id_of("2"));
  inbox.prompt_done(id_of("3"));
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "1", 1000), 1000), prompt_disposition::handle);  // forgotten
}

// Validation and failure rules, MAY (ours): a stale prompt gets no terminal; stored prompts
// before `since` are skipped silently, a live one older than max_clock_skew is reported once.
TEST(nip_xx_machines_test, inbox_freshness_stored_and_live) {
  agent_inbox inbox(kAgent, 5000, 900);
  EXPECT_EQ(inbox.subscribe_since(10000), 5000);
  EXPECT_EQ(inbox.subscribe_since(5500), 4600);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "1", 4999), 10000), prompt_disposition::too_old);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "2", 5000), 10000), prompt_disposition::handle);
  inbox.go_live();
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "3", 9100), 10000), prompt_disposition::handle);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "4", 9099), 10000), prompt_disposition::stale);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "4", 9099), 10000), prompt_disposition::too_old);  // reported once
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "5", 1, kOther), 10000), prompt_disposition::too_old);
}

// Validation and failure rules, MUST: ai.cancel without a matching active run is ignored; only the
// run's client, addressed to this agent, NIP-44, with a valid payload, cancels it.
TEST(nip_xx_machines_test, inbox_authorizes_cancels) {
  agent_inbox inbox(kAgent, 0, 900);
  std::string pid = id_of("1");
  EXPECT_EQ(inbox.on_cancel(cancel_from(kClient, pid)), cancel_disposition::ignore);  // no run
  ASSERT_EQ(inbox.on_prompt(prompt_from(kClient, "1", 10), 10), prompt_disposition::handle);
  // While admitting: held once, applied when the run starts.
  EXPECT_EQ(inbox.on_cancel(cancel_from(kClient, pid)), cancel_disposition::held);
  EXPECT_EQ(inbox.on_cancel(cancel_from(kClient, pid)), cancel_disposition::ignore);
  inbox.run_started(pid, kClient);
  auto held = inbox.take_held(pid);
  ASSERT_TRUE(held);
  EXPECT_FALSE(inbox.take_held(pid));
  EXPECT_EQ(inbox.on_cancel(*held), cancel_disposition::decrypt);
  EXPECT_EQ(*inbox.authorize_cancel(*held, kCancel), pid);
  EXPECT_FALSE(inbox.authorize_cancel(*held, R"({"ver":1,"reason":"bored"})"));
  EXPECT_EQ(inbox.on_cancel(cancel_from(kOther, pid)), cancel_disposition::ignore);  // not its client
  EXPECT_FALSE(inbox.authorize_cancel(cancel_from(kOther, pid), kCancel));
  tag_list to_other{{"p", kOther}, {"e", pid, "", "root"}, {"encryption", "nip44"}};
  EXPECT_EQ(inbox.on_cancel(cancel_from(kClient, pid, to_other)), cancel_disposition::ignore);
  tag_list plain{{"p", kAgent}, {"e", pid, "", "root"}};
  EXPECT_EQ(inbox.on_cancel(cancel_from(kClient, pid, plain)), cancel_disposition::ignore);
  inbox.prompt_done(pid);  // completed: a later cancel is ignored (Protocol Flow 8)
  EXPECT_EQ(inbox.on_cancel(cancel_from(kClient, pid)), cancel_disposition::ignore);
  EXPECT_FALSE(inbox.authorize_cancel(cancel_from(kClient, pid), kCancel));
}

// Protocol Flow 8 / Cancel MUST: a cancel after the terminal is a no-op; one effective cancel
// gives exactly one CANCELLED, which the client machine takes as the run's terminal.
TEST(nip_xx_machines_test, cancel_after_terminal_is_a_noop_and_cancelled_is_the_terminal) {
  agent_run done(kPrompt, kClient, std::nullopt, default_info());
  ASSERT_TRUE(done.respond("hi"));
  EXPECT_FALSE(done.cancel());

  agent_run running(kPrompt, kClient, std::nullopt, default_info());
  auto out = running.cancel();
  ASSERT_TRUE(out);
  EXPECT_FALSE(running.cancel());
  client_run client(kPrompt, kAgent, kClient, 0, 0);
  event e = from_agent(out->k, 10, "1");
  e.tags = out->tags;
  auto u = client.on_event(e, out->plaintext, 0);
  EXPECT_EQ(u.type, update_kind::terminal);
  EXPECT_EQ(client.terminal()->error->code, "CANCELLED");
}

// Conformance example 4 / Security: a noncompliant encryption tag is UNSUPPORTED_ENCRYPTION, and
// the client ignores status/delta/tool_call after the terminal.
TEST(nip_xx_machines_test, unsupported_encryption_and_nothing_after_the_terminal) {
  client_run run(kPrompt, kAgent, kClient, 1500, 0);
  event bad = from_agent(kind::delta, 10, "1");
  bad.tags = {{"p", kClient}, {"e", kPrompt, "", "root"}, {"encryption", "nip04"}};
  auto u = run.on_event(bad, delta("x", 0), 0);
  EXPECT_EQ(u.type, update_kind::rejected);
  EXPECT_EQ(u.code, errc::xx_unsupported_encryption);
  EXPECT_EQ(run.on_event(from_agent(kind::response, 10, "2"), response("final"), 0).type, update_kind::terminal);
  EXPECT_EQ(run.on_event(from_agent(kind::delta, 11, "3"), delta("late", 0), 0).type, update_kind::ignored);
  EXPECT_EQ(run.on_event(from_agent(kind::status, 11, "4"), R"({"ver":1,"state":"thinking"})", 0).type, update_kind::ignored);
  EXPECT_EQ(run.terminal()->response->text, "final");
  EXPECT_EQ(run.text(), "");  // the final render comes from ai.response, not the deltas
}

// Conformance example 2 / Security: a tool not in ai.info tool_names is UNSUPPORTED_FEATURE;
// Protocol Flow 1: without ai.info, streaming on, encryption nip44, no tools.
TEST(nip_xx_machines_test, unadvertised_tool_and_the_defaults_without_ai_info) {
  info_payload d = default_info();
  EXPECT_TRUE(d.supports_streaming.value_or(false));
  EXPECT_EQ(d.encryption, std::vector<std::string>{"nip44"});
  EXPECT_TRUE(d.tool_names.empty());
  agent_run run(kPrompt, kClient, std::nullopt, d);
  tool_call_payload call;
  call.name = "search";
  call.phase = "start";
  EXPECT_EQ(run.tool_call(call).err().code, errc::xx_unsupported_feature);
  EXPECT_FALSE(run.finished());  // the caller ends the run with it
}
