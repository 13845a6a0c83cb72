// NIP-45 COUNT through the relay machine (subscriptions_count.cpp): one rule per test. The COUNT
// waits for the connection, the relay's COUNT ends it with the count (approximate, hll), its
// CLOSED refuses it (or asks for AUTH once, then sends again), a lost connection and the deadline
// end it their own ways, abort and pool close end what is left, and each COUNT ends exactly once.
#include <gtest/gtest.h>

#include "relay/client_message.hpp"
#include "relay/relay_message.hpp"
#include "relay/subscriptions.hpp"

using namespace nostr;
using namespace nostr::relay;

namespace {

const char* const A = "wss://a.example";
const char* const B = "wss://b.example";

std::vector<filter> kind1() {
  filter f;
  f.kinds = std::vector<std::int64_t>{1};
  return {f};
}

// "send A COUNT 1", "connect A 1", "count-done A 1 5", "count-done A 1 RELAY_TIMEOUT", ...
std::vector<std::string> brief(const std::vector<action>& actions) {
  std::vector<std::string> out;
  for (const auto& a : actions) {
    std::string s = action_type_name(a.type);
    s += std::string(" ") + (a.relay == A ? "A" : a.relay == B ? "B" : a.relay);
    if (a.type == action_type::send) {
      auto m = decode_client_message(a.frame);
      s += m && std::holds_alternative<client_count>(*m) ? " COUNT" : " ?";
    }
    if (a.count_id) s += " " + std::to_string(a.count_id);
    if (a.type == action_type::count_done) s += " " + (a.code.empty() ? std::to_string(a.count) : a.code);
    out.push_back(s);
  }
  return out;
}

std::string count_frame(const std::string& sub, std::int64_t n, bool approximate = false) {
  return *encode_count_result(sub, n, approximate);
}

std::string closed_frame(const std::string& sub, const std::string& message) {
  return "[\"CLOSED\",\"" + sub + "\",\"" + message + "\"]";
}

using lines = std::vector<std::string>;

}  // namespace

TEST(relay_count_test, waits_for_the_connection_then_the_relays_count_ends_it_once) {
  subscriptions m;
  ASSERT_TRUE(m.count(1, "c1", kind1(), A, 0, 10000).ok());
  EXPECT_EQ(brief(m.take_actions()), (lines{"connect A 1"}));
  EXPECT_TRUE(m.wants_relay(A));
  m.relay_connected(A, 100);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"send A COUNT 1"}));
  EXPECT_EQ(acts[0].frame, *encode_count("c1", kind1()));  // the core's codec
  m.feed(A, count_frame("c1", 42, true), 200);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"count-done A 1 42"}));
  EXPECT_TRUE(acts[0].approximate);
  EXPECT_EQ(acts[0].sub_id, "c1");
  EXPECT_EQ(m.counts(), 0u);
  EXPECT_FALSE(m.wants_relay(A));
  m.feed(A, count_frame("c1", 43), 300);  // a second answer ends nothing more
  EXPECT_TRUE(m.take_actions().empty());
  EXPECT_EQ(m.next_deadline(), std::nullopt);
}

TEST(relay_count_test, an_answer_from_another_relay_or_for_another_id_does_not_count) {
  subscriptions m;
  m.relay_connected(A, 0);
  m.relay_connected(B, 0);
  ASSERT_TRUE(m.count(1, "c1", kind1(), A, 0, -1).ok());
  m.take_actions();
  m.feed(B, count_frame("c1", 1), 10);
  m.feed(A, count_frame("c2", 2), 10);
  EXPECT_TRUE(m.take_actions().empty());
  m.feed(A, count_frame("c1", 3), 20);
  EXPECT_EQ(brief(m.take_actions()), (lines{"count-done A 1 3"}));
}

TEST(relay_count_test, the_hll_is_kept_only_as_256_registers_of_lowercase_hex) {
  subscriptions m;
  m.relay_connected(A, 0);
  const std::string hll(512, 'a');
  ASSERT_TRUE(m.count(1, "c1", kind1(), A, 0, -1).ok());
  ASSERT_TRUE(m.count(2, "c2", kind1(), A, 0, -1).ok());
  m.take_actions();
  m.feed(A, "[\"COUNT\",\"c1\",{\"count\":7,\"hll\":\"" + hll + "\"}]", 10);
  m.feed(A, "[\"COUNT\",\"c2\",{\"count\":8,\"hll\":\"" + std::string(512, 'A') + "\"}]", 10);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"count-done A 1 7", "count-done A 2 8"}));
  EXPECT_EQ(acts[0].hll, hll);
  EXPECT_TRUE(acts[1].hll.empty());
}

