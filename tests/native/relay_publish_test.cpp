// Publishing through the relay machine (subscriptions_publish.cpp): one rule per test. The EVENT
// waits for the connection, too-large against NIP-11, the OK settles (a duplicate after a resend
// is accepted), a lost connection sends again up to `retries`, auth-required asks for AUTH once
// then sends again, no signer rejects and shows auth-required, transient refusals back off by a
// deadline, the deadline ends each stage its own way, abort and close settle what is left, and
// every relay of a publish settles exactly once.
#include <gtest/gtest.h>

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

event note(const std::string& content = "hi") {
  event_template t;
  t.created_at = 1700000000;
  t.kind = 1;
  t.content = content;
  return finalize(t, key(), bytes32{});
}

std::string ok(const event& e, bool accepted, const std::string& message = "") {
  return *encode_ok(e.id, accepted, message);
}

// "send A EVENT 1", "connect B 1", "settle A 1 accepted", "authenticate A 1", ...
std::vector<std::string> brief(std::vector<action> actions) {
  std::vector<std::string> out;
  for (const auto& a : actions) {
    std::string s = action_type_name(a.type);
    s += std::string(" ") + (a.relay == A ? "A" : a.relay == B ? "B" : a.relay);
    if (a.type == action_type::send) {
      auto m = decode_client_message(a.frame);
      s += std::holds_alternative<client_event>(*m) ? " EVENT" : " ?";
    }
    if (a.publish) s += " " + std::to_string(a.publish);
    if (a.type == action_type::settle) s += std::string(" ") + publish_status_name(a.outcome);
    out.push_back(s);
  }
  return out;
}

using lines = std::vector<std::string>;

}  // namespace

TEST(relay_publish_test, sends_where_connected_connects_elsewhere_and_the_ok_settles_once) {
  subscriptions m;
  const event e = note();
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(1, e, {A, B}, 1000, 11000, 3).ok());
  auto acts = m.take_actions();
  EXPECT_EQ(brief(acts), (lines{"send A EVENT 1", "connect B 1"}));
  EXPECT_EQ(acts[0].frame, encode_client_event(e));  // the core's codec
  EXPECT_TRUE(m.wants_relay(B));
  EXPECT_EQ(m.publish(1, e, {A}, 0, -1, 0).code(), errc::invalid_argument);  // id in use
  EXPECT_EQ(m.publish(2, e, {}, 0, -1, 0).code(), errc::invalid_argument);
  m.feed(A, ok(e, true), 1100);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 1 accepted"}));
  EXPECT_EQ(acts[0].attempts, 1);
  EXPECT_TRUE(acts[0].has_ok);
  EXPECT_EQ(acts[0].reason, "none");
  m.feed(A, ok(e, true), 1200);  // a second OK settles nothing more
  EXPECT_TRUE(m.take_actions().empty());
  // B opens: REQs first (none here), then the EVENT.
  m.relay_connected(B, 1300);
  EXPECT_EQ(brief(m.take_actions()), (lines{"send B EVENT 1"}));
  m.feed(B, ok(e, false, "blocked: no"), 1400);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle B 1 rejected"}));
  EXPECT_EQ(acts[0].code, "RELAY_REJECTED");
  EXPECT_EQ(acts[0].reason, "blocked");
  EXPECT_EQ(acts[0].status.message, "blocked: no");
  EXPECT_EQ(acts[0].detail, std::string(B) + ": blocked: no");
  EXPECT_EQ(m.publishes(), 0u);  // forgotten once every relay settled
  EXPECT_FALSE(m.wants_relay(B));
}

TEST(relay_publish_test, one_ok_settles_every_publish_of_that_event_on_that_relay) {
  subscriptions m;
  const event e = note();
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(1, e, {A}, 0, -1, 3).ok());
  ASSERT_TRUE(m.publish(2, e, {A}, 0, -1, 3).ok());
  m.take_actions();
  m.feed(A, ok(note("other"), true), 10);
  EXPECT_TRUE(m.take_actions().empty());
  m.feed(A, ok(e, true), 10);
  EXPECT_EQ(brief(m.take_actions()), (lines{"settle A 1 accepted", "settle A 2 accepted"}));
}

