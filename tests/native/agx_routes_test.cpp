// Where AGX wraps go (relay_routes.hpp: a peer's NIP-65 relays, checked, capped and cached) and
// when the inbox is polled (poll_schedule.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agx_test_support.hpp"
#include "protocols/agx/poll_schedule.hpp"
#include "protocols/agx/relay_routes.hpp"

using namespace nostr;
using namespace nostr::agx;
using namespace nostr::agx_test;

namespace {

event relay_list(const std::string& author, std::int64_t created_at, tag_list tags, char id = '1') {
  event e;
  e.id = std::string(64, id);
  e.pubkey = author;
  e.created_at = created_at;
  e.kind = kRelayListKind;
  e.tags = std::move(tags);
  return e;
}

const std::vector<std::string> kOurs = {"wss://ours.example.com"};

}  // namespace

TEST(agx_relay_routes_test, only_wss_urls_on_public_host_names_unless_local_is_allowed) {
  EXPECT_EQ(*peer_relay_url("wss://Relay.Example.com:443/", false), "wss://relay.example.com");
  EXPECT_EQ(*peer_relay_url("wss://relay.example.com:7777/inbox", false), "wss://relay.example.com:7777/inbox");
  for (const char* refused : {"ws://relay.example.com", "wss://127.0.0.1", "wss://10.0.0.8:443", "wss://[::1]:7447",
                              "wss://localhost", "wss://relay.localhost", "wss://printer.local", "wss://db.internal",
                              "wss://router.home.arpa", "wss://intranet", "wss://user@relay.example.com",
                              "https://relay.example.com", "wss://", "not a url", "wss://rel ay.example.com"})
    EXPECT_FALSE(peer_relay_url(refused, false)) << refused;
  EXPECT_FALSE(peer_relay_url("wss://relay.example.com/" + std::string(600, 'a'), false));
  // Development: local relays and ws:// are the caller's explicit choice.
  EXPECT_EQ(*peer_relay_url("ws://127.0.0.1:7447", true), "ws://127.0.0.1:7447");
  EXPECT_EQ(*peer_relay_url("ws://localhost:7447/", true), "ws://localhost:7447");
  EXPECT_FALSE(peer_relay_url("http://localhost", true));

  EXPECT_EQ(relay_host("wss://Relay.Example.com:7777/x"), "relay.example.com");
  EXPECT_EQ(relay_host("ws://[::1]:7447"), "::1");
  EXPECT_EQ(relay_host("wss://user@10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(relay_host("nope"), "");
}

TEST(agx_relay_routes_test, the_newest_list_of_the_peer_gives_read_relays_for_sending_and_write_relays_for_polling) {
  const std::string peer = bob().pub;
  std::vector<event> found = {
      relay_list(peer, kNow - 100, {{"r", "wss://old.example.com"}}, 'a'),
      relay_list(peer, kNow, {{"r", "wss://both.example.com"}, {"r", "wss://in.example.com", "read"},
                              {"r", "wss://out.example.com", "write"}, {"r", "wss://odd.example.com", "other"},
                              {"r", "ws://127.0.0.1:1234"}, {"p", "wss://not-an-r.example.com"}, {"r"}},
                 'b'),
      relay_list(mallory().pub, kNow + 50, {{"r", "wss://mallory.example.com"}}, 'c'),  // not the peer's
  };
  found.push_back(relay_list(peer, kNow + 10, {{"r", "wss://other-kind.example.com"}}, 'd'));
  found.back().kind = 3;
  auto r = select_peer_relays(found, peer, false);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->inbox, (std::vector<std::string>{"wss://both.example.com", "wss://in.example.com"}));
  EXPECT_EQ(r->outbox, (std::vector<std::string>{"wss://both.example.com", "wss://out.example.com"}));
  // With local relays allowed, the ws:// one counts too.
  EXPECT_EQ(select_peer_relays(found, peer, true)->inbox.back(), "ws://127.0.0.1:1234");
  // Equal created_at: the lowest id wins, whatever the order found.
  std::vector<event> tie = {relay_list(peer, kNow, {{"r", "wss://z.example.com"}}, 'f'),
                            relay_list(peer, kNow, {{"r", "wss://a.example.com"}}, 'e')};
  EXPECT_EQ(select_peer_relays(tie, peer, false)->inbox, std::vector<std::string>{"wss://a.example.com"});
  EXPECT_FALSE(select_peer_relays({}, peer, false));
  EXPECT_FALSE(select_peer_relays({found[2]}, peer, false));
}

TEST(agx_relay_routes_test, a_list_of_thousands_is_read_no_further_than_twenty_candidates_and_ten_relays) {
  tag_list tags;
  for (int i = 0; i < 5; ++i) tags.push_back({"r", "wss://127.0.0." + std::to_string(i)});  // refused, but counted
  for (int i = 0; i < 3000; ++i) tags.push_back({"r", "wss://r" + std::to_string(i) + ".example.com"});
  auto r = select_peer_relays({relay_list(bob().pub, kNow, tags)}, bob().pub, false);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->inbox.size(), kMaxPeerRelays);
  EXPECT_EQ(r->inbox.front(), "wss://r0.example.com");
  EXPECT_EQ(r->inbox.back(), "wss://r9.example.com");
  // Twenty candidates, five of them refused: the first fifteen public ones could count, ten do.
  tag_list few;
  for (int i = 0; i < 19; ++i) few.push_back({"r", "wss://10.0.0." + std::to_string(i)});
  few.push_back({"r", "wss://twentieth.example.com"});
  few.push_back({"r", "wss://twenty-first.example.com"});
  auto f = select_peer_relays({relay_list(bob().pub, kNow, few)}, bob().pub, false);
  EXPECT_EQ(f->inbox, std::vector<std::string>{"wss://twentieth.example.com"});
  // Duplicates count once.
  auto d = select_peer_relays({relay_list(bob().pub, kNow, {{"r", "wss://x.example.com"}, {"r", "wss://x.example.com"}})},
                              bob().pub, false);
  EXPECT_EQ(d->inbox, std::vector<std::string>{"wss://x.example.com"});
}