TEST(relay_count_test, a_closed_refuses_it_with_the_relays_reason) {
  subscriptions m;
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.count(1, "c1", kind1(), A, 0, -1).ok());
  m.take_actions();
  const outcome o = m.feed(A, closed_frame("c1", "blocked: no COUNT here"), 10);
  EXPECT_TRUE(std::holds_alternative<closed>(o));  // not an unknown-subscription drop
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"count-done A 1 RELAY_CLOSED"}));
  EXPECT_EQ(acts[0].reason, "blocked");
  EXPECT_EQ(acts[0].detail, std::string(A) + " refused COUNT: blocked: no COUNT here");
  // A CLOSED nobody waits for stays an unknown-subscription drop.
  EXPECT_TRUE(std::holds_alternative<dropped>(m.feed(A, closed_frame("c1", "error: late"), 20)));
}

TEST(relay_count_test, auth_required_asks_for_auth_once_then_sends_again) {
  subscriptions m;
  m.set_can_authenticate(true);
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.count(1, "c1", kind1(), A, 0, 5000).ok());
  m.take_actions();
  m.feed(A, closed_frame("c1", "auth-required: who are you"), 10);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"authenticate A 1"}));
  EXPECT_EQ(acts[0].deadline, 5000);
  m.auth_result(A, true, 20);
  EXPECT_EQ(brief(m.take_actions()), (lines{"send A COUNT 1"}));
  // Asked again after AUTH: refused, not a second AUTH.
  m.feed(A, closed_frame("c1", "auth-required: still no"), 30);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"count-done A 1 RELAY_CLOSED"}));
  EXPECT_EQ(acts[0].reason, "auth-required");
  // AUTH refused: the relay's CLOSED stands.
  ASSERT_TRUE(m.count(2, "c2", kind1(), A, 40, -1).ok());
  m.take_actions();
  m.feed(A, closed_frame("c2", "auth-required: who"), 50);
  EXPECT_EQ(brief(m.take_actions()), (lines{"authenticate A 2"}));
  m.auth_result(A, false, 60);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"count-done A 2 RELAY_CLOSED"}));
  EXPECT_EQ(acts[0].detail, std::string(A) + " refused COUNT: auth-required: who");
}

TEST(relay_count_test, without_a_signer_auth_required_is_shown_and_refuses) {
  subscriptions m;
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.count(1, "c1", kind1(), A, 0, -1).ok());
  m.take_actions();
  m.feed(A, closed_frame("c1", "auth-required: sign in"), 10);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"auth-status A", "count-done A 1 RELAY_CLOSED"}));
  EXPECT_EQ(acts[0].code, "AUTH_REQUIRED");
}

TEST(relay_count_test, a_lost_connection_ends_it_after_the_send_and_waits_before) {
  subscriptions m;
  ASSERT_TRUE(m.count(1, "c1", kind1(), A, 0, -1).ok());
  m.take_actions();
  m.relay_disconnected(A, true);  // not sent yet, a reconnect is coming: keeps waiting
  EXPECT_TRUE(m.take_actions().empty());
  m.relay_connected(A, 10);
  EXPECT_EQ(brief(m.take_actions()), (lines{"send A COUNT 1"}));
  m.relay_disconnected(A, true);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"count-done A 1 RELAY_CONNECTION_LOST"}));
  EXPECT_EQ(acts[0].detail, std::string(A) + ": connection lost before COUNT");
  // Not sent, and no reconnect coming: unreachable (the pool names the connection's error).
  ASSERT_TRUE(m.count(2, "c2", kind1(), B, 20, -1).ok());
  m.take_actions();
  m.relay_disconnected(B, false);
  acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"count-done B 2 RELAY_UNREACHABLE"}));
  EXPECT_TRUE(acts[0].detail.empty());
}

