// The NIP-XX machines' deadlines, incremental text, requests, ai.info choice and the agent inbox
// (dedupe, freshness, cancel authorization): the rules the JS driver used to decide, stepped here
// with a manual clock.
#include <gtest/gtest.h>

#include <cstring>

#include "crypto/hash.hpp"
#include "crypto/secp256k1.hpp"
#include "util/hex.hpp"
#include "event/filter.hpp"
#include "nips/nip44.hpp"
#include "nips/nip59.hpp"
#include "protocols/nip_xx/agent_inbox.hpp"
#include "protocols/nip_xx/agent_info.hpp"
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
  EXPECT_EQ(inbox.authorize_cancel(*held, kCancel)->prompt_id, pid);
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

// --- The conformance rules the JS layer used to decide alone (tests/js/nipxx-conformance.js).

namespace {

// Deterministic key material: sha256(seed || counter), the valid keys only.
bytes32 bytes_of(std::uint64_t seed) {
  std::uint8_t in[8];
  std::memcpy(in, &seed, 8);
  return crypto::sha256(in, sizeof in);
}
bytes32 key_of(std::uint64_t seed) {
  for (;; ++seed)
    if (crypto::secret_key_valid(bytes_of(seed))) return bytes_of(seed);
}
std::string pub_of(const bytes32& sk) { return hex::encode(*crypto::xonly_public_key(sk)); }

info_payload info_with_nip59(bool supported) {
  info_payload info = default_info();
  info.supports_nip59 = supported;
  return info;
}

}  // namespace

// Encryption, key agreement: each message a fresh NIP-44 nonce. The nonce is the encryption's
// only varying input: two messages with the same text differ exactly when their nonces do (the
// bindings draw a fresh 32-byte nonce from the CSPRNG per call), and each decrypts alone.
TEST(nip_xx_machines_test, each_message_needs_its_own_nonce) {
  bytes32 client = key_of(1), agent = key_of(100);
  auto ck = *nip44::get_conversation_key(client, *crypto::xonly_public_key(agent));
  auto out = prompt_event(pub_of(agent), pub_of(client), std::nullopt, R"({"ver":1,"message":"same"})");
  ASSERT_TRUE(out);
  auto a = nip44::encrypt(out->plaintext, ck, bytes_of(7));
  auto b = nip44::encrypt(out->plaintext, ck, bytes_of(8));
  auto again = nip44::encrypt(out->plaintext, ck, bytes_of(7));
  ASSERT_TRUE(a && b && again);
  EXPECT_NE(*a, *b);
  EXPECT_EQ(*a, *again);  // a reused nonce is visible: the same bytes
  EXPECT_EQ(*nip44::decrypt(*a, ck), out->plaintext);
  EXPECT_EQ(*nip44::decrypt(*b, ck), out->plaintext);
}

// Encryption, NIP-59: a gift-wrapped run event is routed by the wrapper's p tag and kind only:
// the wrap carries no NIP-XX kind, author, e or s tag, and the client's subscription asks for
// nothing else (kind 1059, #p itself, dated back the wraps' two days).
TEST(nip_xx_machines_test, wrapped_runs_route_by_the_wrap_p_tag_and_kind_only) {
  bytes32 client_sk = key_of(1), agent_sk = key_of(100);
  std::string client = pub_of(client_sk), agent = pub_of(agent_sk);
  auto out = prompt_event(agent, client, std::nullopt, R"({"ver":1,"message":"private"})");
  ASSERT_TRUE(out);
  event_template t{1700000000, static_cast<std::int64_t>(out->k), out->tags, out->plaintext};
  event rumor = nip59::create_rumor(t, client);
  nip59::wrap_randomness rnd;
  rnd.wrap_secret = key_of(500);
  rnd.seal_nonce = bytes_of(501);
  rnd.wrap_nonce = bytes_of(502);
  rnd.seal_aux = bytes_of(503);
  rnd.wrap_aux = bytes_of(504);
  auto wrap = nip59::wrap(rumor, client_sk, agent, 1700000000, rnd);
  ASSERT_TRUE(wrap);
  EXPECT_EQ(wrap->kind, nip59::kGiftWrapKind);
  EXPECT_EQ(wrap->tags, (tag_list{{"p", agent}}));
  EXPECT_NE(wrap->pubkey, client);
  auto opened = nip59::unwrap(*wrap, agent_sk, {true});
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->rumor.kind, static_cast<std::int64_t>(kind::prompt));
  EXPECT_EQ(opened->rumor.pubkey, client);

  filter f = run_filter(privacy_profile::nip59, agent, client, kPrompt, 1700000000);
  EXPECT_EQ(*f.kinds, (std::vector<std::int64_t>{nip59::kGiftWrapKind}));
  EXPECT_FALSE(f.authors);
  EXPECT_EQ(f.tags.size(), 1u);
  EXPECT_EQ(f.tags.at("p"), (std::vector<std::string>{client}));
  EXPECT_EQ(*f.since, 1700000000 - wrap_lookback_s);
  EXPECT_GT(wrap_lookback_s, nip59::kMaxTimestampTweak);  // a wrap dated two days back is still found
}

