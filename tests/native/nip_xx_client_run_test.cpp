#include <gtest/gtest.h>

#include "protocols/nip_xx/client_run.hpp"
#include "protocols/nip_xx/tags.hpp"
#include "util/hex.hpp"

using namespace nostr;
using namespace nostr::nip_xx;

namespace {

const std::string kPrompt(64, 'a');
const std::string kAgent(64, 'b');
const std::string kClient(64, 'c');

// Events are built by hand: client_run trusts that signatures were verified upstream.
event run_event(kind k, std::int64_t created_at, std::string id_suffix, tag_list tags = {}) {
  event e;
  e.kind = static_cast<std::int64_t>(k);
  e.pubkey = kAgent;
  e.created_at = created_at;
  e.tags = tags.empty() ? run_event_tags(kClient, kPrompt, std::nullopt) : std::move(tags);
  e.id = std::string(64 - id_suffix.size(), '0') + id_suffix;
  return e;
}

std::string delta(const std::string& text, std::optional<int> seq = std::nullopt) {
  delta_payload d{text, seq ? std::optional<std::int64_t>(*seq) : std::nullopt, std::nullopt};
  return to_json(d);
}

}  // namespace

TEST(nip_xx_client_run_test, reorders_by_seq_and_marks_gaps) {
  client_run run(kPrompt, kAgent, kClient);
  EXPECT_EQ(run.on_event(run_event(kind::delta, 10, "2"), delta("c", 2)).type, update_kind::delta);
  EXPECT_TRUE(run.degraded());
  EXPECT_EQ(*run.next_missing_seq(), 0);
  EXPECT_EQ(run.on_event(run_event(kind::delta, 10, "0"), delta("a", 0)).type, update_kind::delta);
  EXPECT_EQ(run.text(), "ac");  // best effort across the gap
  EXPECT_TRUE(run.degraded());
  EXPECT_EQ(run.on_event(run_event(kind::delta, 10, "1"), delta("b", 1)).type, update_kind::delta);
  EXPECT_EQ(run.text(), "abc");
  EXPECT_FALSE(run.degraded());
}

TEST(nip_xx_client_run_test, dedupes_by_id_and_by_seq_text) {
  client_run run(kPrompt, kAgent, kClient);
  auto e = run_event(kind::delta, 10, "1");
  EXPECT_EQ(run.on_event(e, delta("a", 0)).type, update_kind::delta);
  EXPECT_EQ(run.on_event(e, delta("a", 0)).type, update_kind::ignored);
  EXPECT_EQ(run.on_event(run_event(kind::delta, 11, "2"), delta("a", 0)).type, update_kind::ignored);
  auto conflict = run.on_event(run_event(kind::delta, 11, "3"), delta("other", 0));
  EXPECT_EQ(conflict.type, update_kind::rejected);
  EXPECT_EQ(conflict.code, errc::xx_invalid_sequence);
  EXPECT_EQ(run.text(), "a");
}

TEST(nip_xx_client_run_test, non_monotonic_seq_is_invalid_sequence) {
  client_run run(kPrompt, kAgent, kClient);
  EXPECT_EQ(run.on_event(run_event(kind::delta, 20, "1"), delta("x", 1)).type, update_kind::delta);
  auto u = run.on_event(run_event(kind::delta, 30, "2"), delta("y", 0));  // lower seq, later time
  EXPECT_EQ(u.type, update_kind::rejected);
  EXPECT_EQ(u.code, errc::xx_invalid_sequence);
  auto mixed = run.on_event(run_event(kind::delta, 30, "3"), delta("z"));
  EXPECT_EQ(mixed.code, errc::xx_invalid_sequence);
}

TEST(nip_xx_client_run_test, orders_without_seq_by_created_at_then_id) {
  client_run run(kPrompt, kAgent, kClient);
  run.on_event(run_event(kind::delta, 12, "1"), delta("c"));
  run.on_event(run_event(kind::delta, 11, "9"), delta("b"));
  run.on_event(run_event(kind::delta, 11, "2"), delta("a"));
  EXPECT_EQ(run.text(), "abc");
  EXPECT_FALSE(run.degraded());
}

TEST(nip_xx_client_run_test, ignores_events_of_other_runs_and_authors) {
  client_run run(kPrompt, kAgent, kClient);
  auto other_run = run_event(kind::delta, 10, "1", run_event_tags(kClient, std::string(64, 'f'), std::nullopt));
  EXPECT_EQ(run.on_event(other_run, delta("x", 0)).type, update_kind::ignored);
  auto other_client = run_event(kind::delta, 10, "2", run_event_tags(std::string(64, 'd'), kPrompt, std::nullopt));
  EXPECT_EQ(run.on_event(other_client, delta("x", 0)).type, update_kind::ignored);
  auto impostor = run_event(kind::delta, 10, "3");
  impostor.pubkey = std::string(64, 'e');
  EXPECT_EQ(run.on_event(impostor, delta("x", 0)).type, update_kind::ignored);
  auto prompt_kind = run_event(kind::prompt, 10, "4");
  EXPECT_EQ(run.on_event(prompt_kind, delta("x", 0)).type, update_kind::ignored);
  EXPECT_EQ(run.text(), "");
}

