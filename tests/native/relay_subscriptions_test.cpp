// Subscription bookkeeping: delivery, dedupe across relays, filter and signature checks, EOSE and
// CLOSED per relay, resubscribe with since, bounded memory. Relays are played by an in-memory
// relay built on the same codec, so frames go through both directions.
#include <gtest/gtest.h>

#include <algorithm>

#include "event/event.hpp"
#include "relay/client_message.hpp"
#include "relay/relay_message.hpp"
#include "relay/seen_window.hpp"
#include "relay/subscriptions.hpp"
#include "util/hex.hpp"

using namespace nostr;
using namespace nostr::relay;

namespace {

const char* const A = "wss://a.example";
const char* const B = "wss://b.example";
const char* const C = "wss://c.example";

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

std::string event_frame(const std::string& sub, const event& e) { return *encode_relay_event(sub, e); }

template <class T>
const T& as(const outcome& o) {
  EXPECT_TRUE(std::holds_alternative<T>(o)) << "outcome index " << o.index();
  return std::get<T>(o);
}

// A NIP-01 relay reduced to what these tests need: stores events, answers REQ with the stored
// events matching any filter and EOSE.
struct mini_relay {
  std::vector<event> stored;
  std::vector<std::string> handle(const std::string& frame) const {
    std::vector<std::string> out;
    auto m = decode_client_message(frame);
    EXPECT_TRUE(m.ok()) << frame;
    if (!m.ok() || !std::holds_alternative<client_req>(*m)) return out;
    const auto& req = std::get<client_req>(*m);
    for (const auto& e : stored)
      if (std::any_of(req.filters.begin(), req.filters.end(), [&](const filter& f) { return matches(f, e); }))
        out.push_back(event_frame(req.sub_id, e));
    out.push_back(*encode_eose(req.sub_id));
    return out;
  }
};

// Feeds the relay's answers to the pool machine; returns the contents delivered.
std::vector<std::string> pump(subscriptions& subs, const char* url, const std::vector<std::string>& frames) {
  std::vector<std::string> delivered;
  for (auto& o : subs.feed_batch(url, frames))
    if (auto* d = std::get_if<deliver>(&o)) delivered.push_back(d->ev.content);
  return delivered;
}

}  // namespace

TEST(relay_subscriptions_test, open_validates_and_req_for_builds_the_frame) {
  subscriptions subs;
  EXPECT_EQ(subs.open("", {kinds({1})}).code(), errc::invalid_argument);
  EXPECT_EQ(subs.open(std::string(65, 's'), {kinds({1})}).code(), errc::invalid_argument);
  EXPECT_EQ(subs.open("s", {}).code(), errc::invalid_argument);
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  EXPECT_EQ(subs.open("s", {kinds({2})}).code(), errc::relay_subscription_exists);
  EXPECT_EQ(subs.size(), 1u);
  EXPECT_TRUE(subs.contains("s"));
  EXPECT_EQ(subs.filters("s")->at(0).kinds->at(0), 1);

  auto frame = subs.req_for("s", A, 1000);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(*frame, "[\"REQ\",\"s\",{\"kinds\":[1]}]");
  EXPECT_EQ(subs.state("s", A), relay_sub_state::pending);
  EXPECT_FALSE(subs.state("s", B).has_value());
  EXPECT_EQ(subs.req_for("nope", A, 1000).code(), errc::relay_subscription_unknown);
  EXPECT_EQ(subs.close("nope").code(), errc::relay_subscription_unknown);
  EXPECT_FALSE(subs.resume_since("s", A, 1000).has_value());  // nothing seen yet
}

TEST(relay_subscriptions_test, delivers_a_verified_matching_event) {
  subscriptions subs;
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  event e = note(1000, "first");
  auto o = subs.feed(A, event_frame("s", e));
  const auto& d = as<deliver>(o);
  EXPECT_EQ(d.sub_id, "s");
  EXPECT_EQ(d.relay, A);
  EXPECT_EQ(d.ev.id, e.id);
  EXPECT_EQ(d.ev.sig, e.sig);
  EXPECT_EQ(subs.seen_count("s"), 1u);
}

