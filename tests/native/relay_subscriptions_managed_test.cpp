// The managed API of the subscription machine: every pool decision as an action, one rule per
// test (NIP-11 queueing and limits, EOSE when a relay drops, CLOSED: auth-required, restricted
// after a challenge, transient retries with their deadline, permanent; resubscribe with since;
// max_wait; ended; probes).
#include <gtest/gtest.h>

#include <algorithm>

#include "event/event.hpp"
#include "relay/client_message.hpp"
#include "relay/relay_message.hpp"
#include "relay/subscriptions.hpp"
#include "util/hex.hpp"

using namespace nostr;
using namespace nostr::relay;

namespace {

const char* const A = "wss://a.example";
const char* const B = "wss://b.example";

crypto::keypair key() {
  return *crypto::keypair::from_secret(
      *hex::decode32("67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa"));
}

event note(std::int64_t created_at, const std::string& content = "hi", std::int64_t kind = 1) {
  event_template t;
  t.created_at = created_at;
  t.kind = kind;
  t.content = content;
  return finalize(t, key(), bytes32{});
}

filter kinds(std::vector<std::int64_t> k) {
  filter f;
  f.kinds = std::move(k);
  return f;
}

// "send A REQ s", "connect B", "eose s", "relay-closed A s auth-required", "ended s"...
std::vector<std::string> brief(std::vector<action> actions) {
  std::vector<std::string> out;
  for (const auto& a : actions) {
    std::string s = action_type_name(a.type);
    if (!a.relay.empty()) s += std::string(" ") + (a.relay == A ? "A" : a.relay == B ? "B" : a.relay);
    if (a.type == action_type::send) {
      auto m = decode_client_message(a.frame);
      s += std::holds_alternative<client_req>(*m) ? " REQ" : std::holds_alternative<client_close>(*m) ? " CLOSE" : " ?";
    }
    s += " " + a.sub_id;
    if (a.type == action_type::relay_closed || a.type == action_type::authenticate) s += " " + a.reason;
    out.push_back(s);
  }
  return out;
}

using lines = std::vector<std::string>;

}  // namespace

TEST(relay_subscriptions_managed_test, subscribe_sends_where_connected_and_asks_to_connect_elsewhere) {
  subscriptions subs;
  subs.relay_connected(A, 0);
  ASSERT_TRUE(subs.subscribe("s", {kinds({1})}, {A, B}, 1000).ok());
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send A REQ s", "connect B s"}));
  EXPECT_EQ(subs.state("s", A), relay_sub_state::pending);
  EXPECT_EQ(subs.state("s", B), relay_sub_state::idle);
  EXPECT_EQ(subs.subscribe("s", {kinds({1})}, {A}, 0).code(), errc::relay_subscription_exists);
  EXPECT_EQ(subs.subscribe("t", {kinds({1})}, {}, 0).code(), errc::invalid_argument);
  // B connects: its REQ goes out then.
  subs.relay_connected(B, 2000);
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send B REQ s"}));
}

TEST(relay_subscriptions_managed_test, eose_once_when_every_relay_answered_or_dropped) {
  subscriptions subs;
  subs.relay_connected(A, 0);
  subs.relay_connected(B, 0);
  ASSERT_TRUE(subs.subscribe("s", {kinds({1})}, {A, B}, 0).ok());
  subs.take_actions();
  (void)subs.feed(A, *encode_eose("s"));
  EXPECT_TRUE(subs.take_actions().empty()) << "B still pending";
  // B drops before its EOSE: a relay that is down does not hold EOSE back.
  subs.relay_disconnected(B, true);
  EXPECT_EQ(brief(subs.take_actions()), (lines{"eose s"}));
  // After the reconnect, B's EOSE does not make a second one.
  subs.relay_connected(B, 0);
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send B REQ s"}));
  (void)subs.feed(B, *encode_eose("s"));
  EXPECT_TRUE(subs.take_actions().empty());
  // A subscription opened while B waits to reconnect does not wait for B either.
  subs.relay_disconnected(B, true);
  subs.take_actions();
  ASSERT_TRUE(subs.subscribe("t", {kinds({1})}, {A, B}, 0).ok());
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send A REQ t", "connect B t"}));
  (void)subs.feed(A, *encode_eose("t"));
  EXPECT_EQ(brief(subs.take_actions()), (lines{"eose t"}));
}

TEST(relay_subscriptions_managed_test, max_wait_is_a_deadline_for_eose) {
  subscriptions subs;
  subs.relay_connected(A, 0);
  ASSERT_TRUE(subs.subscribe("s", {kinds({1})}, {A}, 1000, 500).ok());
  subs.take_actions();
  EXPECT_EQ(subs.next_deadline(), 1500);
  subs.handle_timeout(1499);
  EXPECT_TRUE(subs.take_actions().empty());
  subs.handle_timeout(1500);
  EXPECT_EQ(brief(subs.take_actions()), (lines{"eose s"}));
  EXPECT_EQ(subs.next_deadline(), std::nullopt);
  (void)subs.feed(A, *encode_eose("s"));
  EXPECT_TRUE(subs.take_actions().empty()) << "one EOSE per subscription";
}