// NIP-59 (MAY, our reading): a rumor holds the payload itself; one holding NIP-44 text is read
// too (decrypted first).
TEST(nip_xx_machines_test, rumor_content_is_the_payload_or_nip44_text) {
  EXPECT_TRUE(rumor_content_is_payload(R"({"ver":1,"message":"hi"})"));
  bytes32 a = key_of(1), b = key_of(100);
  auto ck = *nip44::get_conversation_key(a, *crypto::xonly_public_key(b));
  auto sealed = nip44::encrypt(R"({"ver":1,"message":"hi"})", ck, bytes_of(9));
  ASSERT_TRUE(sealed);
  EXPECT_FALSE(rumor_content_is_payload(*sealed));
}

// ai.info: published in the agent's namespace with one stable d value; its payload is checked
// before it goes out, and what goes out is what clients accept.
TEST(nip_xx_machines_test, info_event_has_one_stable_d_and_a_valid_payload) {
  std::string info = to_json(default_info());
  auto out = info_event("agent-info", info);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->k, kind::info);
  EXPECT_EQ(out->tags, (tag_list{{"d", "agent-info"}}));
  EXPECT_EQ(out->plaintext, info);
  event e;
  e.kind = static_cast<std::int64_t>(out->k);
  e.pubkey = kAgent;
  e.id = id_of("1");
  e.tags = out->tags;
  e.content = out->plaintext;
  EXPECT_TRUE(is_valid_info(e, kAgent));
  EXPECT_EQ(info_event("", info).err().code, errc::invalid_argument);
  EXPECT_EQ(info_event("agent-info", R"({"ver":1})").err().code, errc::xx_invalid_schema);
  EXPECT_EQ(info_event("agent-info", "{").err().code, errc::xx_parse_error);
}

// Model and schema negotiation: clients use ai.info before prompts; Protocol Flow 2: with
// supports_nip59 and privacy desired, NIP-59 wrappers. A nip59 wish the agent cannot honour fails
// before anything is sent; 'auto' falls back to NIP-44 (the seed's defaults without an ai.info).
TEST(nip_xx_machines_test, privacy_profile_follows_ai_info) {
  EXPECT_FALSE(needs_info(privacy_wish::nip44));
  EXPECT_TRUE(needs_info(privacy_wish::nip59));
  EXPECT_TRUE(needs_info(privacy_wish::automatic));
  EXPECT_EQ(*choose_privacy(privacy_wish::automatic, info_with_nip59(true)), privacy_profile::nip59);
  EXPECT_EQ(*choose_privacy(privacy_wish::nip59, info_with_nip59(true)), privacy_profile::nip59);
  EXPECT_EQ(*choose_privacy(privacy_wish::automatic, info_with_nip59(false)), privacy_profile::nip44);
  EXPECT_EQ(*choose_privacy(privacy_wish::automatic, default_info()), privacy_profile::nip44);
  EXPECT_EQ(choose_privacy(privacy_wish::nip59, default_info()).err().code, errc::xx_unsupported_feature);
  EXPECT_EQ(*choose_privacy(privacy_wish::nip44, info_with_nip59(true)), privacy_profile::nip44);
}