TEST(relay_subscriptions_test, dedupes_across_relays) {
  subscriptions subs;
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  ASSERT_TRUE(subs.req_for("s", B, 0).ok());
  event e = note(1000);
  EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(A, event_frame("s", e))));
  auto again = subs.feed(B, event_frame("s", e));
  const auto& d = as<dropped>(again);
  EXPECT_EQ(d.reason, drop_reason::duplicate);
  EXPECT_EQ(d.err.code, errc::relay_event_duplicate);
  EXPECT_EQ(d.event_id, e.id);
  EXPECT_EQ(d.relay, B);
  // The same relay resending it is a duplicate too.
  EXPECT_EQ(as<dropped>(subs.feed(A, event_frame("s", e))).reason, drop_reason::duplicate);
  EXPECT_EQ(subs.seen_count("s"), 1u);
  // A duplicate still counts as seen on B for the resume point, with the remembered created_at.
  EXPECT_EQ(subs.resume_since("s", B, 5000), 1000 - 60);
  // Dedupe is per subscription: another subscription gets its own copy.
  ASSERT_TRUE(subs.open("t", {kinds({1})}).ok());
  ASSERT_TRUE(subs.req_for("t", B, 0).ok());
  EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(B, event_frame("t", e))));
}

TEST(relay_subscriptions_test, drops_events_matching_none_of_the_filters) {
  subscriptions subs;
  filter by_p;
  by_p.tags["p"] = {std::string(64, 'c')};
  ASSERT_TRUE(subs.open("s", {kinds({7}), by_p}).ok());
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  event kind1 = note(1000);  // kind 1, no p tag: matches neither filter
  const auto d = as<dropped>(subs.feed(A, event_frame("s", kind1)));
  EXPECT_EQ(d.reason, drop_reason::not_matching);
  EXPECT_EQ(d.err.code, errc::relay_event_not_matching);
  EXPECT_EQ(subs.seen_count("s"), 0u);
  // Matching the second filter is enough.
  event_template t;
  t.created_at = 1000;
  t.kind = 1;
  t.tags = {{"p", std::string(64, 'c')}};
  EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(A, event_frame("s", finalize(t, key(), bytes32{})))));
  EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(A, event_frame("s", note(1000, "k7", 7)))));
  // since/until of the subscription's own filters apply too.
  ASSERT_TRUE(subs.open("recent", {[] {
                          filter f;
                          f.since = 2000;
                          return f;
                        }()}).ok());
  ASSERT_TRUE(subs.req_for("recent", A, 0).ok());
  EXPECT_EQ(as<dropped>(subs.feed(A, event_frame("recent", note(1999)))).reason, drop_reason::not_matching);
}

TEST(relay_subscriptions_test, drops_badly_signed_events_without_shadowing_the_real_one) {
  subscriptions subs;
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  ASSERT_TRUE(subs.req_for("s", B, 0).ok());
  event real = note(1000, "real");

  event bad_sig = real;
  bad_sig.sig[10] = bad_sig.sig[10] == 'a' ? 'b' : 'a';
  auto o1 = subs.feed(A, event_frame("s", bad_sig));
  EXPECT_EQ(as<dropped>(o1).reason, drop_reason::bad_signature);
  EXPECT_EQ(as<dropped>(o1).err.code, errc::invalid_signature);

  event forged = real;  // same id, other content
  forged.content = "forged";
  auto o2 = subs.feed(A, event_frame("s", forged));
  EXPECT_EQ(as<dropped>(o2).reason, drop_reason::bad_signature);
  EXPECT_EQ(as<dropped>(o2).err.code, errc::id_mismatch);

  event upper = real;  // not even well-formed
  std::transform(upper.id.begin(), upper.id.end(), upper.id.begin(), ::toupper);
  auto o3 = subs.feed(A, event_frame("s", upper));
  EXPECT_EQ(as<dropped>(o3).reason, drop_reason::malformed);
  EXPECT_EQ(as<dropped>(o3).err.code, errc::invalid_event);

  event short_sig = real;
  short_sig.sig.resize(10);
  EXPECT_EQ(as<dropped>(subs.feed(A, event_frame("s", short_sig))).reason, drop_reason::malformed);

  // None of them entered the dedupe window, nor moved the resume point.
  EXPECT_EQ(subs.seen_count("s"), 0u);
  EXPECT_FALSE(subs.resume_since("s", A, 5000).has_value());
  auto o4 = subs.feed(B, event_frame("s", real));
  ASSERT_TRUE(std::holds_alternative<deliver>(o4));
  EXPECT_EQ(std::get<deliver>(o4).ev.content, "real");
}

