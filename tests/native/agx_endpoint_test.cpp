// The AGX endpoint machine (src/protocols/agx/endpoint): the exactly-once order, routing,
// deadlines and the cursor as the host drives them (wraps and `now` in, actions out), and the
// conformance rules (tests/js/agx-conformance.js) that only JS tests checked before.
#include <gtest/gtest.h>

#include <algorithm>

#include "agx_test_support.hpp"
#include "protocols/agx/auto_depth.hpp"
#include "protocols/agx/endpoint.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/relay_routes.hpp"
#include "protocols/agx/wrap.hpp"
#include "relay/nip42.hpp"

using namespace nostr;
using namespace nostr::agx;
using namespace nostr::agx_test;

namespace {

constexpr std::int64_t kNowMs = kNow * 1000;

nip59::conversation_key_fn keys_of(const identity& me) {
  return [&me](const bytes32& peer) { return nip44::get_conversation_key(me.sk, peer); };
}

event wrap_of(const event& rumor, const identity& author, const std::string& to, std::uint64_t seed,
              std::int64_t now = kNow) {
  rng r{seed};
  nip59::wrap_randomness rnd;
  r.fill(rnd);
  return *wrap_rumor(rumor, author.sk, to, now, rnd);
}

event text_rumor(const identity& from, const std::string& to, const std::string& text) {
  message_fields f;
  f.text = text;
  f.message_id = std::string(32, '1');
  f.context_id = std::string(32, '2');
  return *message_rumor(f, from.pub, to, kNow);
}

event request_rumor(const identity& from, const std::string& to, const std::string& task_id,
                    const std::string& capability = "echo") {
  task_request_fields f;
  f.task_id = task_id;
  f.capability = capability;
  f.payload_json = "{\"x\":1}";
  f.message_id = std::string(32, '3');
  f.accepts_updates = true;
  return *task_request_rumor(f, from.pub, to, kNow);
}

event result_rumor_of(const identity& from, const std::string& to, const std::string& task_id) {
  return task_result_rumor(task_id, completed_result(std::string("\"ok\"")), std::string(32, '4'), from.pub, to, kNow)
      ->rumor;
}

event status_rumor_of(const identity& from, const std::string& to, const std::string& task_id) {
  return *task_envelope_rumor(*task_status_json(task_id, task_state::working, std::nullopt), task_id,
                              std::string(32, '5'), from.pub, to, kNow);
}

std::vector<action_kind> kinds(const std::vector<action>& as) {
  std::vector<action_kind> out;
  for (const auto& a : as) out.push_back(a.kind);
  return out;
}

bool has(const std::vector<action>& as, action_kind k) {
  return std::any_of(as.begin(), as.end(), [k](const action& a) { return a.kind == k; });
}

endpoint_options accept_all() {
  endpoint_options o;
  o.mode = authorization_policy::mode::accept_all;
  return o;
}

}  // namespace

// SPEC.md "Correlation & replay": the same rumor in two wraps, each delivered twice, runs the
// handler once; the ids are persisted before the handler action.
TEST(agx_endpoint_test, a_task_request_runs_once_with_its_ids_persisted_first) {
  endpoint ep(accept_all());
  ep.set_handlers({"echo"});
  event rumor = request_rumor(alice(), bob().pub, "t1");
  event w1 = wrap_of(rumor, alice(), bob().pub, 1);
  event w2 = wrap_of(rumor, alice(), bob().pub, 2);
  int runs = 0;
  for (const event* w : {&w1, &w1, &w2, &w2}) {
    auto r = ep.receive(*w, keys_of(bob()), bob().pub, kNowMs + 1000);
    for (const auto& a : r.actions) runs += a.kind == action_kind::run_handler;
    if (r.verdict == inbound_verdict::processed) {
      // The record first, then the marks, then the handler: a crash at any point leaves it either
      // unmarked (polled again) or recorded (run again at start).
      ASSERT_EQ(kinds(r.actions), (std::vector<action_kind>{action_kind::record_task, action_kind::persist,
                                                            action_kind::run_handler}));
      EXPECT_EQ(r.actions[1].marks.size(), 2u);  // rumor and wrap id
      EXPECT_GE(r.actions[2].until, kNow + kSeenRetention);
      EXPECT_EQ(r.actions[2].handler_key, "echo");
      EXPECT_EQ(r.actions[2].gate.verdict, task_verdict::run);
    } else {
      EXPECT_EQ(r.verdict, inbound_verdict::replay);
      EXPECT_TRUE(r.actions.empty());
    }
  }
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(ep.cached(), 1u);  // w2: a new envelope of a processed rumor
}