TEST(relay_publish_test, a_frame_over_max_message_length_is_rejected_locally) {
  subscriptions m;
  const event e = note(std::string(500, 'x'));
  m.set_limits(A, {0, 0, 300});
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(1, e, {A}, 0, -1, 3).ok());
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 1 rejected"}));
  EXPECT_EQ(acts[0].reason, "too-large");
  EXPECT_EQ(acts[0].code, "MESSAGE_TOO_LARGE");
  EXPECT_EQ(acts[0].attempts, 0);
  EXPECT_NE(acts[0].status.message.find("max_message_length of 300"), std::string::npos);
  // Under the limit it goes out.
  m.set_limits(B, {0, 0, 5000});
  m.relay_connected(B, 0);
  ASSERT_TRUE(m.publish(2, e, {B}, 0, -1, 3).ok());
  EXPECT_EQ(brief(m.take_actions()), (lines{"send B EVENT 2"}));
}

TEST(relay_publish_test, a_lost_connection_sends_again_and_a_duplicate_then_is_accepted) {
  subscriptions m;
  const event e = note();
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(1, e, {A}, 0, -1, 3).ok());
  m.take_actions();
  m.relay_disconnected(A, true);
  EXPECT_EQ(brief(m.take_actions()), (lines{"connect A 1"}));
  m.relay_connected(A, 100);
  EXPECT_EQ(brief(m.take_actions()), (lines{"send A EVENT 1"}));
  m.feed(A, ok(e, false, "duplicate: have it"), 200);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 1 accepted"}));
  EXPECT_EQ(acts[0].attempts, 2);
  EXPECT_EQ(acts[0].reason, "duplicate");
  // A duplicate answering the first send is a refusal.
  ASSERT_TRUE(m.publish(2, e, {A}, 300, -1, 3).ok());
  m.take_actions();
  m.feed(A, ok(e, false, "duplicate: have it"), 400);
  EXPECT_EQ(brief(m.take_actions()), (lines{"settle A 2 rejected"}));
}

TEST(relay_publish_test, losses_beyond_retries_are_unreachable) {
  subscriptions m;
  const event e = note();
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(1, e, {A}, 0, -1, 1).ok());
  m.take_actions();
  m.relay_disconnected(A, true);
  m.relay_connected(A, 10);
  m.take_actions();
  m.relay_disconnected(A, true);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 1 unreachable"}));
  EXPECT_EQ(acts[0].code, "RELAY_CONNECTION_LOST");
  EXPECT_EQ(acts[0].attempts, 2);
}

TEST(relay_publish_test, a_relay_not_coming_back_is_unreachable_before_a_send_and_a_timeout_after) {
  subscriptions m;
  const event e = note();
  ASSERT_TRUE(m.publish(1, e, {A}, 0, -1, 3).ok());
  EXPECT_EQ(brief(m.take_actions()), (lines{"connect A 1"}));
  m.relay_disconnected(A, true);  // failed, a reconnect is coming: still waiting
  EXPECT_TRUE(m.take_actions().empty());
  m.relay_disconnected(A, false);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 1 unreachable"}));
  EXPECT_EQ(acts[0].code, "RELAY_UNREACHABLE");
  EXPECT_TRUE(acts[0].detail.empty());  // the pool names its connection error
  // Sent, lost without a reconnect coming: connect once more; failing that, a timeout.
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(2, e, {A}, 0, -1, 3).ok());
  m.take_actions();
  m.relay_disconnected(A, false);
  EXPECT_EQ(brief(m.take_actions()), (lines{"connect A 2"}));
  m.relay_disconnected(A, false);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 2 timeout"}));
  EXPECT_EQ(acts[0].code, "RELAY_TIMEOUT");
}