TEST(relay_subscriptions_test, malformed_frames_are_dropped_with_their_error) {
  subscriptions_config cfg;
  cfg.max_frame_bytes = 2000;
  subscriptions subs(cfg);
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  struct {
    std::string frame;
    errc code;
    const char* sub_id;
  } cases[] = {
      {"garbage", errc::relay_frame_invalid, ""},
      {"{}", errc::relay_frame_invalid, ""},
      {"[\"WAT\"]", errc::relay_frame_unknown_verb, ""},
      {"[\"EVENT\",\"s\"]", errc::relay_frame_arity, "s"},
      {"[\"EVENT\",\"s\",[]]", errc::relay_frame_type, "s"},
      {"[\"EVENT\",\"s\",{\"kind\":1}]", errc::invalid_event, "s"},
      {"[\"EOSE\",\"\"]", errc::relay_sub_id_invalid, ""},
      {"[\"OK\",\"x\",true,\"\"]", errc::relay_frame_type, ""},
      {"[\"NOTICE\",\"" + std::string(3000, 'n') + "\"]", errc::relay_frame_too_large, ""},
  };
  for (const auto& c : cases) {
    auto o = subs.feed(A, c.frame);
    ASSERT_TRUE(std::holds_alternative<dropped>(o)) << c.frame;
    const auto& d = std::get<dropped>(o);
    EXPECT_EQ(d.reason, drop_reason::malformed) << c.frame;
    EXPECT_EQ(d.err.code, c.code) << c.frame << ": " << d.err.detail;
    EXPECT_EQ(d.sub_id, c.sub_id) << c.frame;
    EXPECT_EQ(d.relay, A);
  }
  // The machine is still usable.
  EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(A, event_frame("s", note(1)))));
}

TEST(relay_subscriptions_test, events_for_subscriptions_not_open_there_are_dropped) {
  subscriptions subs;
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  event e = note(1000);
  auto unknown = as<dropped>(subs.feed(A, event_frame("other", e)));
  EXPECT_EQ(unknown.reason, drop_reason::unknown_subscription);
  EXPECT_EQ(unknown.err.code, errc::relay_subscription_unknown);
  EXPECT_EQ(unknown.sub_id, "other");
  EXPECT_EQ(unknown.event_id, e.id);
  // B was never sent the REQ.
  EXPECT_EQ(as<dropped>(subs.feed(B, event_frame("s", e))).reason, drop_reason::unknown_subscription);
  EXPECT_EQ(as<dropped>(subs.feed(B, *encode_eose("s"))).reason, drop_reason::unknown_subscription);
  EXPECT_EQ(as<dropped>(subs.feed(B, *encode_closed("s", "x"))).reason, drop_reason::unknown_subscription);
  // After CLOSE, late frames are dropped.
  auto close = subs.close("s");
  ASSERT_TRUE(close.ok());
  EXPECT_EQ(as<dropped>(subs.feed(A, event_frame("s", e))).reason, drop_reason::unknown_subscription);
  EXPECT_EQ(subs.seen_count("s"), 0u);
}