// A task request waiting for the host's authorize is claimed: a second wrap of it is a replay,
// and nothing is recorded until the host answers.
TEST(agx_endpoint_test, a_claimed_request_is_a_replay_until_the_host_answers) {
  endpoint_options o;
  o.mode = authorization_policy::mode::host;
  endpoint ep(o);
  ep.set_handlers({"echo"});
  event rumor = request_rumor(alice(), bob().pub, "t2");
  auto r1 = ep.receive(wrap_of(rumor, alice(), bob().pub, 1), keys_of(bob()), bob().pub, kNowMs);
  ASSERT_EQ(r1.verdict, inbound_verdict::pending);
  ASSERT_EQ(kinds(r1.actions), std::vector<action_kind>{action_kind::ask_host});
  EXPECT_EQ(r1.actions[0].capability, "echo");
  EXPECT_EQ(ep.processed_count(), 0u);
  auto r2 = ep.receive(wrap_of(rumor, alice(), bob().pub, 2), keys_of(bob()), bob().pub, kNowMs);
  EXPECT_EQ(r2.verdict, inbound_verdict::replay);
  auto out = ep.host_verdict(rumor.id, true, kNowMs);
  EXPECT_EQ(kinds(out), (std::vector<action_kind>{action_kind::record_task, action_kind::persist, action_kind::run_handler}));
  EXPECT_TRUE(ep.host_verdict(rumor.id, true, kNowMs).empty());  // answered once
}

// SPEC.md "Authorization": nothing configured denies, with a one-time warning; the denied request
// gets no receipt and no handler, and goes to the plain path unanswerable.
TEST(agx_endpoint_test, nothing_configured_denies_with_a_one_time_warning) {
  endpoint ep;
  ep.set_handlers({"echo"});
  auto r1 = ep.receive(wrap_of(request_rumor(alice(), bob().pub, "a"), alice(), bob().pub, 1), keys_of(bob()),
                       bob().pub, kNowMs);
  ASSERT_EQ(kinds(r1.actions),
            (std::vector<action_kind>{action_kind::warn_unconfigured, action_kind::persist, action_kind::deliver}));
  EXPECT_EQ(r1.actions[2].reason, route_reason::denied_unconfigured);
  EXPECT_FALSE(r1.actions[2].may_reply);
  auto r2 = ep.receive(wrap_of(request_rumor(alice(), bob().pub, "b"), alice(), bob().pub, 2), keys_of(bob()),
                       bob().pub, kNowMs);
  EXPECT_FALSE(has(r2.actions, action_kind::warn_unconfigured));
  EXPECT_FALSE(has(r2.actions, action_kind::run_handler));
  EXPECT_TRUE(has(r2.actions, action_kind::deliver));
}

// SPEC.md "Result sender binding" and one settle per request: a forged result is dropped, the
// genuine one settles, a second one is a counted duplicate; a status update restarts the deadline.
TEST(agx_endpoint_test, one_settle_per_request_from_its_peer_only) {
  endpoint ep;
  ASSERT_TRUE(ep.open_request("t9", alice().pub, "", 5000, kNowMs).ok());
  EXPECT_EQ(ep.next_deadline(), kNowMs + 5000);
  auto up = ep.receive(wrap_of(status_rumor_of(alice(), bob().pub, "t9"), alice(), bob().pub, 7), keys_of(bob()),
                       bob().pub, kNowMs + 4000);
  EXPECT_TRUE(has(up.actions, action_kind::update));
  EXPECT_EQ(ep.next_deadline(), kNowMs + 9000);  // restarted by the update
  auto forged = ep.receive(wrap_of(result_rumor_of(mallory(), bob().pub, "t9"), mallory(), bob().pub, 1),
                           keys_of(bob()), bob().pub, kNowMs + 4500);
  EXPECT_TRUE(has(forged.actions, action_kind::drop));
  EXPECT_EQ(ep.open_requests(), 1u);
  auto real = ep.receive(wrap_of(result_rumor_of(alice(), bob().pub, "t9"), alice(), bob().pub, 2), keys_of(bob()),
                         bob().pub, kNowMs + 4600);
  EXPECT_TRUE(has(real.actions, action_kind::settle));
  EXPECT_EQ(ep.open_requests(), 0u);
  EXPECT_EQ(ep.next_deadline(), -1);
  event again = result_rumor_of(alice(), bob().pub, "t9");
  again.content += " ";  // another rumor id, the same task
  again.id = compute_id_hex(again);
  auto dup = ep.receive(wrap_of(again, alice(), bob().pub, 3), keys_of(bob()), bob().pub, kNowMs + 4700);
  EXPECT_TRUE(has(dup.actions, action_kind::duplicate_result));
  EXPECT_FALSE(has(dup.actions, action_kind::settle));
  EXPECT_EQ(ep.duplicate_results(), 1u);
  EXPECT_TRUE(ep.handle_timeout(kNowMs + 100000).empty());
}