TEST(relay_publish_test, auth_required_asks_for_auth_once_then_sends_again) {
  subscriptions m;
  m.set_can_authenticate(true);
  const event e = note();
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(1, e, {A}, 0, 5000, 3).ok());
  m.take_actions();
  m.feed(A, ok(e, false, "auth-required: who are you"), 10);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"authenticate A 1"}));
  EXPECT_EQ(acts[0].deadline, 5000);
  m.auth_result(A, true, 20);
  EXPECT_EQ(brief(m.take_actions()), (lines{"send A EVENT 1"}));
  // Asked again after AUTH: not a second time.
  m.feed(A, ok(e, false, "auth-required: still no"), 30);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 1 rejected"}));
  EXPECT_EQ(acts[0].reason, "auth-required");
  EXPECT_EQ(acts[0].attempts, 2);
  // AUTH refused: rejected with the relay's OK.
  ASSERT_TRUE(m.publish(2, e, {A}, 40, -1, 3).ok());
  m.take_actions();
  m.feed(A, ok(e, false, "auth-required: who"), 50);
  EXPECT_EQ(brief(m.take_actions()), (lines{"authenticate A 2"}));
  m.auth_result(A, false, 60);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 2 rejected"}));
  EXPECT_EQ(acts[0].detail, std::string(A) + ": auth-required: who");
}

TEST(relay_publish_test, restricted_asks_for_auth_only_after_a_challenge) {
  subscriptions m;
  m.set_can_authenticate(true);
  const event e = note();
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(1, e, {A}, 0, -1, 3).ok());
  m.take_actions();
  m.feed(A, ok(e, false, "restricted: members only"), 10);
  EXPECT_EQ(brief(m.take_actions()), (lines{"settle A 1 rejected"}));
  m.feed(A, encode_auth_challenge("c1"), 20);
  ASSERT_TRUE(m.publish(2, e, {A}, 30, -1, 3).ok());
  m.take_actions();
  m.feed(A, ok(e, false, "restricted: members only"), 40);
  EXPECT_EQ(brief(m.take_actions()), (lines{"authenticate A 2"}));
  // The connection drops while AUTH runs: the refusal stands.
  m.relay_disconnected(A, true);
  EXPECT_EQ(brief(m.take_actions()), (lines{"settle A 2 rejected"}));
}

TEST(relay_publish_test, without_a_signer_auth_required_is_shown_and_rejects) {
  subscriptions m;
  const event e = note();
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(1, e, {A}, 0, -1, 3).ok());
  m.take_actions();
  m.feed(A, ok(e, false, "auth-required: sign in"), 10);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"auth-status A", "settle A 1 rejected"}));
  EXPECT_EQ(acts[0].state, "auth-required");
  EXPECT_EQ(acts[0].code, "AUTH_REQUIRED");
  EXPECT_EQ(acts[1].code, "RELAY_REJECTED");
}

TEST(relay_publish_test, transient_refusals_back_off_by_a_deadline_within_retries) {
  subscriptions_config cfg;
  cfg.retry_backoff = {100, 1000, 2, 0};  // no jitter: exact deadlines
  subscriptions m(cfg);
  const event e = note();
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(1, e, {A}, 0, -1, 2).ok());
  m.take_actions();
  m.feed(A, ok(e, false, "rate-limited: slow down"), 1000);
  EXPECT_TRUE(m.take_actions().empty());
  EXPECT_EQ(m.next_deadline(), 1100);
  m.handle_timeout(1099);
  EXPECT_TRUE(m.take_actions().empty());
  m.handle_timeout(1100);
  EXPECT_EQ(brief(m.take_actions()), (lines{"send A EVENT 1"}));
  EXPECT_EQ(m.next_deadline(), std::nullopt);
  m.feed(A, ok(e, false, "error: busy"), 2000);
  EXPECT_EQ(m.next_deadline(), 2200);
  m.handle_timeout(2200);
  m.take_actions();
  m.feed(A, ok(e, false, "rate-limited: again"), 3000);  // retries (2) used up
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 1 rejected"}));
  EXPECT_EQ(acts[0].attempts, 3);
  EXPECT_EQ(acts[0].reason, "rate-limited");
}