TEST(relay_subscriptions_test, eose_is_tracked_per_relay) {
  subscriptions subs;
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  ASSERT_TRUE(subs.req_for("s", B, 0).ok());
  auto ea = subs.feed(A, *encode_eose("s"));
  EXPECT_EQ(as<eose>(ea).relay, A);
  EXPECT_EQ(as<eose>(ea).sub_id, "s");
  EXPECT_FALSE(as<eose>(ea).all);
  EXPECT_EQ(subs.state("s", A), relay_sub_state::live);
  EXPECT_EQ(subs.state("s", B), relay_sub_state::pending);
  // Live events keep flowing from A.
  EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(A, event_frame("s", note(1)))));
  auto eb = subs.feed(B, *encode_eose("s"));
  EXPECT_TRUE(as<eose>(eb).all);
  EXPECT_EQ(subs.state("s", B), relay_sub_state::live);
  // A third relay added later is pending again until its own EOSE.
  ASSERT_TRUE(subs.req_for("s", C, 0).ok());
  EXPECT_EQ(subs.state("s", C), relay_sub_state::pending);
  EXPECT_TRUE(as<eose>(subs.feed(C, *encode_eose("s"))).all);
  // A relay that dropped does not hold EOSE back for the others.
  ASSERT_TRUE(subs.open("t", {kinds({1})}).ok());
  ASSERT_TRUE(subs.req_for("t", A, 0).ok());
  ASSERT_TRUE(subs.req_for("t", B, 0).ok());
  subs.relay_disconnected(B);
  EXPECT_EQ(subs.state("t", B), relay_sub_state::idle);
  EXPECT_TRUE(as<eose>(subs.feed(A, *encode_eose("t"))).all);
  EXPECT_EQ(relay_sub_state_name(relay_sub_state::idle), std::string("idle"));
}

TEST(relay_subscriptions_test, closed_per_relay_with_reason_and_reopen_after_auth) {
  subscriptions subs;
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  ASSERT_TRUE(subs.req_for("s", B, 0).ok());
  auto ca = subs.feed(A, *encode_closed("s", "auth-required: members only"));
  const auto& c = as<closed>(ca);
  EXPECT_EQ(c.relay, A);
  EXPECT_EQ(c.status.reason, reason_code::auth_required);
  EXPECT_EQ(c.status.text(), "members only");
  EXPECT_FALSE(c.all);
  EXPECT_EQ(subs.state("s", A), relay_sub_state::closed);
  // Closed on A: its events are no longer taken, and a reconnect does not reopen it.
  EXPECT_EQ(as<dropped>(subs.feed(A, event_frame("s", note(1)))).reason, drop_reason::unknown_subscription);
  subs.relay_disconnected(A);
  EXPECT_TRUE(subs.resubscribe(A, 0).empty());
  EXPECT_EQ(subs.state("s", A), relay_sub_state::closed);
  // After AUTH the pool asks again explicitly.
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  EXPECT_EQ(subs.state("s", A), relay_sub_state::pending);
  EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(A, event_frame("s", note(1)))));
  // Once every relay closed it, all is set.
  EXPECT_FALSE(as<closed>(subs.feed(B, *encode_closed("s", "restricted: no"))).all);
  EXPECT_TRUE(as<closed>(subs.feed(A, *encode_closed("s", "error: shutting down"))).all);
}

TEST(relay_subscriptions_test, close_says_where_to_send_close) {
  subscriptions subs;
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  for (const char* r : {A, B, C}) ASSERT_TRUE(subs.req_for("s", r, 0).ok());
  (void)subs.feed(B, *encode_closed("s", "blocked: no"));
  subs.relay_disconnected(C);
  auto action = subs.close("s");
  ASSERT_TRUE(action.ok());
  EXPECT_EQ(action->frame, "[\"CLOSE\",\"s\"]");
  EXPECT_EQ(action->relays, std::vector<std::string>{A});
  EXPECT_FALSE(subs.contains("s"));
  EXPECT_EQ(subs.size(), 0u);
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());  // the id can be reused
}