// The flood limits decide in the same step: a request past the per-peer rate is recorded as
// processed (a replay later) and answered with a failed result, never run, never recorded as a task.
TEST(agx_endpoint_test, the_flood_limits_decide_with_the_route) {
  endpoint ep(accept_all());
  ep.set_handlers({"echo"});
  task_limits l;
  l.rate_count = 1;
  l.rate_window = 60;
  ep.set_task_limits(l);
  auto first = ep.receive(wrap_of(request_rumor(alice(), bob().pub, "f1"), alice(), bob().pub, 1), keys_of(bob()),
                          bob().pub, kNowMs);
  EXPECT_EQ(first.actions.back().gate.verdict, task_verdict::run);
  auto second = ep.receive(wrap_of(request_rumor(alice(), bob().pub, "f2"), alice(), bob().pub, 2), keys_of(bob()),
                           bob().pub, kNowMs);
  ASSERT_EQ(kinds(second.actions), (std::vector<action_kind>{action_kind::persist, action_kind::run_handler}));
  EXPECT_EQ(second.actions.back().gate.verdict, task_verdict::rate_limited);
  EXPECT_GE(second.actions.back().gate.retry_after, 1);
  EXPECT_EQ(ep.gate().running(), 1u);
  EXPECT_EQ(ep.task_done(alice().pub).ticket, 0u);
  EXPECT_EQ(ep.gate().running(), 0u);
}

TEST(agx_endpoint_test, requests_and_input_waits_time_out_by_the_injected_clock) {
  endpoint ep;
  ASSERT_TRUE(ep.open_request("r", alice().pub, "", 3000, kNowMs).ok());
  ASSERT_TRUE(ep.await_input("i", alice().pub, 1000, kNowMs).ok());
  EXPECT_EQ(ep.next_deadline(), kNowMs + 1000);
  EXPECT_TRUE(ep.handle_timeout(kNowMs + 999).empty());
  auto a = ep.handle_timeout(kNowMs + 1000);
  ASSERT_EQ(kinds(a), std::vector<action_kind>{action_kind::expire_input});
  EXPECT_EQ(ep.next_deadline(), kNowMs + 3000);
  auto b = ep.handle_timeout(kNowMs + 60000);  // a clock jump
  ASSERT_EQ(kinds(b), std::vector<action_kind>{action_kind::expire_request});
  EXPECT_EQ(b[0].task_id, "r");
  EXPECT_EQ(ep.next_deadline(), -1);
  EXPECT_FALSE(ep.cancel_request("r"));
}

// SPEC.md "Cursor advance": the window reaches overlap + 172800 s behind the cursor; the cursor
// moves only after a complete poll, to the clock read before it.
TEST(agx_endpoint_test, the_cursor_advances_only_after_complete_polls) {
  endpoint_options o;
  o.poll_overlap = 60;
  endpoint ep(o);
  auto w = ep.poll_begin(kNowMs);
  EXPECT_EQ(w.since, 0);
  ep.poll_end(w, true, kNowMs + 5000);
  EXPECT_EQ(ep.cursor(), kNow);
  auto w2 = ep.poll_begin(kNowMs + 500000);
  EXPECT_EQ(w2.since, kNow - 60 - kMaxWrapBackdate);
  ep.poll_end(w2, false, kNowMs + 600000);
  EXPECT_EQ(ep.cursor(), kNow);
  auto w3 = ep.poll_begin(kNowMs + 700000);
  ep.poll_end(w3, true, kNowMs + 800000);
  EXPECT_EQ(ep.cursor(), kNow + 700);
}

