// The managed subscription machine driven by random sequences: subscribe, unsubscribe, relays
// connecting and dropping, frames (EVENT, EOSE, CLOSED with every reason, AUTH, probes' answers,
// junk), AUTH results, NIP-11 limits, relays removed, clock jumps forward and back. Each input
// byte picks an operation; the bytes after it are its arguments. Invariants, checked on every
// action and outcome:
//   - nothing for a subscription after it ended or was unsubscribed (no frame, no event, no
//     action), and after `ended` no other action for it in the same step;
//   - at most one eose action per subscription;
//   - a REQ only to a connected relay where the subscription is not closed, never more open REQs
//     on a relay than its max_subscriptions;
//   - handle_timeout(now) leaves no deadline at or before now;
//   - publishing: each relay of a publish settles exactly once, nothing for a publish after it
//     settled (abort, pool close, relay removed included), an EVENT only to a connected relay,
//     and the machine forgets a publish once every relay settled;
//   - NIP-42: one AUTH in flight per relay (a second authenticate() joins it), the signer asked
//     and the AUTH frame sent only while one is in flight and connected, each in-flight AUTH
//     ends with one auth-done;
//   - NIP-45 COUNT (with COUNT answers and CLOSEDs naming its ids): one count_done per COUNT,
//     nothing for it after that, its frame only to a connected relay, and the machine forgets a
//     COUNT once it ended.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "event/event.hpp"
#include "relay/client_message.hpp"
#include "relay/nip42.hpp"
#include "relay/relay_message.hpp"
#include "relay/subscriptions.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::relay;

namespace {

const char* const kRelays[] = {"wss://a", "wss://b"};
constexpr std::size_t kMaxSubsA = 2;  // relay a's NIP-11 max_subscriptions

const std::vector<event>& events() {
  static const std::vector<event> evs = [] {
    std::vector<event> out;
    for (int i = 0; i < 4; ++i) {
      event_template t;
      t.created_at = 1700000000 + i * 1000;
      t.kind = i == 3 ? 1059 : 1;
      t.content = "e" + std::to_string(i);
      out.push_back(finalize(t, fuzz::sender_keypair(), bytes32{}));
    }
    return out;
  }();
  return evs;
}

const char* const kReasons[] = {"auth-required: x", "restricted: x",  "rate-limited: x", "error: x",
                                "blocked: x",       "duplicate: x",   "invalid: x",      "mute: x",
                                "",                 "pow: x"};

struct input {
  std::string_view in;
  std::uint8_t next() {
    if (in.empty()) return 0;
    auto b = static_cast<std::uint8_t>(in[0]);
    in.remove_prefix(1);
    return b;
  }
};

struct harness {
  subscriptions subs;
  std::int64_t now = 1'700'000'000'000;
  std::vector<std::string> live_ids;  // subscribed, not ended nor unsubscribed
  std::set<std::string> gone;         // ended or unsubscribed: nothing more for them
  std::map<std::string, int> eoses;
  bool connected[2] = {false, false};
  std::set<std::string> open[2];                 // REQs open per relay (sent, not closed)
  std::map<std::string, std::set<int>> closed_on;  // relay-closed per subscription
  int next_id = 0;
  std::uint64_t next_pub = 0;
  std::map<std::uint64_t, std::set<int>> unsettled;  // publish -> relays not settled yet
  std::uint64_t next_count = 0;
  std::map<std::uint64_t, int> counting;  // COUNT -> its relay, until its count_done
  std::vector<std::string> count_ids;     // sub ids of COUNTs asked (answers may name them)
  bool in_flight[2] = {false, false};                 // an AUTH started and not done
  std::optional<action> to_sign[2];                   // the last sign-auth not answered
  std::string auth_id[2];                             // the id of the last AUTH event sent

  static int relay_index(const std::string& url) { return url == kRelays[0] ? 0 : 1; }

  void forget(const std::string& id) {
    gone.insert(id);
    for (auto& o : open) o.erase(id);
    live_ids.erase(std::remove(live_ids.begin(), live_ids.end(), id), live_ids.end());
  }