TEST(relay_publish_test, the_deadline_ends_each_stage_its_own_way) {
  subscriptions_config cfg;
  cfg.retry_backoff = {5000, 5000, 2, 0};
  subscriptions m(cfg);
  const event e = note();
  // Never connected: unreachable.
  ASSERT_TRUE(m.publish(1, e, {A}, 0, 1000, 3).ok());
  m.take_actions();
  EXPECT_EQ(m.next_deadline(), 1000);
  m.handle_timeout(1000);
  EXPECT_EQ(brief(m.take_actions()), (lines{"settle A 1 unreachable"}));
  // Sent, no OK: timeout.
  m.relay_connected(A, 0);
  m.take_actions();
  ASSERT_TRUE(m.publish(2, e, {A}, 0, 1000, 3).ok());
  m.take_actions();
  m.handle_timeout(1000);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 2 timeout"}));
  EXPECT_EQ(acts[0].code, "RELAY_TIMEOUT");
  // A retry due after the deadline never goes out: the refusal stands at the deadline.
  ASSERT_TRUE(m.publish(3, e, {A}, 0, 1000, 3).ok());
  m.take_actions();
  m.feed(A, ok(e, false, "rate-limited: wait"), 100);
  EXPECT_EQ(m.next_deadline(), 1000);
  m.handle_timeout(1000);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 3 rejected"}));
  EXPECT_EQ(acts[0].reason, "rate-limited");
  // A clock going back does not settle anything early.
  ASSERT_TRUE(m.publish(4, e, {A}, 2000, 3000, 3).ok());
  m.take_actions();
  m.handle_timeout(100);
  EXPECT_TRUE(m.take_actions().empty());
  EXPECT_EQ(m.next_deadline(), 3000);
}

TEST(relay_publish_test, abort_close_and_relay_removal_settle_what_is_left) {
  subscriptions m;
  const event e = note();
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.publish(1, e, {A, B}, 0, -1, 3).ok());
  m.take_actions();
  m.feed(A, ok(e, true), 10);
  m.take_actions();
  m.cancel_publish(1, publish_status::aborted, "ABORTED", "aborted");
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle B 1 aborted"}));
  EXPECT_EQ(acts[0].code, "ABORTED");
  m.cancel_publish(1, publish_status::aborted, "ABORTED", "aborted");  // once
  EXPECT_TRUE(m.take_actions().empty());

  ASSERT_TRUE(m.publish(2, e, {A, B}, 0, -1, 3).ok());
  ASSERT_TRUE(m.publish(3, e, {B}, 0, -1, 3).ok());
  m.take_actions();
  m.remove_relay(B, "removed");
  EXPECT_EQ(brief(m.take_actions()), (lines{"settle B 2 aborted", "settle B 3 aborted"}));
  m.close_publishes();
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle A 2 aborted"}));
  EXPECT_EQ(acts[0].code, "POOL_CLOSED");
  EXPECT_EQ(m.publishes(), 0u);
  EXPECT_EQ(m.next_deadline(), std::nullopt);
}

TEST(relay_publish_test, subscriptions_and_publishes_share_the_connection_events) {
  subscriptions m;
  const event e = note();
  filter f;
  f.kinds = std::vector<std::int64_t>{1};
  ASSERT_TRUE(m.subscribe("s", {f}, {A}, 0).ok());
  ASSERT_TRUE(m.publish(1, e, {A}, 0, -1, 3).ok());
  EXPECT_EQ(brief(m.take_actions()), (lines{"connect A", "connect A 1"}));
  m.relay_connected(A, 10);
  auto acts = m.take_actions();
  ASSERT_EQ(acts.size(), 2u);
  EXPECT_EQ(acts[0].sub_id, "s");  // the REQ first
  EXPECT_EQ(brief({acts[1]}), (lines{"send A EVENT 1"}));
}