// The poll deadline: none before start_polling, idle after a poll, short while a request waits.
TEST(agx_endpoint_test, poll_deadlines_follow_the_schedule) {
  endpoint ep;
  ASSERT_TRUE(ep.open_request("r", alice().pub, "", 0, kNowMs).ok());
  EXPECT_EQ(ep.next_deadline(), -1);
  ep.start_polling();
  EXPECT_EQ(ep.next_deadline(), kNowMs + kDefaultPendingPollMs);
  EXPECT_EQ(kinds(ep.handle_timeout(kNowMs + kDefaultPendingPollMs)), std::vector<action_kind>{action_kind::poll});
  auto w = ep.poll_begin(kNowMs + kDefaultPendingPollMs);
  EXPECT_EQ(ep.next_deadline(), -1);  // polls never overlap
  ep.poll_end(w, true, kNowMs + 4000);
  EXPECT_GT(ep.next_deadline(), kNowMs + 4000);
  ep.cancel_request("r");
  auto w2 = ep.poll_begin(kNowMs + 10000);
  ep.poll_end(w2, true, kNowMs + 10000);
  EXPECT_EQ(ep.next_deadline(), kNowMs + 10000 + kDefaultIdlePollMs);
}

// SPEC.md "Cursor advance": a wrap dated beyond the skew is skipped, not recorded, processed later.
TEST(agx_endpoint_test, a_future_wrap_is_not_recorded_and_is_processed_when_due) {
  endpoint ep(accept_all());
  event w = wrap_of(text_rumor(alice(), bob().pub, "later"), alice(), bob().pub, 4, kNow + 3 * 86400);
  auto r = ep.receive(w, keys_of(bob()), bob().pub, kNowMs);
  EXPECT_EQ(r.verdict, inbound_verdict::future);
  EXPECT_EQ(ep.processed_count(), 0u);
  auto due = ep.receive(w, keys_of(bob()), bob().pub, w.created_at * 1000);
  EXPECT_EQ(due.verdict, inbound_verdict::processed);
  EXPECT_TRUE(has(due.actions, action_kind::deliver));
}

// Conformance "Signing": an unavailable signer discards nothing (the wrap is processed on the next
// try); only bad input is discarded, once (cached: a replay after).
TEST(agx_endpoint_test, an_unavailable_signer_discards_nothing_bad_input_is_discarded_once) {
  endpoint ep(accept_all());
  event w = wrap_of(text_rumor(alice(), bob().pub, "hi"), alice(), bob().pub, 5);
  auto pre = ep.before_open(w, bob().pub, kNowMs);
  ASSERT_EQ(pre.verdict, inbound_verdict::processed);  // go on: the signer opens it
  EXPECT_EQ(disposition_of(errc::invalid_secret_key, unwrap_stage::opening), disposition::retry_later);
  ep.open_failed(w.id, disposition::retry_later, kNowMs);  // the signer was unavailable
  auto again = ep.receive(w, keys_of(bob()), bob().pub, kNowMs);
  EXPECT_EQ(again.verdict, inbound_verdict::processed);

  rng r{9};
  event junk = raw_wrap("junk", bob().pub, kNow - 5, agx_tags(bob().pub, kNow - 5), kPowBits, r);
  auto bad = ep.receive(junk, keys_of(bob()), bob().pub, kNowMs);
  EXPECT_EQ(bad.verdict, inbound_verdict::discarded);
  EXPECT_EQ(ep.receive(junk, keys_of(bob()), bob().pub, kNowMs).verdict, inbound_verdict::replay);
}