  // unsubscribed: the id the step unsubscribed (its CLOSE may go out in this step).
  void check(const std::vector<action>& actions, const std::string& unsubscribed = {}) {
    std::set<std::string> ended_now;
    for (const auto& a : actions) {
      if (a.publish != 0) {
        check_publish(a);
        continue;
      }
      if (a.count_id != 0) {
        check_count(a);
        continue;
      }
      if (check_auth(a)) continue;
      FUZZ_CHECK(!ended_now.count(a.sub_id));
      const bool is_close = a.type == action_type::send && a.frame.rfind("[\"CLOSE\"", 0) == 0;
      if (!(a.sub_id == unsubscribed && is_close) && !subscriptions::is_probe(a.sub_id))
        FUZZ_CHECK(!gone.count(a.sub_id));
      const int r = a.relay.empty() ? -1 : relay_index(a.relay);
      switch (a.type) {
        case action_type::send:
          if (is_close) {
            if (r >= 0) open[r].erase(a.sub_id);
            break;
          }
          FUZZ_CHECK(r >= 0 && connected[r]);
          FUZZ_CHECK(!closed_on[a.sub_id].count(r));
          open[r].insert(a.sub_id);
          if (r == 0) FUZZ_CHECK(open[0].size() <= kMaxSubsA);
          break;
        case action_type::eose: FUZZ_CHECK(++eoses[a.sub_id] == 1); break;
        case action_type::relay_closed:
          FUZZ_CHECK(r >= 0);
          closed_on[a.sub_id].insert(r);
          open[r].erase(a.sub_id);
          break;
        case action_type::ended:
          ended_now.insert(a.sub_id);
          forget(a.sub_id);
          break;
        default: break;
      }
    }
  }

  // NIP-42 actions; false for the others.
  bool check_auth(const action& a) {
    if (a.relay.empty()) return false;
    const int r = relay_index(a.relay);
    switch (a.type) {
      case action_type::auth_status:
        if (a.state == "authenticating") {
          FUZZ_CHECK(!in_flight[r] && connected[r]);
          in_flight[r] = true;
        }
        return true;
      case action_type::sign_auth:
        FUZZ_CHECK(in_flight[r]);
        to_sign[r] = a;
        return true;
      case action_type::auth_done:
        in_flight[r] = false;
        to_sign[r].reset();
        return true;
      case action_type::send:
        if (a.frame.rfind("[\"AUTH\"", 0) != 0) return false;
        FUZZ_CHECK(in_flight[r] && connected[r]);
        return true;
      default: return false;
    }
  }

  void check_publish(const action& a) {
    const int r = relay_index(a.relay);
    auto it = unsettled.find(a.publish);
    FUZZ_CHECK(it != unsettled.end() && it->second.count(r));  // nothing after its settle
    switch (a.type) {
      case action_type::send:
        FUZZ_CHECK(connected[r]);
        FUZZ_CHECK(a.frame.rfind("[\"EVENT\"", 0) == 0);
        break;
      case action_type::settle:
        it->second.erase(r);
        if (it->second.empty()) unsettled.erase(it);
        break;
      default: break;
    }
  }

  // NIP-45: nothing for a COUNT after its count_done, which comes once; a COUNT frame only to a
  // connected relay; a count only with no error code.
  void check_count(const action& a) {
    const int r = relay_index(a.relay);
    auto it = counting.find(a.count_id);
    FUZZ_CHECK(it != counting.end() && it->second == r);
    switch (a.type) {
      case action_type::send:
        FUZZ_CHECK(connected[r]);
        FUZZ_CHECK(a.frame.rfind("[\"COUNT\"", 0) == 0);
        break;
      case action_type::count_done:
        FUZZ_CHECK(a.code.empty() == (a.count >= 0));
        counting.erase(it);
        break;
      default: break;
    }
  }