TEST(relay_subscriptions_test, resubscribe_after_reconnect_uses_since_and_dedupes_the_overlap) {
  subscriptions_config cfg;
  cfg.resubscribe_overlap = 60;
  subscriptions subs(cfg);
  mini_relay relay_a, relay_b;
  relay_a.stored = {note(1000, "a1"), note(1500, "a2")};
  relay_b.stored = {note(1200, "b1")};
  filter f = kinds({1});
  ASSERT_TRUE(subs.open("s", {f}).ok());
  EXPECT_EQ(pump(subs, A, relay_a.handle(*subs.req_for("s", A, 2000))), (std::vector<std::string>{"a1", "a2"}));
  EXPECT_EQ(pump(subs, B, relay_b.handle(*subs.req_for("s", B, 2000))), (std::vector<std::string>{"b1"}));
  EXPECT_EQ(subs.resume_since("s", A, 2000), 1440);
  EXPECT_EQ(subs.resume_since("s", B, 2000), 1140);

  // A goes down; two events are published while it is away (one inside the overlap).
  subs.relay_disconnected(A);
  EXPECT_EQ(subs.state("s", A), relay_sub_state::idle);
  EXPECT_EQ(subs.state("s", B), relay_sub_state::live);  // B is untouched
  EXPECT_EQ(as<dropped>(subs.feed(A, event_frame("s", note(1600, "late")))).reason,
            drop_reason::unknown_subscription);
  relay_a.stored.push_back(note(1450, "within overlap"));
  relay_a.stored.push_back(note(1700, "a3"));

  auto frames = subs.resubscribe(A, 2000);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0], "[\"REQ\",\"s\",{\"kinds\":[1],\"since\":1440}]");
  EXPECT_EQ(subs.state("s", A), relay_sub_state::pending);
  // a2 (1500) comes again because of the overlap and is dropped; the new ones are delivered.
  std::vector<outcome> out = subs.feed_batch(A, relay_a.handle(frames[0]));
  ASSERT_EQ(out.size(), 4u);  // a2, within overlap, a3, EOSE
  EXPECT_EQ(as<dropped>(out[0]).reason, drop_reason::duplicate);
  EXPECT_EQ(as<deliver>(out[1]).ev.content, "within overlap");
  EXPECT_EQ(as<deliver>(out[2]).ev.content, "a3");
  EXPECT_EQ(as<eose>(out[3]).relay, A);
  EXPECT_EQ(subs.resume_since("s", A, 2000), 1640);
}

TEST(relay_subscriptions_test, resume_since_keeps_a_later_filter_since_and_caps_future_events) {
  subscriptions subs;
  filter late = kinds({1});
  late.since = 1900;
  ASSERT_TRUE(subs.open("s", {kinds({1}), late}).ok());
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(A, event_frame("s", note(1950)))));
  auto frame = subs.req_for("s", A, 2000);
  ASSERT_TRUE(frame.ok());
  // since 1890 for the first filter; the second keeps its own later since.
  EXPECT_EQ(*frame, "[\"REQ\",\"s\",{\"kinds\":[1],\"since\":1890},{\"kinds\":[1],\"since\":1900}]");
  // The stored filters are not changed: matching still uses the originals.
  EXPECT_FALSE(subs.filters("s")->at(0).since.has_value());
  // An event dated far in the future does not push since past now.
  EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(A, event_frame("s", note(999999)))));
  EXPECT_EQ(subs.resume_since("s", A, 3000), 2940);
  // Near the epoch since stays at 0.
  subscriptions early;
  ASSERT_TRUE(early.open("e", {kinds({1})}).ok());
  ASSERT_TRUE(early.req_for("e", A, 0).ok());
  EXPECT_TRUE(std::holds_alternative<deliver>(early.feed(A, event_frame("e", note(30)))));
  EXPECT_EQ(early.resume_since("e", A, 100), 0);
}

TEST(relay_subscriptions_test, seen_window_is_bounded) {
  subscriptions_config cfg;
  cfg.seen_cap = 2;
  subscriptions subs(cfg);
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  ASSERT_TRUE(subs.req_for("s", A, 0).ok());
  event e1 = note(1, "1"), e2 = note(2, "2"), e3 = note(3, "3");
  for (const auto& e : {e1, e2, e3}) EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(A, event_frame("s", e))));
  EXPECT_EQ(subs.seen_count("s"), 2u);
  EXPECT_EQ(as<dropped>(subs.feed(A, event_frame("s", e3))).reason, drop_reason::duplicate);
  // The oldest was forgotten: the window trades exactness for bounded memory.
  EXPECT_TRUE(std::holds_alternative<deliver>(subs.feed(A, event_frame("s", e1))));
  EXPECT_EQ(subs.seen_count("s"), 2u);
}

