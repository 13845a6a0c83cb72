#include <gtest/gtest.h>

#include "agx_test_support.hpp"
#include "protocols/agx/authorization.hpp"
#include "protocols/agx/capability.hpp"
#include "protocols/agx/pending.hpp"
#include "protocols/agx/route.hpp"

using namespace nostr;
using namespace nostr::agx;
using namespace nostr::agx_test;

TEST(agx_capability_test, exact_namespace_and_all) {
  EXPECT_TRUE(capability_matches("invoice.review", "invoice.review"));
  EXPECT_FALSE(capability_matches("invoice.review", "invoice.approve"));
  EXPECT_TRUE(capability_matches("invoice.*", "invoice.review"));
  EXPECT_TRUE(capability_matches("invoice.*", "invoice.review.deep"));
  EXPECT_FALSE(capability_matches("invoice.*", "invoice"));       // the namespace itself is not in it
  EXPECT_FALSE(capability_matches("invoice.*", "invoicex.review"));  // the dot is part of the prefix
  EXPECT_FALSE(capability_matches("invoice.*", "billing.review"));
  EXPECT_TRUE(capability_matches("*", "anything.at.all"));
  EXPECT_FALSE(capability_matches("invoice*", "invoice.review"));  // only ".*" is a wildcard
  EXPECT_FALSE(capability_matches("", "x"));

  EXPECT_TRUE(matches_capability({"a.b", "invoice.*"}, "invoice.review"));
  EXPECT_FALSE(matches_capability({}, "invoice.review"));
  // From peer JSON: non-string entries are ignored, not fatal.
  EXPECT_TRUE(matches_capability_json("[1, null, {\"x\":1}, [\"invoice.review\"], \"invoice.*\"]", "invoice.review"));
  EXPECT_FALSE(matches_capability_json("[1, null, {\"x\":1}, [\"invoice.review\"]]", "invoice.review"));
  EXPECT_FALSE(matches_capability_json("{\"0\":\"*\"}", "x"));
  EXPECT_FALSE(matches_capability_json("not json", "x"));
}

TEST(agx_capability_test, handler_lookup_prefers_the_most_specific) {
  std::vector<std::string> keys{"*", "invoice.*", "invoice.review.*", "invoice.review"};
  EXPECT_EQ(*find_handler(keys, "invoice.review"), "invoice.review");
  EXPECT_EQ(*find_handler(keys, "invoice.review.fast"), "invoice.review.*");
  EXPECT_EQ(*find_handler(keys, "invoice.pay"), "invoice.*");
  EXPECT_EQ(*find_handler(keys, "billing"), "*");
  EXPECT_FALSE(find_handler({"invoice.review"}, "invoice.pay"));
  EXPECT_FALSE(find_handler({}, "x"));
}

TEST(agx_authorization_test, default_deny_and_unconfigured_is_distinguishable) {
  authorization_policy p;
  EXPECT_EQ(p.current_mode(), authorization_policy::mode::unconfigured);
  EXPECT_EQ(p.decide(alice().pub, "invoice.review"), auth_verdict::deny_unconfigured);
  EXPECT_TRUE(p.take_unconfigured_warning());  // once
  EXPECT_FALSE(p.take_unconfigured_warning());
  EXPECT_EQ(p.decide(alice().pub, "invoice.review"), auth_verdict::deny_unconfigured);

  auto all = authorization_policy::accept_all();
  EXPECT_EQ(all.decide(mallory().pub, "anything"), auth_verdict::allow);
  EXPECT_FALSE(all.take_unconfigured_warning());

  auto host = authorization_policy::host_decides();
  EXPECT_EQ(host.decide(alice().pub, "x"), auth_verdict::ask_host);
  EXPECT_EQ(host_verdict(true), auth_verdict::allow);
  EXPECT_EQ(host_verdict(false), auth_verdict::deny);
}