TEST(relay_subscriptions_managed_test, max_subscriptions_queues_in_order_and_frees_slots) {
  subscriptions subs;
  subs.set_limits(A, {2, 0, 0});
  subs.relay_connected(A, 0);
  for (const char* id : {"s1", "s2", "s3", "s4"}) ASSERT_TRUE(subs.subscribe(id, {kinds({1})}, {A}, 0).ok());
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send A REQ s1", "send A REQ s2"}));
  EXPECT_EQ(subs.state("s3", A), relay_sub_state::queued);
  // Closing one sends CLOSE and the first queued REQ.
  subs.unsubscribe("s1");
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send A CLOSE s1", "send A REQ s3"}));
  // A CLOSED frees a slot too.
  (void)subs.feed(A, *encode_closed("s2", "blocked: no"));
  EXPECT_EQ(brief(subs.take_actions()), (lines{"relay-closed A s2 blocked", "ended s2", "send A REQ s4"}));
  // A queued one closed by the app leaves the queue without a frame.
  ASSERT_TRUE(subs.subscribe("s5", {kinds({1})}, {A}, 0).ok());
  EXPECT_EQ(subs.state("s5", A), relay_sub_state::queued);
  subs.unsubscribe("s5");
  EXPECT_TRUE(subs.take_actions().empty());
  // On reconnect the REQs go out again in subscribe order, within the limit.
  subs.relay_disconnected(A, true);
  subs.take_actions();
  ASSERT_TRUE(subs.subscribe("s6", {kinds({1})}, {A}, 0).ok());
  subs.take_actions();
  subs.relay_connected(A, 0);
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send A REQ s3", "send A REQ s4"}));
  EXPECT_EQ(subs.state("s6", A), relay_sub_state::queued);
}

TEST(relay_subscriptions_managed_test, max_filters_and_max_message_length_close_locally) {
  subscriptions subs;
  subs.set_limits(A, {0, 1, 0});
  subs.set_limits(B, {0, 0, 30});
  subs.relay_connected(A, 0);
  subs.relay_connected(B, 0);
  ASSERT_TRUE(subs.subscribe("s", {kinds({1}), kinds({2})}, {A, B}, 0).ok());
  auto actions = subs.take_actions();
  ASSERT_EQ(actions.size(), 3u);
  EXPECT_EQ(brief(actions), (lines{"relay-closed A s too-many-filters", "relay-closed B s too-large", "ended s"}));
  EXPECT_EQ(actions[0].code, "TOO_MANY_FILTERS");
  EXPECT_EQ(actions[1].code, "MESSAGE_TOO_LARGE");
  EXPECT_FALSE(subs.contains("s"));
}

TEST(relay_subscriptions_managed_test, auth_required_asks_for_auth_once_then_retries_or_closes) {
  subscriptions subs;
  subs.relay_connected(A, 0);
  ASSERT_TRUE(subs.subscribe("s", {kinds({4})}, {A}, 0).ok());
  subs.take_actions();
  (void)subs.feed(A, *encode_closed("s", "auth-required: dms"));
  EXPECT_EQ(brief(subs.take_actions()), (lines{"authenticate A s auth-required"}));
  subs.auth_result(A, true, 0);
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send A REQ s"}));
  EXPECT_TRUE(subs.authenticated(A));
  // Refused again after AUTH on this connection: no second AUTH, it is closed with that CLOSED.
  (void)subs.feed(A, *encode_closed("s", "auth-required: still no"));
  EXPECT_EQ(brief(subs.take_actions()), (lines{"relay-closed A s auth-required", "ended s"}));

  // AUTH refused: closed with the CLOSED that asked for it; the refusal is remembered per challenge.
  ASSERT_TRUE(subs.subscribe("t", {kinds({4})}, {A}, 0).ok());
  subs.take_actions();
  (void)subs.feed(A, encode_auth_challenge("c1"));
  EXPECT_FALSE(subs.authenticated(A)) << "a new challenge asks again";
  EXPECT_EQ(*subs.challenge(A), "c1");
  (void)subs.feed(A, *encode_closed("t", "auth-required: members"));
  subs.take_actions();
  subs.auth_result(A, false, 0);
  auto closed_actions = subs.take_actions();
  EXPECT_EQ(brief(closed_actions), (lines{"relay-closed A t auth-required", "ended t"}));
  EXPECT_EQ(closed_actions[0].status.message, "auth-required: members");
  EXPECT_TRUE(subs.auth_refused(A));
  (void)subs.feed(A, encode_auth_challenge("c2"));
  EXPECT_FALSE(subs.auth_refused(A)) << "a new challenge may be answered";
  // A reconnect forgets the challenge and the AUTH state.
  subs.relay_disconnected(A, true);
  EXPECT_EQ(subs.challenge(A), nullptr);
}

