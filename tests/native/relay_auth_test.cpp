// NIP-42 AUTH through the relay machine (subscriptions_auth.cpp): one rule per test. The machine
// waits for the challenge, asks the signer for its own kind 22242 template, sends the AUTH frame
// by the codec and lets its OK decide; one AUTH per connection at a time, accepted stays
// accepted until a new challenge, refused is not asked again on the same challenge, deadlines for
// the challenge and the OK, no signer, a failing signer, a drop, the eager policy, and the
// subscriptions and publishes that waited on it.
#include <gtest/gtest.h>

#include "event/event.hpp"
#include "relay/client_message.hpp"
#include "relay/nip42.hpp"
#include "relay/relay_message.hpp"
#include "relay/subscriptions.hpp"
#include "util/hex.hpp"

using namespace nostr;
using namespace nostr::relay;

namespace {

const char* const A = "wss://a.example";

crypto::keypair key() {
  return *crypto::keypair::from_secret(
      *hex::decode32("67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa"));
}

// "sign-auth c1", "auth-status authenticating", "auth-done yes", "send AUTH", "send EVENT"...
std::vector<std::string> brief(const std::vector<action>& actions) {
  std::vector<std::string> out;
  for (const auto& a : actions) {
    std::string s = action_type_name(a.type);
    if (a.type == action_type::sign_auth) s += " " + a.challenge;
    if (a.type == action_type::auth_status) s += " " + a.state + (a.code.empty() ? "" : " " + a.code);
    if (a.type == action_type::auth_done) s += a.accepted ? " yes" : " no";
    if (a.type == action_type::send) {
      auto m = decode_client_message(a.frame);
      s += std::holds_alternative<client_auth>(*m)    ? " AUTH"
           : std::holds_alternative<client_event>(*m) ? " EVENT"
           : std::holds_alternative<client_req>(*m)   ? " REQ"
                                                      : " ?";
    }
    if (a.type == action_type::settle) s += std::string(" ") + publish_status_name(a.outcome);
    out.push_back(s);
  }
  return out;
}

using lines = std::vector<std::string>;

const action* find(const std::vector<action>& acts, action_type t) {
  for (const auto& a : acts)
    if (a.type == t) return &a;
  return nullptr;
}

// What a signer does with a sign-auth action: the core's template, signed.
event sign(const action& a) { return finalize(auth_template(a.relay, a.challenge, a.created_at), key(), bytes32{}); }

subscriptions connected_machine() {
  subscriptions m;
  m.set_can_authenticate(true);
  m.relay_connected(A, 0);
  return m;
}

}  // namespace