  std::string pick_id(std::uint8_t b) {
    if (b % 8 == 6 && !count_ids.empty()) return count_ids[b % count_ids.size()];
    if (b % 8 == 7 || live_ids.empty()) return b % 2 ? "unknown" : std::string(kProbePrefix) + "1";
    return live_ids[b % live_ids.size()];
  }

  std::string frame(input& in) {
    const std::uint8_t kind = in.next();
    const std::string id = pick_id(in.next());
    switch (kind % 8) {
      case 0:
      case 1: {
        auto f = encode_relay_event(id, events()[in.next() % events().size()]);
        return f ? *f : std::string("[]");
      }
      case 2: {
        auto f = encode_eose(id);
        return f ? *f : std::string("[]");
      }
      case 3: {
        auto f = encode_closed(id, kReasons[in.next() % 10]);
        return f ? *f : std::string("[]");
      }
      case 4: return encode_auth_challenge(in.next() % 2 ? "c1" : "c2");
      case 5: {
        // The OK of an event a publish may wait for, or of our AUTH: accepted, or refused with any reason.
        const std::uint8_t b = in.next();
        if (b % 7 == 6 && !auth_id[0].empty()) {
          auto f = encode_ok(auth_id[b % 2 ? 0 : 1].empty() ? auth_id[0] : auth_id[b % 2 ? 0 : 1], b % 3 != 0,
                             b % 3 != 0 ? "" : "restricted: no");
          return f ? *f : std::string("[]");
        }
        auto f = encode_ok(events()[b % events().size()].id, b % 5 == 0, b % 5 == 0 ? "" : kReasons[in.next() % 10]);
        return f ? *f : std::string("[]");
      }
      case 6: {
        auto f = encode_count_result(id, in.next(), in.next() % 2);
        return f ? *f : std::string("[]");
      }
      default: return std::string(in.in.substr(0, in.next() % 16));
    }
  }