TEST(agx_authorization_test, allow_list_by_pubkey_and_capability_pattern) {
  authorization_policy p;
  std::string upper = bob().pub;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ASSERT_TRUE(p.allow(upper, "invoice.*").ok());  // either case in, lowercase kept
  ASSERT_TRUE(p.allow(alice().pub, "ping").ok());
  ASSERT_TRUE(p.allow(alice().pub, "ping").ok());  // idempotent
  EXPECT_EQ(p.size(), 2u);
  EXPECT_EQ(p.current_mode(), authorization_policy::mode::allow_list);
  EXPECT_FALSE(p.take_unconfigured_warning());

  EXPECT_EQ(p.decide(bob().pub, "invoice.review"), auth_verdict::allow);
  EXPECT_EQ(p.decide(bob().pub, "ping"), auth_verdict::deny);
  EXPECT_EQ(p.decide(alice().pub, "ping"), auth_verdict::allow);
  EXPECT_EQ(p.decide(alice().pub, "invoice.review"), auth_verdict::deny);
  EXPECT_EQ(p.decide(mallory().pub, "ping"), auth_verdict::deny);

  EXPECT_EQ(p.allow("npub1xyz", "*").code(), errc::invalid_public_key);
  EXPECT_EQ(p.allow(alice().pub, "").code(), errc::invalid_argument);

  EXPECT_TRUE(p.revoke(bob().pub));
  EXPECT_FALSE(p.revoke(bob().pub));
  EXPECT_EQ(p.decide(bob().pub, "invoice.review"), auth_verdict::deny);
  EXPECT_TRUE(p.revoke(alice().pub));
  // An emptied list was configured: it denies, it does not report "unconfigured".
  EXPECT_EQ(p.decide(alice().pub, "ping"), auth_verdict::deny);
}

TEST(agx_pending_test, result_sender_binding) {
  pending_requests p(3);
  ASSERT_TRUE(p.add("t1", alice().pub, kNow + 30).ok());
  EXPECT_EQ(p.add("t1", alice().pub, kNow + 30).code(), errc::agx_pending_exists);
  EXPECT_EQ(p.add("", alice().pub, std::nullopt).code(), errc::invalid_argument);
  EXPECT_EQ(p.add("t9", "zz", std::nullopt).code(), errc::invalid_public_key);
  EXPECT_EQ(*p.peer_of("t1"), alice().pub);

  // Mallory knows the task id: her "completed" is dropped and the request stays open.
  EXPECT_EQ(p.settle("t1", mallory().pub), settle_outcome::wrong_sender);
  EXPECT_TRUE(p.contains("t1"));
  EXPECT_EQ(p.settle("t1", alice().pub), settle_outcome::settled);
  EXPECT_FALSE(p.contains("t1"));
  EXPECT_EQ(p.settle("t1", alice().pub), settle_outcome::unknown);  // late duplicate

  ASSERT_TRUE(p.add("a", alice().pub, kNow + 10).ok());
  ASSERT_TRUE(p.add("b", bob().pub, kNow + 5).ok());
  ASSERT_TRUE(p.add("c", bob().pub, std::nullopt).ok());
  EXPECT_EQ(p.add("d", bob().pub, std::nullopt).code(), errc::agx_pending_full);
  EXPECT_EQ(*p.next_deadline(), kNow + 5);
  EXPECT_TRUE(p.expire(kNow + 4).empty());
  EXPECT_EQ(p.expire(kNow + 5), std::vector<std::string>{"b"});
  EXPECT_TRUE(p.cancel("a"));
  EXPECT_FALSE(p.cancel("a"));
  EXPECT_FALSE(p.next_deadline());
  EXPECT_TRUE(p.expire(kNow + 1000).empty());  // no deadline, no timeout
  EXPECT_EQ(p.size(), 1u);
}

namespace {

inbound_message task_message(const std::string& from, const std::string& text,
                             std::string content_type = std::string(kTaskContentType)) {
  inbound_message m;
  m.from = from;
  m.rumor_id = std::string(64, '1');
  m.wrap_id = std::string(64, '2');
  m.payload.content_type = content_type;
  m.payload.text = text;
  m.payload.cls = classify_content_type(content_type);
  if (m.payload.cls == content_class::task) {
    auto env = parse_task_envelope(text);
    if (env)
      m.task = *env;
    else
      m.task_malformed = true;
  }
  return m;
}

const std::string kReq = "{\"t\":\"req\",\"taskId\":\"t1\",\"capability\":\"invoice.review\",\"payload\":{}}";

}  // namespace

TEST(agx_route_test, allowed_request_runs_with_a_receipt_first) {
  authorization_policy policy;
  ASSERT_TRUE(policy.allow(bob().pub, "invoice.*").ok());
  pending_requests pending;
  auto d = route(task_message(bob().pub, kReq), {"invoice.review"}, pending, policy);
  EXPECT_EQ(d.action, route_action::run_handler);
  EXPECT_EQ(d.reason, route_reason::allowed);
  EXPECT_TRUE(d.send_receipt);
  EXPECT_TRUE(d.may_auto_reply);
  EXPECT_EQ(d.handler_key, "invoice.review");
  EXPECT_EQ(d.task_id, "t1");
  EXPECT_STREQ(route_action_name(d.action), "run-handler");
}