TEST(relay_subscriptions_managed_test, restricted_asks_for_auth_only_after_a_challenge) {
  subscriptions subs;
  subs.relay_connected(A, 0);
  EXPECT_FALSE(subs.needs_auth(A, reason_code::restricted));
  EXPECT_TRUE(subs.needs_auth(A, reason_code::auth_required));
  (void)subs.feed(A, encode_auth_challenge("c"));
  EXPECT_TRUE(subs.needs_auth(A, reason_code::restricted));
  subs.auth_result(A, true, 0);
  EXPECT_FALSE(subs.needs_auth(A, reason_code::restricted));
  ASSERT_TRUE(subs.subscribe("s", {kinds({1})}, {A}, 0).ok());
  subs.take_actions();
  (void)subs.feed(A, *encode_closed("s", "restricted: not for you"));
  EXPECT_EQ(brief(subs.take_actions()), (lines{"relay-closed A s restricted", "ended s"}));
}

TEST(relay_subscriptions_managed_test, transient_closed_is_retried_after_a_backoff_deadline) {
  subscriptions_config cfg;
  cfg.subscription_retries = 2;
  cfg.retry_backoff = {100, 1000, 2, 0};  // no jitter: exact deadlines
  subscriptions subs(cfg);
  subs.relay_connected(A, 0);
  ASSERT_TRUE(subs.subscribe("s", {kinds({1})}, {A}, 0).ok());
  subs.take_actions();
  (void)subs.feed(A, *encode_closed("s", "rate-limited: slow down"), 10'000);
  EXPECT_TRUE(subs.take_actions().empty());
  EXPECT_EQ(subs.next_deadline(), 10'100);
  subs.handle_timeout(10'099);
  EXPECT_TRUE(subs.take_actions().empty());
  subs.handle_timeout(10'100);
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send A REQ s"}));
  (void)subs.feed(A, *encode_closed("s", "error: busy"), 20'000);
  EXPECT_EQ(subs.next_deadline(), 20'200);
  subs.handle_timeout(20'200);
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send A REQ s"}));
  // The retries of this connection are used up: closed for good.
  (void)subs.feed(A, *encode_closed("s", "rate-limited: again"), 30'000);
  EXPECT_EQ(brief(subs.take_actions()), (lines{"relay-closed A s rate-limited", "ended s"}));
  EXPECT_EQ(subs.next_deadline(), std::nullopt);
}

TEST(relay_subscriptions_managed_test, a_drop_cancels_a_pending_retry_and_a_reconnect_resets_the_count) {
  subscriptions_config cfg;
  cfg.subscription_retries = 1;
  cfg.retry_backoff = {100, 1000, 2, 0};
  subscriptions subs(cfg);
  subs.relay_connected(A, 0);
  ASSERT_TRUE(subs.subscribe("s", {kinds({1})}, {A}, 0).ok());
  subs.take_actions();
  (void)subs.feed(A, *encode_closed("s", "rate-limited: x"), 0);
  subs.relay_disconnected(A, true);
  subs.take_actions();
  EXPECT_EQ(subs.next_deadline(), std::nullopt);
  subs.handle_timeout(1'000'000);
  EXPECT_TRUE(subs.take_actions().empty()) << "nothing is sent to a relay that is down";
  subs.relay_connected(A, 0);
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send A REQ s"}));
  (void)subs.feed(A, *encode_closed("s", "rate-limited: x"), 0);
  EXPECT_EQ(subs.next_deadline(), 100) << "the retry count starts again on a new connection";
}

TEST(relay_subscriptions_managed_test, resubscribe_after_reconnect_uses_since_except_for_gift_wraps) {
  subscriptions_config cfg;
  cfg.resubscribe_overlap = 60;
  subscriptions subs(cfg);
  subs.relay_connected(A, 0);
  filter wraps = kinds({1059});
  wraps.since = 100;
  ASSERT_TRUE(subs.subscribe("s", {kinds({1}), wraps}, {A}, 0).ok());
  subs.take_actions();
  (void)subs.feed(A, *encode_relay_event("s", note(1500)));
  subs.relay_disconnected(A, true);
  subs.take_actions();
  subs.relay_connected(A, 2'000'000);  // ms: since is in seconds
  auto actions = subs.take_actions();
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].frame, "[\"REQ\",\"s\",{\"kinds\":[1],\"since\":1440},{\"kinds\":[1059],\"since\":100}]");
  EXPECT_EQ(subs.seen_count("s"), 1u);
}

TEST(relay_subscriptions_managed_test, closed_relays_stay_closed_and_the_last_one_ends_the_subscription) {
  subscriptions subs;
  subs.relay_connected(A, 0);
  subs.relay_connected(B, 0);
  ASSERT_TRUE(subs.subscribe("s", {kinds({1})}, {A, B}, 0).ok());
  subs.take_actions();
  (void)subs.feed(A, *encode_closed("s", "blocked: go away"));
  EXPECT_EQ(brief(subs.take_actions()), (lines{"relay-closed A s blocked"}));
  EXPECT_TRUE(subs.wants_relay(B));
  EXPECT_FALSE(subs.wants_relay(A));
  // Not reopened on reconnect.
  subs.relay_disconnected(A, true);
  subs.take_actions();
  subs.relay_connected(A, 0);
  EXPECT_TRUE(subs.take_actions().empty());
  (void)subs.feed(B, *encode_eose("s"));
  EXPECT_EQ(brief(subs.take_actions()), (lines{"eose s"}));
  // Removing B from the pool closes it there: the last relay, so it ends.
  subs.remove_relay(B, "relay removed from the pool");
  auto actions = subs.take_actions();
  EXPECT_EQ(brief(actions), (lines{"relay-closed B s closed", "ended s"}));
  EXPECT_FALSE(subs.contains("s"));
  // Nothing after the end: frames for it are dropped.
  EXPECT_TRUE(std::holds_alternative<dropped>(subs.feed(A, *encode_relay_event("s", note(1)))));
  EXPECT_TRUE(subs.take_actions().empty());
}

TEST(relay_subscriptions_managed_test, unsubscribe_sends_close_only_where_open_and_connected) {
  subscriptions subs;
  subs.relay_connected(A, 0);
  ASSERT_TRUE(subs.subscribe("s", {kinds({1})}, {A, B}, 0).ok());
  subs.take_actions();
  subs.unsubscribe("s");
  EXPECT_EQ(brief(subs.take_actions()), (lines{"send A CLOSE s"}));
  subs.unsubscribe("s");  // unknown: ignored
  EXPECT_TRUE(subs.take_actions().empty());
  EXPECT_FALSE(subs.wants_relay(B));
}

TEST(relay_subscriptions_managed_test, probes_are_answered_and_closed_by_the_core) {
  subscriptions subs;
  std::string p = subs.probe(A);
  auto m = decode_client_message(p);
  ASSERT_TRUE(m.ok());
  const auto& req = std::get<client_req>(*m);
  EXPECT_TRUE(subscriptions::is_probe(req.sub_id));
  ASSERT_EQ(req.filters.size(), 1u);
  EXPECT_EQ(req.filters[0].ids->front(), std::string(64, '0'));
  auto o = subs.feed(A, *encode_eose(req.sub_id));
  EXPECT_TRUE(std::holds_alternative<eose>(o));
  auto actions = subs.take_actions();
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].frame, *encode_close(req.sub_id));
  EXPECT_NE(subs.probe(A), p) << "each probe has its own id";
}

TEST(relay_subscriptions_managed_test, feed_batch_marks_keep_actions_in_order_with_outcomes) {
  subscriptions subs;
  subs.relay_connected(A, 0);
  ASSERT_TRUE(subs.subscribe("s", {kinds({1})}, {A}, 0).ok());
  subs.take_actions();
  std::vector<std::string> frames = {*encode_relay_event("s", note(1)), *encode_eose("s"),
                                     *encode_relay_event("s", note(2))};
  std::vector<std::string_view> views(frames.begin(), frames.end());
  std::vector<std::size_t> marks;
  auto out = subs.feed_batch(A, views, 0, &marks);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(marks, (std::vector<std::size_t>{0, 1, 1}));
  EXPECT_EQ(brief(subs.take_actions()), (lines{"eose s"}));
}

TEST(relay_subscriptions_managed_test, backoff_rule) {
  EXPECT_EQ(backoff_delay(0, {100, 400, 2, 0.5}, 0.5), 75);
  EXPECT_EQ(backoff_delay(1, {100, 400, 2, 0.5}, 0.5), 150);
  EXPECT_EQ(backoff_delay(3, {100, 400, 2, 0.5}, 0.5), 300);  // capped at 400, a quarter off
  EXPECT_EQ(backoff_delay(2, {100, 400, 2, 0}, 0.99), 400);
  EXPECT_EQ(next_reconnect_attempt(4, 6000, 5000), 0);
  EXPECT_EQ(next_reconnect_attempt(4, 100, 5000), 4);
  EXPECT_EQ(next_reconnect_attempt(4, -1, 5000), 4);
}