TEST(relay_count_test, the_deadline_ends_each_stage_its_own_way) {
  subscriptions m;
  m.set_can_authenticate(true);
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.count(1, "c1", kind1(), B, 0, 1000).ok());   // B never connects
  ASSERT_TRUE(m.count(2, "c2", kind1(), A, 0, 2000).ok());   // A never answers
  ASSERT_TRUE(m.count(3, "c3", kind1(), A, 0, 3000).ok());   // A asks for AUTH, which never ends
  m.take_actions();
  m.feed(A, closed_frame("c3", "auth-required: who"), 10);
  EXPECT_EQ(brief(m.take_actions()), (lines{"authenticate A 3"}));
  EXPECT_EQ(m.next_deadline(), 1000);
  m.handle_timeout(999);
  EXPECT_TRUE(m.take_actions().empty());
  m.handle_timeout(1000);
  EXPECT_EQ(brief(m.take_actions()), (lines{"count-done B 1 RELAY_UNREACHABLE"}));
  EXPECT_EQ(m.next_deadline(), 2000);
  m.handle_timeout(2000);
  auto acts = m.take_actions();
  ASSERT_EQ(brief(acts), (lines{"count-done A 2 RELAY_TIMEOUT"}));
  EXPECT_EQ(acts[0].detail, std::string(A) + " did not answer COUNT within the timeout");
  m.handle_timeout(3000);
  EXPECT_EQ(brief(m.take_actions()), (lines{"count-done A 3 RELAY_CLOSED"}));
  EXPECT_EQ(m.counts(), 0u);
  EXPECT_EQ(m.next_deadline(), std::nullopt);
}

TEST(relay_count_test, abort_remove_and_close_end_what_is_left_once) {
  subscriptions m;
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.count(1, "c1", kind1(), A, 0, -1).ok());
  ASSERT_TRUE(m.count(2, "c2", kind1(), A, 0, -1).ok());
  ASSERT_TRUE(m.count(3, "c3", kind1(), B, 0, -1).ok());
  m.take_actions();
  m.cancel_count(1, "ABORTED", "the operation was aborted");
  m.cancel_count(1, "ABORTED", "again");  // ended already
  EXPECT_EQ(brief(m.take_actions()), (lines{"count-done A 1 ABORTED"}));
  m.remove_relay(A, "relay removed");
  EXPECT_EQ(brief(m.take_actions()), (lines{"count-done A 2 POOL_CLOSED"}));
  m.close_publishes();
  EXPECT_EQ(brief(m.take_actions()), (lines{"count-done B 3 POOL_CLOSED"}));
  m.feed(A, count_frame("c2", 1), 10);
  EXPECT_TRUE(m.take_actions().empty());
}

TEST(relay_count_test, refuses_a_bad_request_before_any_action) {
  subscriptions m;
  EXPECT_EQ(m.count(0, "c", kind1(), A, 0, -1).code(), errc::invalid_argument);  // id 0
  ASSERT_TRUE(m.count(1, "c", kind1(), A, 0, -1).ok());
  m.take_actions();
  EXPECT_EQ(m.count(1, "d", kind1(), A, 0, -1).code(), errc::invalid_argument);  // id in use
  EXPECT_EQ(m.count(2, "c", kind1(), A, 0, -1).code(), errc::invalid_argument);  // "c" waits on A
  EXPECT_TRUE(m.count(3, "c", kind1(), B, 0, -1).ok());                          // but not on B
  m.take_actions();
  EXPECT_FALSE(m.count(4, "", kind1(), A, 0, -1).ok());  // the codec's sub id rule
  EXPECT_FALSE(m.count(5, "e", {}, A, 0, -1).ok());      // no filters
  EXPECT_TRUE(m.take_actions().empty());
  EXPECT_EQ(m.counts(), 2u);
}

TEST(relay_count_test, a_subscription_with_the_same_id_keeps_its_closed) {
  subscriptions m;
  m.relay_connected(A, 0);
  ASSERT_TRUE(m.subscribe("x", kind1(), {A}, 0).ok());
  ASSERT_TRUE(m.count(1, "x", kind1(), A, 0, -1).ok());
  m.take_actions();
  m.feed(A, closed_frame("x", "error: shutting down"), 10);
  const auto acts = m.take_actions();
  // The subscription's CLOSED (relay-closed, ended), not the COUNT's.
  for (const auto& a : acts) EXPECT_NE(a.type, action_type::count_done);
  EXPECT_EQ(m.counts(), 1u);
}