TEST(agx_route_test, denied_request_gets_nothing_back_and_goes_to_the_plain_path) {
  pending_requests pending;
  authorization_policy none;
  auto d = route(task_message(mallory().pub, kReq), {"invoice.review"}, pending, none);
  EXPECT_EQ(d.action, route_action::deliver_plain);
  EXPECT_EQ(d.reason, route_reason::denied_unconfigured);
  EXPECT_FALSE(d.send_receipt);
  EXPECT_FALSE(d.may_auto_reply);

  authorization_policy only_bob;
  ASSERT_TRUE(only_bob.allow(bob().pub, "*").ok());
  d = route(task_message(mallory().pub, kReq), {"invoice.review"}, pending, only_bob);
  EXPECT_EQ(d.action, route_action::deliver_plain);
  EXPECT_EQ(d.reason, route_reason::denied);
  EXPECT_FALSE(d.send_receipt);

  // The host's own function: asked, then answered.
  auto host = authorization_policy::host_decides();
  d = route(task_message(mallory().pub, kReq), {"invoice.review"}, pending, host);
  EXPECT_EQ(d.action, route_action::ask_host);
  EXPECT_FALSE(d.send_receipt);
  auto no = after_host_verdict(d, false);
  EXPECT_EQ(no.action, route_action::deliver_plain);
  EXPECT_EQ(no.reason, route_reason::denied);
  EXPECT_FALSE(no.send_receipt);
  auto yes = after_host_verdict(d, true);
  EXPECT_EQ(yes.action, route_action::run_handler);
  EXPECT_TRUE(yes.send_receipt);
  // A verdict does not turn another decision into a run.
  auto plain = route(task_message(bob().pub, "hi", "application/a2a+json"), {}, pending, host);
  EXPECT_EQ(after_host_verdict(plain, true).action, route_action::deliver_plain);
}

TEST(agx_route_test, unserviceable_task_traffic_is_never_auto_replied) {
  auto policy = authorization_policy::accept_all();
  pending_requests pending;
  ASSERT_TRUE(pending.add("mine", alice().pub, std::nullopt).ok());
  struct {
    inbound_message m;
    route_reason why;
  } cases[] = {
      {task_message(bob().pub, "hello", "application/a2a+json"), route_reason::plain_message},
      {task_message(bob().pub, "{\"t\":\"req\"}"), route_reason::malformed_task},
      {task_message(bob().pub, "{\"t\":\"req\",\"taskId\":\"t\",\"capability\":\"unknown.cap\"}"),
       route_reason::unknown_capability},
      {task_message(bob().pub, "{\"t\":\"res\",\"taskId\":\"not-mine\",\"status\":\"completed\"}"),
       route_reason::unmatched_result},
  };
  for (const auto& c : cases) {
    auto d = route(c.m, {"invoice.review"}, pending, policy);
    EXPECT_EQ(d.action, route_action::deliver_plain) << route_reason_name(c.why);
    EXPECT_EQ(d.reason, c.why) << route_reason_name(d.reason);
    EXPECT_FALSE(d.send_receipt);
    EXPECT_FALSE(d.may_auto_reply);
    // Only a plain text message may be answered with a message at all.
    EXPECT_EQ(d.may_reply, c.why == route_reason::plain_message) << route_reason_name(c.why);
  }
}

// SPEC.md "Content types": unknown content types are ignored (the reference drops them); a host may
// keep them, and then they go to the plain path unanswered, never parsed as a task.
TEST(agx_route_test, unknown_content_types_are_dropped_unless_the_host_keeps_them) {
  auto policy = authorization_policy::accept_all();
  pending_requests pending;
  ASSERT_TRUE(pending.add("t1", bob().pub, std::nullopt).ok());
  const std::string res = "{\"t\":\"res\",\"taskId\":\"t1\",\"status\":\"completed\"}";
  for (const auto& m : {task_message(bob().pub, kReq, "application/x-other"), task_message(bob().pub, res, "text/plain")}) {
    auto d = route(m, {"invoice.review"}, pending, policy);
    EXPECT_EQ(d.action, route_action::drop);
    EXPECT_EQ(d.reason, route_reason::unknown_content_type);
    EXPECT_FALSE(d.may_reply);
    EXPECT_FALSE(d.send_receipt);
    route_options keep;
    keep.keep_unknown_content_types = true;
    auto kept = route(m, {"invoice.review"}, pending, policy, nullptr, keep);
    EXPECT_EQ(kept.action, route_action::deliver_plain);
    EXPECT_EQ(kept.reason, route_reason::unknown_content_type);
    EXPECT_FALSE(kept.may_reply);
    EXPECT_FALSE(kept.may_auto_reply);
  }
  EXPECT_TRUE(pending.contains("t1"));  // a result under another label settles nothing
}