TEST(relay_subscriptions_test, seen_window_evicts_in_insertion_order) {
  seen_window w(3);
  auto id = [](std::uint8_t b) {
    bytes32 x{};
    x[0] = b;
    x[31] = b;
    return x;
  };
  for (std::uint8_t i = 1; i <= 3; ++i) w.insert(id(i), i * 10);
  w.insert(id(2), 999);  // already there: no change, no eviction
  EXPECT_EQ(w.find(id(2)), 20);
  EXPECT_EQ(w.size(), 3u);
  w.insert(id(4), 40);
  EXPECT_FALSE(w.find(id(1)).has_value());
  EXPECT_EQ(w.find(id(4)), 40);
  for (std::uint8_t i = 5; i <= 9; ++i) w.insert(id(i), i);
  EXPECT_EQ(w.size(), 3u);
  EXPECT_TRUE(w.find(id(7)) && w.find(id(8)) && w.find(id(9)));
  EXPECT_FALSE(w.find(id(6)).has_value());
  EXPECT_EQ(seen_window(0).cap(), 1u);
}

TEST(relay_subscriptions_test, ok_notice_auth_count_pass_through) {
  subscriptions subs;
  std::string id(64, 'e');
  auto ok = subs.feed(A, *encode_ok(id, false, "rate-limited: slow down"));
  EXPECT_EQ(as<relay_ok>(ok).event_id, id);
  EXPECT_FALSE(as<relay_ok>(ok).accepted);
  EXPECT_EQ(as<relay_ok>(ok).status.reason, reason_code::rate_limited);
  EXPECT_EQ(as<relay_notice>(subs.feed(A, encode_notice("hello"))).message, "hello");
  EXPECT_EQ(as<relay_auth>(subs.feed(A, encode_auth_challenge("c-1"))).challenge, "c-1");
  auto count = subs.feed(A, *encode_count_result("cnt", 12, true));
  EXPECT_EQ(as<relay_count>(count).count, 12);
  EXPECT_TRUE(as<relay_count>(count).approximate);
}

TEST(relay_subscriptions_test, forget_relay_removes_it_everywhere) {
  subscriptions subs;
  ASSERT_TRUE(subs.open("s", {kinds({1})}).ok());
  ASSERT_TRUE(subs.open("t", {kinds({1})}).ok());
  for (const char* sub : {"s", "t"}) {
    ASSERT_TRUE(subs.req_for(sub, A, 0).ok());
    ASSERT_TRUE(subs.req_for(sub, B, 0).ok());
  }
  subs.forget_relay(A);
  EXPECT_EQ(subs.relays("s"), std::vector<std::string>{B});
  EXPECT_EQ(subs.relays("t"), std::vector<std::string>{B});
  EXPECT_TRUE(subs.resubscribe(A, 0).empty());
  EXPECT_EQ(as<dropped>(subs.feed(A, event_frame("s", note(1)))).reason, drop_reason::unknown_subscription);
  EXPECT_TRUE(as<eose>(subs.feed(B, *encode_eose("s"))).all);
}

TEST(relay_subscriptions_test, drop_reason_names_are_stable) {
  EXPECT_STREQ(drop_reason_name(drop_reason::duplicate), "duplicate");
  EXPECT_STREQ(drop_reason_name(drop_reason::not_matching), "not-matching");
  EXPECT_STREQ(drop_reason_name(drop_reason::bad_signature), "bad-signature");
  EXPECT_STREQ(drop_reason_name(drop_reason::malformed), "malformed");
  EXPECT_STREQ(drop_reason_name(drop_reason::unknown_subscription), "unknown-subscription");
}