TEST(agx_relay_routes_test, targets_are_ours_plus_the_peers_inbox_cached_with_a_lifetime) {
  auto routes = relay_routes::create({"wss://ours.example.com/", "wss://OURS.example.com"}, {"wss://index.example.com"}, false);
  ASSERT_TRUE(routes.ok());
  EXPECT_EQ(routes->ours(), kOurs);  // normalized, once
  EXPECT_EQ(routes->lookup_relays(), (std::vector<std::string>{"wss://ours.example.com", "wss://index.example.com"}));
  EXPECT_FALSE(routes->targets(bob().pub, kNow));  // unknown: look it up first

  peer_relays bobs{{"wss://bob-in.example.com", "wss://ours.example.com", "wss://127.0.0.1"}, {"wss://bob-out.example.com"}};
  auto t = routes->remember(bob().pub, bobs, kNow);
  // Ours first, then theirs (ours once), the local one dropped again.
  EXPECT_EQ(t, (std::vector<std::string>{"wss://ours.example.com", "wss://bob-in.example.com"}));
  EXPECT_EQ(*routes->targets(bob().pub, kNow + kRelayListTtl - 1), t);
  EXPECT_FALSE(routes->targets(bob().pub, kNow + kRelayListTtl));  // stale: looked up again

  // The host's DNS check refused a host: its relays are dropped from both lists.
  peer_relays carols{{"wss://a.example.com", "wss://b.example.com:7777"}, {"wss://b.example.com/out"}};
  EXPECT_EQ(relay_hosts(carols), (std::vector<std::string>{"a.example.com", "b.example.com"}));
  EXPECT_EQ(routes->remember(make_identity(7).pub, carols, kNow, {"b.example.com"}),
            (std::vector<std::string>{"wss://ours.example.com", "wss://a.example.com"}));
  EXPECT_TRUE(routes->poll_relays({make_identity(7).pub}, kNow).empty());

  // A peer without a list gets ours, and is asked again sooner.
  EXPECT_EQ(routes->remember(mallory().pub, std::nullopt, kNow), kOurs);
  EXPECT_TRUE(routes->targets(mallory().pub, kNow + kRelayListMissTtl - 1));
  EXPECT_FALSE(routes->targets(mallory().pub, kNow + kRelayListMissTtl));

  // Polls while requests wait read the peers' outbox relays that are not ours.
  EXPECT_EQ(routes->poll_relays({bob().pub, mallory().pub, alice().pub}, kNow),
            std::vector<std::string>{"wss://bob-out.example.com"});
  EXPECT_TRUE(routes->poll_relays({bob().pub}, kNow + kRelayListTtl).empty());

  EXPECT_EQ(relay_routes::create({"https://nope"}, {}, false).code(), errc::relay_url_invalid);
}