TEST(nip_xx_client_run_test, bad_tags_and_payloads_are_rejected_with_codes) {
  client_run run(kPrompt, kAgent, kClient);
  auto no_root = run_event(kind::delta, 10, "1", {{"p", kClient}, {"e", kPrompt}, {"encryption", "nip44"}});
  EXPECT_EQ(run.on_event(no_root, delta("x", 0)).code, errc::xx_invalid_schema);
  auto nip04 = run_event(kind::delta, 10, "2", {{"p", kClient}, {"e", kPrompt, "", "root"}, {"encryption", "nip04"}});
  EXPECT_EQ(run.on_event(nip04, delta("x", 0)).code, errc::xx_unsupported_encryption);
  auto no_enc = run_event(kind::delta, 10, "3", {{"p", kClient}, {"e", kPrompt, "", "root"}});
  EXPECT_EQ(run.on_event(no_enc, delta("x", 0)).code, errc::xx_invalid_schema);
  EXPECT_EQ(run.on_event(run_event(kind::delta, 10, "4"), "{not json").code, errc::xx_parse_error);
  EXPECT_EQ(run.on_event(run_event(kind::status, 10, "5"), R"({"ver":1,"state":"napping"})").code,
            errc::xx_invalid_schema);
  auto hint = run_event(kind::tool_call, 10, "6", run_event_tags(kClient, kPrompt, std::nullopt, "calc", "start"));
  EXPECT_EQ(run.on_event(hint, R"({"ver":1,"name":"web","phase":"start"})").code, errc::xx_invalid_schema);
  auto good_hint = run_event(kind::tool_call, 10, "7", run_event_tags(kClient, kPrompt, std::nullopt, "calc", "start"));
  auto t = run.on_event(good_hint, R"({"ver":1,"name":"calc","phase":"start","arguments":{"expr":"1+1"}})");
  EXPECT_EQ(t.type, update_kind::tool_call);
  EXPECT_EQ(*t.tool_call->name, "calc");
}

TEST(nip_xx_client_run_test, terminal_rules_highest_created_at_then_id_wins) {
  client_run run(kPrompt, kAgent, kClient);
  run.on_event(run_event(kind::delta, 10, "1"), delta("partial", 0));
  auto r = run.on_event(run_event(kind::response, 20, "5"), R"({"ver":1,"text":"final answer"})");
  EXPECT_EQ(r.type, update_kind::terminal);
  EXPECT_EQ(run.terminal()->response->text, "final answer");
  // Nothing but a newer terminal applies after a terminal.
  EXPECT_EQ(run.on_event(run_event(kind::delta, 30, "2"), delta("late", 1)).type, update_kind::ignored);
  EXPECT_EQ(run.on_event(run_event(kind::status, 30, "3"), R"({"ver":1,"state":"done"})").type, update_kind::ignored);
  EXPECT_EQ(run.text(), "partial");
  // Response/cancel race: an older error loses, a same-second error with a higher id wins.
  EXPECT_EQ(run.on_event(run_event(kind::error, 19, "9"), R"({"ver":1,"code":"CANCELLED","message":"c"})").type,
            update_kind::ignored);
  auto wins = run.on_event(run_event(kind::error, 20, "6"), R"({"ver":1,"code":"CANCELLED","message":"c"})");
  EXPECT_EQ(wins.type, update_kind::terminal);
  EXPECT_TRUE(wins.replaced);
  EXPECT_EQ(run.terminal()->error->code, "CANCELLED");
  EXPECT_EQ(run.on_event(run_event(kind::response, 20, "4"), R"({"ver":1,"text":"older id"})").type,
            update_kind::ignored);
}

TEST(nip_xx_client_run_test, envelope_text_is_unwrapped) {
  client_run run(kPrompt, kAgent, kClient);
  auto thinking = run.on_event(run_event(kind::delta, 10, "1"),
                               delta("event=delta|mode=thinking|phase=update|block=Looking%20up|ts=1", 0));
  EXPECT_EQ(thinking.type, update_kind::delta);
  EXPECT_EQ(*thinking.thinking, "Looking up");
  run.on_event(run_event(kind::delta, 10, "2"), delta("event=delta|phase=update|text=Hello%20world|ts=1", 1));
  EXPECT_EQ(run.text(), "Hello world");
  run.on_event(run_event(kind::response, 11, "4"),
               R"({"ver":1,"text":"event=final|phase=end|text=Here%20it%20is|ts=2"})");
  EXPECT_EQ(run.terminal()->response->text, "Here it is");
}