  void step(input& in) {
    const std::uint8_t op = in.next();
    const int r = in.next() % 2;
    const char* relay = kRelays[r];
    std::string unsubscribed;
    switch (op % 16) {
      case 0: {
        std::string id = "s" + std::to_string(next_id++);
        std::vector<std::string> rs;
        const std::uint8_t mask = in.next() % 3;
        if (mask != 1) rs.push_back(kRelays[0]);
        if (mask != 0) rs.push_back(kRelays[1]);
        std::vector<filter> filters(1 + in.next() % 2);
        filters[0].kinds = std::vector<std::int64_t>{1, 1059};
        const std::int64_t max_wait = in.next() % 3 == 0 ? -1 : in.next() * 10;
        FUZZ_CHECK(subs.subscribe(id, filters, rs, now, max_wait).ok());
        live_ids.push_back(id);
        break;
      }
      case 1: {
        if (live_ids.empty()) break;
        unsubscribed = live_ids[in.next() % live_ids.size()];
        subs.unsubscribe(unsubscribed);
        forget(unsubscribed);
        break;
      }
      case 2:
        connected[r] = true;
        subs.relay_connected(relay, now);
        break;
      case 3:
        connected[r] = false;
        open[r].clear();
        subs.relay_disconnected(relay, in.next() % 2);
        break;
      case 4:
      case 5:
      case 6: {
        if (!connected[r]) break;  // a relay sends nothing over a closed connection
        const std::string f = frame(in);
        outcome o = subs.feed(relay, f, now);
        if (auto* d = std::get_if<deliver>(&o)) {
          FUZZ_CHECK(!gone.count(d->sub_id));
          FUZZ_CHECK(verify(d->ev).ok());
        }
        if (auto* c = std::get_if<closed>(&o)) open[r].erase(c->sub_id);
        break;
      }
      case 7:
        if (connected[r]) subs.auth_result(relay, in.next() % 2, now);
        break;
      case 8: {
        // The clock jumps: mostly forward (past retry deadlines), sometimes back.
        const std::uint8_t j = in.next();
        now += j < 200 ? static_cast<std::int64_t>(j) * 37 : -static_cast<std::int64_t>(j) * 1000;
        subs.handle_timeout(now);
        auto next = subs.next_deadline();
        FUZZ_CHECK(!next || *next > now);
        break;
      }
      case 9:
        if (connected[r]) (void)subs.probe(relay);
        break;
      case 11: {
        if (in.next() % 3 == 0) {
          // A COUNT; sometimes with the id of one asked before (refused while that one waits there).
          const std::uint8_t b = in.next();
          const std::string sub = b % 4 == 0 && !count_ids.empty() ? count_ids[b % count_ids.size()]
                                                                  : "k" + std::to_string(next_count + 1);
          const std::uint8_t d = in.next();
          const std::int64_t deadline = d % 4 == 0 ? -1 : now + d * 20;
          std::vector<filter> filters(1);
          filters[0].kinds = std::vector<std::int64_t>{1};
          if (subs.count(next_count + 1, sub, filters, relay, now, deadline).ok()) {
            counting[++next_count] = r;
            count_ids.push_back(sub);
          }
          break;
        }
        const std::uint64_t id = ++next_pub;
        const std::uint8_t mask = in.next() % 3;
        std::vector<std::string> rs;
        if (mask != 1) rs.push_back(kRelays[0]);
        if (mask != 0) rs.push_back(kRelays[1]);
        const std::uint8_t d = in.next();
        const std::int64_t deadline = d % 4 == 0 ? -1 : now + d * 20;
        FUZZ_CHECK(subs.publish(id, events()[in.next() % events().size()], rs, now, deadline, in.next() % 4).ok());
        for (const auto& u : rs) unsettled[id].insert(relay_index(u));
        break;
      }
      case 12:
        if (!unsettled.empty()) {
          auto it = unsettled.begin();
          std::advance(it, in.next() % unsettled.size());
          subs.cancel_publish(it->first, publish_status::aborted, "ABORTED", "aborted");
        }
        break;
      case 14: {
        const std::uint8_t d = in.next();
        subs.authenticate(relay, now, d % 4 == 0 ? -1 : now + d * 20);
        if (in_flight[r]) {
          auto acts = subs.take_actions();  // joins the AUTH in flight: nothing new
          FUZZ_CHECK(acts.empty());
        }
        break;
      }
      case 15:
        if (to_sign[r]) {
          const action a = *to_sign[r];
          if (in.next() % 4 == 0) {
            subs.auth_sign_failed(relay, a.round, "no", now);
          } else {
            event ev = finalize(auth_template(a.relay, a.challenge, a.created_at), fuzz::sender_keypair(), bytes32{});
            auth_id[r] = ev.id;
            subs.auth_signed(relay, a.round, ev, now);
          }
          to_sign[r].reset();
        }
        break;
      case 13:
        if (in.next() % 8 == 0) {
          subs.close_publishes();
          check(subs.take_actions());
          FUZZ_CHECK(unsettled.empty() && subs.publishes() == 0);
          FUZZ_CHECK(counting.empty() && subs.counts() == 0);
        }
        break;
      default:
        if (in.next() % 4 == 0) {
          subs.remove_relay(relay, "removed");
          connected[r] = false;
          open[r].clear();
          in_flight[r] = false;  // its connection state is gone with it (the pool ends its waits)
          to_sign[r].reset();
          if (r == 0) subs.set_limits(kRelays[0], {kMaxSubsA, 0, 0});
        }
        break;
    }
    check(subs.take_actions(), unsubscribed);
    FUZZ_CHECK(subs.publishes() == unsettled.size());  // forgotten exactly when all settled
    FUZZ_CHECK(subs.counts() == counting.size());      // and a COUNT when it ended
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  input in{fuzz::text(data, size)};
  harness h;
  h.subs.set_limits(kRelays[0], {kMaxSubsA, 0, 0});
  h.subs.set_can_authenticate(size % 2 == 0);
  for (int steps = 0; !in.in.empty() && steps < 256; ++steps) h.step(in);
  return 0;
}