// Conformance "Anti-spam" (MAY) and the dev relay's policy: what relay_accepts refuses (two p
// tags, no p tag, future, below the PoW floor) every recipient endpoint ignores, recording nothing.
TEST(agx_endpoint_test, the_relay_policy_refuses_what_every_recipient_ignores) {
  rng r{11};
  event seal = raw_seal(text_rumor(alice(), bob().pub, "x").id, alice(), bob().pub, kNow, r);
  const std::string sj = to_json(seal);
  tag_list two_p = agx_tags(bob().pub, kNow);
  two_p.push_back({"p", mallory().pub});
  tag_list no_p = {{"expiration", std::to_string(kNow + kWrapTtl)}};
  std::vector<event> bad = {
      raw_wrap(sj, bob().pub, kNow, two_p, kPowBits, r),
      raw_wrap(sj, bob().pub, kNow, no_p, kPowBits, r),
      raw_wrap(sj, bob().pub, kNow + 1000, agx_tags(bob().pub, kNow + 1000), kPowBits, r),
      raw_wrap(sj, bob().pub, kNow, agx_tags(bob().pub, kNow), 11, r),
  };
  endpoint ep(accept_all());
  for (const auto& w : bad) {
    EXPECT_FALSE(relay_accepts(w, kNow).ok());
    auto v = ep.receive(w, keys_of(bob()), bob().pub, kNowMs).verdict;
    EXPECT_TRUE(v == inbound_verdict::invalid || v == inbound_verdict::future);
  }
  EXPECT_EQ(ep.processed_count(), 0u);
  EXPECT_EQ(ep.cached(), 0u);
}

// A wrap whose signature the pool's feed verified is not verified again; the other public checks
// still run.
TEST(agx_endpoint_test, a_verified_wrap_skips_only_the_signature_check) {
  endpoint ep(accept_all());
  event w = wrap_of(text_rumor(alice(), bob().pub, "sig"), alice(), bob().pub, 6);
  event forged = w;
  forged.sig[10] = forged.sig[10] == 'a' ? 'b' : 'a';
  EXPECT_EQ(ep.receive(forged, keys_of(bob()), bob().pub, kNowMs).verdict, inbound_verdict::invalid);
  EXPECT_EQ(ep.receive(w, keys_of(bob()), bob().pub, kNowMs, true).verdict, inbound_verdict::processed);
  endpoint ep2(accept_all());
  event not_for_us = wrap_of(text_rumor(alice(), mallory().pub, "x"), alice(), mallory().pub, 7);
  EXPECT_EQ(ep2.receive(not_for_us, keys_of(bob()), bob().pub, kNowMs, true).verdict, inbound_verdict::invalid);
}

// A full store refuses new work before decrypting: nothing acted on, nothing recorded.
TEST(agx_endpoint_test, a_full_store_refuses_before_anything_acts) {
  endpoint_options o = accept_all();
  o.seen_cap = 2;
  endpoint ep(o);
  auto first = ep.receive(wrap_of(text_rumor(alice(), bob().pub, "1"), alice(), bob().pub, 1), keys_of(bob()),
                          bob().pub, kNowMs);
  EXPECT_EQ(first.verdict, inbound_verdict::processed);
  auto second = ep.receive(wrap_of(text_rumor(alice(), bob().pub, "2"), alice(), bob().pub, 2), keys_of(bob()),
                           bob().pub, kNowMs);
  EXPECT_EQ(second.verdict, inbound_verdict::overloaded);
  EXPECT_TRUE(second.actions.empty());
  // Once ids expire, it is processed.
  auto later = ep.receive(wrap_of(text_rumor(alice(), bob().pub, "2"), alice(), bob().pub, 2), keys_of(bob()),
                          bob().pub, kNowMs + (kSeenRetention + 10) * 1000);
  EXPECT_EQ(later.verdict, inbound_verdict::processed);
}

TEST(agx_endpoint_test, no_action_after_close) {
  endpoint ep(accept_all());
  ep.set_handlers({"echo"});
  ASSERT_TRUE(ep.open_request("r", alice().pub, "", 1000, kNowMs).ok());
  ep.start_polling();
  ep.close();
  EXPECT_EQ(ep.next_deadline(), -1);
  EXPECT_TRUE(ep.handle_timeout(kNowMs + 10000000).empty());
  auto r = ep.receive(wrap_of(request_rumor(alice(), bob().pub, "c"), alice(), bob().pub, 1), keys_of(bob()),
                      bob().pub, kNowMs);
  EXPECT_EQ(r.verdict, inbound_verdict::ignored);
  EXPECT_TRUE(r.actions.empty());
  EXPECT_TRUE(ep.host_verdict("x", true, kNowMs).empty());
}