TEST(relay_auth_test, waits_for_the_challenge_signs_the_template_and_the_ok_decides) {
  subscriptions m = connected_machine();
  m.authenticate(A, 1'000, 11'000);
  EXPECT_EQ(brief(m.take_actions()), (lines{"auth-status authenticating"}));
  EXPECT_EQ(m.next_deadline(), 11'000);
  m.feed(A, encode_auth_challenge("c1"), 2'500);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"sign-auth c1"}));
  EXPECT_EQ(acts[0].created_at, 2);  // now, in seconds
  const event signed_ev = sign(acts[0]);
  EXPECT_TRUE(validate_auth_event(signed_ev, A, "c1", 2).ok());  // what a relay checks
  m.auth_signed(A, acts[0].round, signed_ev, 3'000);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"send AUTH"}));
  EXPECT_EQ(acts[0].frame, encode_client_auth(signed_ev));
  m.feed(A, *encode_ok(signed_ev.id, true, ""), 3'100);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"auth-status open", "auth-done yes"}));
  EXPECT_EQ(acts[0].pubkey, signed_ev.pubkey);
  EXPECT_TRUE(m.authenticated(A));
  EXPECT_EQ(m.next_deadline(), std::nullopt);
  // Accepted stays accepted: asking again is done at once, without the signer.
  m.authenticate(A, 4'000, 14'000);
  EXPECT_EQ(brief(m.take_actions()), (lines{"auth-done yes"}));
  // A new challenge asks again.
  m.feed(A, encode_auth_challenge("c2"), 5'000);
  m.authenticate(A, 5'000, 15'000);
  EXPECT_EQ(brief(m.take_actions()), (lines{"auth-status authenticating", "sign-auth c2"}));
}

TEST(relay_auth_test, a_second_caller_joins_the_auth_in_flight) {
  subscriptions m = connected_machine();
  m.feed(A, encode_auth_challenge("c1"), 0);
  m.authenticate(A, 0, 10'000);
  auto acts = m.take_actions();
  m.authenticate(A, 10, 10'000);
  EXPECT_TRUE(m.take_actions().empty());
  m.auth_signed(A, find(acts, action_type::sign_auth)->round, sign(*find(acts, action_type::sign_auth)), 20);
  EXPECT_EQ(brief(m.take_actions()), (lines{"send AUTH"}));
}

TEST(relay_auth_test, refused_is_not_asked_again_on_the_same_challenge) {
  subscriptions m = connected_machine();
  m.feed(A, encode_auth_challenge("c1"), 0);
  m.authenticate(A, 0, 10'000);
  const action s = *find(m.take_actions(), action_type::sign_auth);
  const event ev = sign(s);
  m.auth_signed(A, s.round, ev, 10);
  m.take_actions();
  m.feed(A, *encode_ok(ev.id, false, "restricted: not you"), 20);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"auth-status auth-required AUTH_FAILED", "auth-done no"}));
  EXPECT_EQ(acts[0].detail, std::string(A) + " refused AUTH: restricted: not you");
  EXPECT_TRUE(m.auth_refused(A));
  m.authenticate(A, 30, 10'000);
  EXPECT_EQ(brief(m.take_actions()), (lines{"auth-done no"}));
  m.feed(A, encode_auth_challenge("c2"), 40);
  m.authenticate(A, 40, 10'000);
  EXPECT_EQ(brief(m.take_actions()), (lines{"auth-status authenticating", "sign-auth c2"}));
}

TEST(relay_auth_test, deadlines_for_the_challenge_and_for_the_ok) {
  subscriptions m = connected_machine();
  m.authenticate(A, 0, 1'000);
  m.take_actions();
  m.handle_timeout(999);
  EXPECT_TRUE(m.take_actions().empty());
  m.handle_timeout(1'000);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"auth-status auth-required AUTH_FAILED", "auth-done no"}));
  EXPECT_EQ(acts[0].detail, std::string(A) + " sent no AUTH challenge");

  m.feed(A, encode_auth_challenge("c2"), 2'000);
  m.authenticate(A, 2'000, 3'000);
  const action s = *find(m.take_actions(), action_type::sign_auth);
  m.auth_signed(A, s.round, sign(s), 2'100);
  m.take_actions();
  EXPECT_EQ(m.next_deadline(), 3'000);
  m.handle_timeout(3'000);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"auth-status auth-required AUTH_FAILED", "auth-done no"}));
  EXPECT_EQ(acts[0].detail, std::string(A) + " did not answer AUTH");
}

TEST(relay_auth_test, no_signer_shows_auth_required) {
  subscriptions m;
  m.relay_connected(A, 0);
  m.feed(A, encode_auth_challenge("c1"), 0);
  m.authenticate(A, 0, 1'000);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"auth-status auth-required AUTH_REQUIRED", "auth-done no"}));
}

TEST(relay_auth_test, a_failing_signer_and_a_drop_end_it_and_late_answers_are_ignored) {
  subscriptions m = connected_machine();
  m.feed(A, encode_auth_challenge("c1"), 0);
  m.authenticate(A, 0, 10'000);
  const action s1 = *find(m.take_actions(), action_type::sign_auth);
  m.auth_sign_failed(A, s1.round, "user said no", 10);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"auth-status auth-required AUTH_FAILED", "auth-done no"}));
  EXPECT_EQ(acts[0].detail, "the signer refused the AUTH event: user said no");

  m.feed(A, encode_auth_challenge("c2"), 20);
  m.authenticate(A, 20, 10'000);
  const action s2 = *find(m.take_actions(), action_type::sign_auth);
  m.relay_disconnected(A, true);
  EXPECT_EQ(brief(m.take_actions()), (lines{"auth-done no"}));
  m.auth_signed(A, s2.round, sign(s2), 30);  // the signer answers after the drop
  EXPECT_TRUE(m.take_actions().empty());
  m.relay_connected(A, 40);
  m.auth_signed(A, s2.round, sign(s2), 50);  // nor on the next connection
  EXPECT_TRUE(m.take_actions().empty());
}

TEST(relay_auth_test, the_eager_policy_answers_each_challenge_as_it_arrives) {
  subscriptions m = connected_machine();
  m.set_auth_policy(true, 5'000);
  m.feed(A, encode_auth_challenge("c1"), 1'000);
  EXPECT_EQ(brief(m.take_actions()), (lines{"auth-status authenticating", "sign-auth c1"}));
}

TEST(relay_auth_test, subscriptions_and_publishes_waiting_on_auth_go_on_once_accepted) {
  subscriptions m = connected_machine();
  filter f;
  f.kinds = std::vector<std::int64_t>{4};
  ASSERT_TRUE(m.subscribe("s", {f}, {A}, 0).ok());
  event_template t;
  t.kind = 1;
  t.created_at = 1;
  const event note = finalize(t, key(), bytes32{});
  ASSERT_TRUE(m.publish(7, note, {A}, 0, 20'000, 3).ok());
  m.take_actions();
  m.feed(A, encode_auth_challenge("c1"), 10);
  m.feed(A, *encode_closed("s", "auth-required: dms"), 20);
  m.feed(A, *encode_ok(note.id, false, "auth-required: who"), 30);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"authenticate", "authenticate"}));
  EXPECT_EQ(acts[1].deadline, 20'000);  // the publish's
  m.authenticate(A, 40, acts[1].deadline);
  m.authenticate(A, 40, 10'040);  // the second joins
  const action s = *find(m.take_actions(), action_type::sign_auth);
  const event ev = sign(s);
  m.auth_signed(A, s.round, ev, 50);
  m.take_actions();
  m.feed(A, *encode_ok(ev.id, true, ""), 60);
  EXPECT_EQ(brief(m.take_actions()), (lines{"auth-status open", "auth-done yes", "send REQ", "send EVENT"}));
  m.feed(A, *encode_ok(note.id, true, ""), 70);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"settle accepted"}));
  EXPECT_EQ(acts[0].attempts, 2);
}