// Session recovery recipe: resume by #e root; the latest terminal is the run state, in whatever
// order the relay returns the stored terminals.
TEST(nip_xx_machines_test, resume_by_e_root_and_the_latest_terminal_is_the_state) {
  filter f = run_filter(privacy_profile::nip44, kAgent, kClient, kPrompt, 100);
  EXPECT_EQ(f.tags.at("e"), (std::vector<std::string>{kPrompt}));
  EXPECT_EQ(*f.authors, (std::vector<std::string>{kAgent}));
  event older = from_agent(kind::response, 50, "1");
  event newer = from_agent(kind::error, 60, "2");
  EXPECT_TRUE(matches(f, older) && matches(f, newer));
  event elsewhere = from_agent(kind::response, 70, "3");
  elsewhere.tags = run_event_tags(kClient, kOther, std::nullopt);
  EXPECT_FALSE(matches(f, elsewhere));
  client_run probe(kPrompt, kAgent, kClient);
  EXPECT_TRUE(probe.names_run(older));  // what the driver decrypts: only events naming the run
  EXPECT_FALSE(probe.names_run(elsewhere));
  const std::string error_text = to_json(error_payload{"CANCELLED", "stop", std::nullopt, std::nullopt});
  for (bool newest_first : {false, true}) {
    client_run run(kPrompt, kAgent, kClient);
    if (newest_first) {
      run.on_event(newer, error_text, 0);
      run.on_event(older, response("done"), 0);
    } else {
      run.on_event(older, response("done"), 0);
      run.on_event(newer, error_text, 0);
    }
    ASSERT_TRUE(run.terminal());
    EXPECT_EQ(run.terminal()->event_id, newer.id);
  }
}

// Session recovery recipe: find a session by kinds 25802, #s and #p agent (the default session
// sender:<client> also finds untagged prompts), then the runs' terminals by #s and by #e root, the
// ids chunked so no filter exceeds what relays take.
TEST(nip_xx_machines_test, session_filters_find_prompts_by_s_and_p_and_terminals_by_e) {
  auto named = session_prompt_filters(kAgent, kClient, "chat-1");
  ASSERT_EQ(named.size(), 1u);
  auto p = prompt_event(kAgent, kClient, std::string("chat-1"), R"({"ver":1,"message":"hi"})");
  event e;
  e.kind = static_cast<std::int64_t>(p->k);
  e.pubkey = kClient;
  e.tags = p->tags;
  EXPECT_TRUE(matches(named[0], e));
  EXPECT_EQ(named[0].tags.at("s"), (std::vector<std::string>{"chat-1"}));
  EXPECT_EQ(named[0].tags.at("p"), (std::vector<std::string>{kAgent}));
  EXPECT_EQ(*named[0].kinds, (std::vector<std::int64_t>{25802}));
  auto defaults = session_prompt_filters(kAgent, kClient, default_session(kClient));
  ASSERT_EQ(defaults.size(), 2u);
  EXPECT_FALSE(defaults[1].tags.count("s"));
  e.tags = {{"p", kAgent}, {"encryption", "nip44"}};  // an untagged prompt of an older client
  EXPECT_FALSE(matches(named[0], e));
  EXPECT_TRUE(matches(defaults[1], e));

  std::vector<std::string> ids;
  for (int i = 0; i < 250; ++i) ids.push_back(id_of(std::to_string(i)));
  auto terminals = session_terminal_filters(kAgent, kClient, "chat-1", ids);
  ASSERT_EQ(terminals.size(), 4u);  // by #s, then 100 + 100 + 50 ids
  EXPECT_EQ(terminals[0].tags.at("s"), (std::vector<std::string>{"chat-1"}));
  EXPECT_EQ(terminals[3].tags.at("e").size(), 50u);
  for (const auto& t : terminals) EXPECT_EQ(*t.kinds, (std::vector<std::int64_t>{25803, 25805}));
}

// Kinds: prompts and terminals are durable for replay and restoration, but sit in NIP-01's
// ephemeral range: only a relay told to store them keeps them (the dev relay's storeKinds).
TEST(nip_xx_machines_test, durable_kinds_are_prompts_and_terminals_in_the_ephemeral_range) {
  for (kind k : {kind::prompt, kind::response, kind::error}) {
    EXPECT_TRUE(is_durable(k));
    EXPECT_EQ(classify_kind(static_cast<std::int64_t>(k)), kind_class::ephemeral);
  }
  for (kind k : {kind::status, kind::delta, kind::tool_call, kind::cancel, kind::info}) EXPECT_FALSE(is_durable(k));
}