// Unknown content types are dropped by default (reported by the host), delivered when kept.
TEST(agx_endpoint_test, unknown_content_types_are_dropped_unless_kept) {
  message_fields f;
  f.text = "<b>x</b>";
  f.content_type = "text/html";
  f.message_id = std::string(32, '6');
  f.context_id = std::string(32, '7');
  event rumor = *message_rumor(f, alice().pub, bob().pub, kNow);
  endpoint ep(accept_all());
  auto r = ep.receive(wrap_of(rumor, alice(), bob().pub, 1), keys_of(bob()), bob().pub, kNowMs);
  ASSERT_FALSE(r.actions.empty());
  EXPECT_EQ(r.actions.back().kind, action_kind::drop);
  EXPECT_EQ(r.actions.back().reason, route_reason::unknown_content_type);
  endpoint keep(accept_all());
  keep.keep_unknown_content_types(true);
  auto k = keep.receive(wrap_of(rumor, alice(), bob().pub, 1), keys_of(bob()), bob().pub, kNowMs);
  EXPECT_EQ(k.actions.back().kind, action_kind::deliver);
  EXPECT_FALSE(k.actions.back().may_reply);
}

// Conformance "Automated-reply depth": a human resets a conversation's count (and a peer's).
TEST(agx_endpoint_test, a_human_resets_a_conversations_automated_replies) {
  auto_reply_limits l;
  l.per_conversation = 2;
  l.per_peer = 100;
  auto_reply_limiter lim(l);
  EXPECT_EQ(lim.try_reply(alice().pub, "c", 0, kNow), auto_reply_verdict::allowed);
  EXPECT_EQ(lim.try_reply(alice().pub, "c", 1, kNow), auto_reply_verdict::allowed);
  EXPECT_EQ(lim.try_reply(alice().pub, "c", 2, kNow), auto_reply_verdict::conversation_bound);
  lim.human_reset(alice().pub, "c");
  EXPECT_EQ(lim.try_reply(alice().pub, "c", 0, kNow), auto_reply_verdict::allowed);
  EXPECT_EQ(lim.try_reply(alice().pub, "c", 1, kNow), auto_reply_verdict::allowed);
  EXPECT_EQ(lim.try_reply(alice().pub, "c", 2, kNow), auto_reply_verdict::conversation_bound);
  lim.reset_peer(alice().pub);
  EXPECT_EQ(lim.try_reply(alice().pub, "c", 0, kNow), auto_reply_verdict::allowed);
}

// Conformance "Signing": NIP-42 AUTH is a template the signer signs (no key in the core's hands);
// the relay accepts the signed event, and refuses it for another challenge.
TEST(agx_endpoint_test, nip42_auth_is_a_template_the_signer_signs) {
  auto t = relay::auth_template("wss://relay.example.com", "challenge-1", kNow);
  EXPECT_EQ(t.kind, 22242);
  rng r{21};
  event signed_by_signer = finalize(t, alice().kp(), r.next32());
  EXPECT_TRUE(relay::validate_auth_event(signed_by_signer, "wss://relay.example.com", "challenge-1", kNow).ok());
  EXPECT_FALSE(relay::validate_auth_event(signed_by_signer, "wss://relay.example.com", "challenge-2", kNow).ok());
}

// Conformance "AgxClient start()": what start() advertises by default, our relays merged into the
// key's own NIP-65 list, and nothing when every one is listed already.
TEST(agx_endpoint_test, start_advertises_our_relays_merged_into_the_keys_list) {
  std::vector<std::string> ours = {"wss://a.example.com"};
  auto fresh = advertised_relay_list({}, alice().pub, ours, kNow);
  ASSERT_TRUE(fresh.ok());
  ASSERT_TRUE(fresh->has_value());
  EXPECT_EQ((*fresh)->kind, kRelayListKind);
  rng r{22};
  event listed = finalize(**fresh, alice().kp(), r.next32());
  auto again = advertised_relay_list({listed}, alice().pub, ours, kNow + 1);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->has_value());
}