// Text that starts with "event=" but is no whole envelope of the kind is plain text: applied as it
// is, never INVALID_SCHEMA (it used to be, and a run of an agent's ordinary text never settled).
TEST(nip_xx_client_run_test, text_starting_with_event_is_plain_text) {
  client_run run(kPrompt, kAgent, kClient);
  auto first = run.on_event(run_event(kind::delta, 10, "1"), delta("event=click fired; ", 0));
  EXPECT_EQ(first.type, update_kind::delta) << first.reason;
  EXPECT_EQ(run.on_event(run_event(kind::delta, 10, "2"), delta("event=delta|phase=update|ts=1", 1)).type,
            update_kind::delta);
  EXPECT_EQ(run.text(), "event=click fired; event=delta|phase=update|ts=1");
  auto tool = run.on_event(run_event(kind::tool_call, 10, "3"), R"({"ver":1,"text":"event=tool|phase=start"})");
  EXPECT_EQ(tool.type, update_kind::tool_call) << tool.reason;
  EXPECT_EQ(*tool.tool_call->text, "event=tool|phase=start");
  auto final = run.on_event(run_event(kind::response, 11, "4"), R"({"ver":1,"text":"event=final|phase=end|text=x"})");
  EXPECT_EQ(final.type, update_kind::terminal) << final.reason;
  EXPECT_EQ(run.terminal()->response->text, "event=final|phase=end|text=x");
}

// The run settles a grace period after its first terminal (not at it): a newer terminal arriving
// within it replaces the first, and says which one it replaced; the deadline does not move.
TEST(nip_xx_client_run_test, settles_a_grace_period_after_the_first_terminal) {
  client_run run(kPrompt, kAgent, kClient);
  EXPECT_EQ(run.terminal_grace_ms(), default_terminal_grace_ms);
  EXPECT_FALSE(run.settle_at_ms().has_value());
  run.on_event(run_event(kind::delta, 10, "1"), delta("partial", 0), 1000);
  EXPECT_FALSE(run.settle_at_ms().has_value());
  // Oldest first: a response, then (created_at one second later) an error.
  auto older = run.on_event(run_event(kind::response, 20, "5"), R"({"ver":1,"text":"first"})", 5000);
  EXPECT_EQ(older.type, update_kind::terminal);
  EXPECT_FALSE(older.replaced);
  EXPECT_EQ(*run.settle_at_ms(), 5000 + default_terminal_grace_ms);
  auto newer = run.on_event(run_event(kind::error, 21, "6"), R"({"ver":1,"code":"CANCELLED","message":"c"})", 5400);
  EXPECT_EQ(newer.type, update_kind::terminal);
  EXPECT_TRUE(newer.replaced);
  EXPECT_EQ(newer.replaced_id, run_event(kind::response, 20, "5").id);
  EXPECT_EQ(run.terminal()->error->code, "CANCELLED");
  EXPECT_EQ(*run.settle_at_ms(), 5000 + default_terminal_grace_ms);  // from the first terminal
  client_run at_once(kPrompt, kAgent, kClient, 0);
  at_once.on_event(run_event(kind::response, 20, "5"), R"({"ver":1,"text":"first"})", 7000);
  EXPECT_EQ(*at_once.settle_at_ms(), 7000);
  // A rejected terminal starts no grace.
  client_run broken(kPrompt, kAgent, kClient);
  EXPECT_EQ(broken.on_event(run_event(kind::response, 20, "5"), "not json", 1).type, update_kind::rejected);
  EXPECT_FALSE(broken.settle_at_ms().has_value());
}

TEST(nip_xx_client_run_test, session_default_and_tags) {
  EXPECT_EQ(default_session("ABCDEF"), "sender:abcdef");
  event info;
  info.kind = 31340;
  info.pubkey = kAgent;
  EXPECT_EQ(check_tags(info).code(), errc::xx_invalid_schema);  // d required
  info.tags = info_tags("agent-info");
  EXPECT_EQ(*check_tags(info)->d, "agent-info");
  event prompt;
  prompt.kind = 25802;
  prompt.tags = prompt_tags(kAgent, std::string("session:x"));
  auto t = check_tags(prompt);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->p, kAgent);
  EXPECT_EQ(session_of(*t, kClient), "session:x");
  prompt.tags = prompt_tags(kAgent, std::nullopt);
  EXPECT_EQ(session_of(*check_tags(prompt), kClient), "sender:" + kClient);
  prompt.tags = {{"p", "ZZ"}, {"encryption", "nip44"}};
  EXPECT_EQ(check_tags(prompt).code(), errc::xx_invalid_schema);
  event cancel;
  cancel.kind = 25806;
  cancel.tags = cancel_tags(kAgent, kPrompt, std::nullopt);
  EXPECT_EQ(*check_tags(cancel)->root, kPrompt);
}