TEST(agx_relay_routes_test, the_cache_holds_at_most_cap_peers_expired_ones_go_first) {
  auto routes = relay_routes::create(kOurs, {}, false, 3);
  ASSERT_TRUE(routes.ok());
  std::vector<std::string> peers;
  for (std::uint64_t i = 0; i < 6; ++i) peers.push_back(make_identity(100 + i).pub);
  peer_relays some{{"wss://x.example.com"}, {}};
  routes->remember(peers[0], std::nullopt, kNow);  // expires first (the miss lifetime)
  routes->remember(peers[1], some, kNow);
  routes->remember(peers[2], some, kNow + 1);
  routes->remember(peers[3], some, kNow + 2);  // at the cap: the soonest to expire goes
  EXPECT_EQ(routes->size(), 3u);
  EXPECT_FALSE(routes->targets(peers[0], kNow + 2));
  EXPECT_TRUE(routes->targets(peers[1], kNow + 2));
  // Later, every entry but one has expired: they are swept, not just one.
  routes->remember(peers[4], some, kNow + kRelayListTtl + 1);
  EXPECT_EQ(routes->size(), 2u);
  EXPECT_TRUE(routes->targets(peers[4], kNow + kRelayListTtl + 1));
  EXPECT_TRUE(routes->targets(peers[3], kNow + kRelayListTtl + 1));
  // Remembering a known peer again does not evict anyone.
  routes->remember(peers[5], some, kNow + kRelayListTtl + 1);
  routes->remember(peers[5], some, kNow + kRelayListTtl + 2);
  EXPECT_EQ(routes->size(), 3u);
}