// Tool model: clients do not execute tools from ai.tool_call: the client run turns one into an
// update and nothing else (no text, no terminal, no deadline of its own).
TEST(nip_xx_machines_test, tool_calls_are_updates_only) {
  client_run run(kPrompt, kAgent, kClient, 0, 1000);
  run.start(0);
  auto u = run.on_event(from_agent(kind::tool_call, 10, "1"),
                        R"({"ver":1,"name":"shell","phase":"start","arguments":{"cmd":"rm -rf /"}})", 5);
  EXPECT_EQ(u.type, update_kind::tool_call);
  ASSERT_TRUE(u.tool_call);
  EXPECT_EQ(*u.tool_call->name, "shell");
  EXPECT_EQ(run.text(), "");
  EXPECT_FALSE(run.terminal());
  EXPECT_EQ(*run.next_deadline(), 1005);  // only the idle deadline moved
}

// Backward compatibility: ver 1 only (another ver is INVALID_SCHEMA on every kind), and field
// names are not redefined: a camelCase alias is an unknown field, ignored, not read for the
// canonical one.
TEST(nip_xx_machines_test, ver_1_only_and_no_aliases) {
  const char* v2[] = {R"({"ver":2,"message":"hi"})", R"({"ver":2,"reason":"timeout"})", R"({"ver":2,"text":"x"})",
                      R"({"ver":2,"state":"thinking"})", R"({"ver":2,"code":"CANCELLED","message":"x"})"};
  std::int64_t kinds[] = {25802, 25806, 25803, 25800, 25805};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(validate_payload(kinds[i], v2[i]).err().code, errc::xx_invalid_schema) << v2[i];
  auto p = parse_prompt(R"({"ver":1,"message":"hi","toolSchemaVersion":3,"fallbackModels":["m"]})");
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->tool_schema_version);
  EXPECT_FALSE(p->fallback_models);
}

// The agent's subscription: its prompts and cancels by #p from the inbox's since (early enough for
// both freshness rules), and in the privacy-first profile the wraps to it, two days further back.
TEST(nip_xx_machines_test, inbox_filters_cover_prompts_cancels_and_wraps) {
  agent_inbox inbox(kAgent, 5000, 900);
  auto plain = inbox.filters(10000, false);
  ASSERT_EQ(plain.size(), 2u);
  EXPECT_EQ(*plain[0].kinds, (std::vector<std::int64_t>{25802}));
  EXPECT_EQ(*plain[1].kinds, (std::vector<std::int64_t>{25806}));
  for (const auto& f : plain) {
    EXPECT_EQ(*f.since, inbox.subscribe_since(10000));
    EXPECT_EQ(f.tags.at("p"), (std::vector<std::string>{kAgent}));
  }
  EXPECT_TRUE(matches(plain[0], prompt_from(kClient, "1", 9000)));
  auto wrapped = inbox.filters(10000, true);
  ASSERT_EQ(wrapped.size(), 3u);
  EXPECT_EQ(*wrapped[2].kinds, (std::vector<std::int64_t>{nip59::kGiftWrapKind}));
  EXPECT_EQ(*wrapped[2].since, inbox.subscribe_since(10000) - wrap_lookback_s);
}

// A stored prompt is judged by when it arrived, not when it was opened: a gift wrap delivered
// before EOSE and opened after it is still a stored prompt (since applies, not the skew window).
TEST(nip_xx_machines_test, inbox_judges_a_late_opened_wrap_by_its_arrival) {
  agent_inbox inbox(kAgent, 9940, 900);  // started at 10000, answering stored prompts from 60 s back
  inbox.go_live();                       // EOSE came while the wrap was being opened
  auto old = prompt_from(kClient, "1", 9700);  // 5 minutes old: inside the skew window, before since
  EXPECT_EQ(inbox.on_prompt(old, 10000, false), prompt_disposition::too_old);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "2", 9700), 10000, true), prompt_disposition::handle);
  EXPECT_EQ(inbox.on_prompt(prompt_from(kClient, "3", 9700), 10000), prompt_disposition::handle);  // live() by default
}