// A denied request and everything the handler path does not consume get no reply handle.
TEST(agx_route_test, denied_and_unserviceable_traffic_may_not_be_answered) {
  pending_requests pending;
  authorization_policy only_bob;
  ASSERT_TRUE(only_bob.allow(bob().pub, "*").ok());
  auto denied = route(task_message(mallory().pub, kReq), {"invoice.review"}, pending, only_bob);
  EXPECT_EQ(denied.reason, route_reason::denied);
  EXPECT_FALSE(denied.may_reply);
  auto unconfigured = route(task_message(mallory().pub, kReq), {"invoice.review"}, pending, authorization_policy{});
  EXPECT_FALSE(unconfigured.may_reply);
  auto host_no = after_host_verdict(route(task_message(mallory().pub, kReq), {"invoice.review"}, pending,
                                          authorization_policy::host_decides()),
                                    false);
  EXPECT_FALSE(host_no.may_reply);
  auto unmatched_input = route(task_message(bob().pub, *task_input_json("zz", std::nullopt)), {"*"}, pending, only_bob);
  EXPECT_EQ(unmatched_input.reason, route_reason::unmatched_input);
  EXPECT_FALSE(unmatched_input.may_reply);
  auto allowed = route(task_message(bob().pub, kReq), {"invoice.review"}, pending, only_bob);
  EXPECT_EQ(allowed.action, route_action::run_handler);
  EXPECT_FALSE(allowed.may_reply);  // its answer is the task's result, not a message
  EXPECT_TRUE(route(task_message(bob().pub, "hi", "application/a2a+json"), {}, pending, only_bob).may_reply);
}

TEST(agx_route_test, results_settle_only_from_the_bound_peer) {
  auto policy = authorization_policy::accept_all();
  pending_requests pending;
  ASSERT_TRUE(pending.add("t7", alice().pub, kNow + 30).ok());
  std::string res = "{\"t\":\"res\",\"taskId\":\"t7\",\"status\":\"completed\",\"output\":1}";

  auto forged = route(task_message(mallory().pub, res), {}, pending, policy);
  EXPECT_EQ(forged.action, route_action::drop);
  EXPECT_EQ(forged.reason, route_reason::wrong_sender);
  EXPECT_FALSE(forged.may_auto_reply);
  EXPECT_TRUE(pending.contains("t7"));

  auto genuine = route(task_message(alice().pub, res), {}, pending, policy);
  EXPECT_EQ(genuine.action, route_action::settle_pending);
  EXPECT_EQ(pending.settle(genuine.task_id, alice().pub), settle_outcome::settled);
  // Once settled, a replayed result is unmatched traffic for the plain path.
  auto late = route(task_message(alice().pub, res), {}, pending, policy);
  EXPECT_EQ(late.reason, route_reason::unmatched_result);
}

// Status updates are bound to the request's peer like results; input answers to the requester of
// the task our handler asked input for. Anything else goes to the plain path (or is dropped).
TEST(agx_route_test, status_updates_and_input_are_bound_to_their_peer) {
  auto policy = authorization_policy::accept_all();
  pending_requests pending;
  ASSERT_TRUE(pending.add("t8", alice().pub, std::nullopt).ok());
  std::string working = *task_status_json("t8", task_state::working, std::string_view("on it"));
  std::string asking = *task_status_json("t8", task_state::input_required, std::nullopt);
  EXPECT_EQ(route(task_message(alice().pub, working), {}, pending, policy).action, route_action::task_update);
  EXPECT_EQ(route(task_message(alice().pub, asking), {}, pending, policy).reason, route_reason::matched_update);
  auto forged = route(task_message(mallory().pub, asking), {}, pending, policy);
  EXPECT_EQ(forged.action, route_action::drop);
  EXPECT_TRUE(pending.contains("t8"));  // an update never settles
  auto other = route(task_message(alice().pub, *task_status_json("t9", task_state::working, std::nullopt)), {}, pending, policy);
  EXPECT_EQ(other.reason, route_reason::unmatched_result);
  EXPECT_FALSE(other.may_auto_reply);

  pending_requests awaiting;
  std::string answer = *task_input_json("t3", std::string_view("{\"pin\":1234}"));
  EXPECT_EQ(route(task_message(bob().pub, answer), {"*"}, pending, policy).reason, route_reason::unmatched_input);
  EXPECT_EQ(route(task_message(bob().pub, answer), {"*"}, pending, policy, &awaiting).reason, route_reason::unmatched_input);
  ASSERT_TRUE(awaiting.add("t3", bob().pub, std::nullopt).ok());
  EXPECT_EQ(route(task_message(bob().pub, answer), {"*"}, pending, policy, &awaiting).action, route_action::task_input);
  EXPECT_EQ(route(task_message(mallory().pub, answer), {"*"}, pending, policy, &awaiting).action, route_action::drop);
}