TEST(agx_relay_routes_test, the_advertised_list_keeps_the_users_other_relays_and_adds_ours) {
  const std::string me = alice().pub;
  // Nothing found: ours, read and write.
  auto fresh = advertised_relay_list({}, me, {"wss://ours.example.com/"}, kNow);
  ASSERT_TRUE(fresh.ok());
  ASSERT_TRUE(*fresh);
  EXPECT_EQ((*fresh)->kind, kRelayListKind);
  EXPECT_EQ((*fresh)->created_at, kNow);
  EXPECT_EQ((*fresh)->tags, (tag_list{{"r", "wss://ours.example.com"}}));

  // The user's list: the other relays and their markers stay; ours joins, ours marked read-only
  // becomes both; someone else's list and older ones are not ours to merge.
  std::vector<event> found = {
      relay_list(me, kNow - 10, {{"r", "wss://home.example.com", "write"}, {"r", "wss://ours.example.com", "read"}}, 'a'),
      relay_list(me, kNow - 500, {{"r", "wss://older.example.com"}}, 'b'),
      relay_list(bob().pub, kNow, {{"r", "wss://bobs.example.com"}}, 'c'),
  };
  auto merged = advertised_relay_list(found, me, {"wss://ours.example.com", "wss://second.example.com"}, kNow);
  ASSERT_TRUE(merged.ok());
  ASSERT_TRUE(*merged);
  EXPECT_EQ((*merged)->tags, (tag_list{{"r", "wss://home.example.com", "write"},
                                       {"r", "wss://ours.example.com"},
                                       {"r", "wss://second.example.com"}}));

  // Already there for both: nothing to publish (a restart does not replace the list).
  std::vector<event> done = {relay_list(me, kNow - 10, {{"r", "wss://home.example.com", "write"}, {"r", "wss://ours.example.com"}})};
  auto same = advertised_relay_list(done, me, {"wss://ours.example.com/"}, kNow);
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(*same);

  EXPECT_EQ(advertised_relay_list({}, me, {}, kNow).code(), errc::invalid_argument);
  EXPECT_EQ(advertised_relay_list({}, me, {"http://x"}, kNow).code(), errc::relay_url_invalid);
}

TEST(agx_poll_schedule_test, idle_polls_follow_the_catch_up_interval) {
  poll_schedule s(60000, 3000);
  EXPECT_EQ(s.deadline(), -1);  // nothing until the first poll ends
  s.poll_started();
  s.poll_finished(1000, false);
  EXPECT_EQ(s.deadline(), 61000);
  poll_schedule none(0, 3000);
  none.poll_finished(1000, false);
  EXPECT_EQ(none.deadline(), -1);
}

TEST(agx_poll_schedule_test, a_waiting_request_polls_after_three_seconds_then_backs_off_to_thirty) {
  poll_schedule s(60000, 3000);
  s.poll_finished(0, false);
  s.request_opened(1000);
  EXPECT_EQ(s.deadline(), 4000);
  std::vector<std::int64_t> gaps;
  std::int64_t now = s.deadline();
  for (int i = 0; i < 9; ++i) {
    s.poll_started();
    EXPECT_EQ(s.deadline(), -1);  // no poll starts while one runs
    s.poll_finished(now, true);
    gaps.push_back(s.deadline() - now);
    now = s.deadline();
  }
  EXPECT_EQ(gaps, (std::vector<std::int64_t>{4500, 6750, 10125, 15187, 22780, 30000, 30000, 30000, 30000}));
  // Answered: back to the catch-up interval, and the next request starts short again.
  s.poll_finished(now, false);
  EXPECT_EQ(s.deadline(), now + 60000);
  s.request_opened(now + 10);
  EXPECT_EQ(s.deadline(), now + 3010);
}

TEST(agx_poll_schedule_test, requests_never_postpone_a_poll_and_a_running_poll_keeps_its_turn) {
  poll_schedule s(60000, 3000);
  s.poll_finished(0, false);
  s.request_opened(0);
  EXPECT_EQ(s.deadline(), 3000);
  // A request every second: the deadline stays where the first one put it.
  for (std::int64_t t = 1000; t < 3000; t += 1000) {
    s.request_opened(t);
    EXPECT_EQ(s.deadline(), 3000);
  }
  // A request opened during a poll: the poll's end sets the short deadline.
  s.poll_started();
  s.request_opened(3100);
  EXPECT_EQ(s.deadline(), -1);
  s.poll_finished(3200, true);
  EXPECT_EQ(s.deadline(), 6200);
  // A catch-up interval shorter than the short one wins; no short polls when they are off.
  poll_schedule quick(1000, 3000);
  quick.poll_finished(0, true);
  EXPECT_EQ(quick.deadline(), 1000);
  poll_schedule off(60000, 0);
  off.request_opened(0);
  EXPECT_EQ(off.deadline(), -1);
  off.poll_finished(0, true);
  EXPECT_EQ(off.deadline(), 60000);
}
