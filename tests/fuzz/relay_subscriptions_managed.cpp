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
//   - handle_timeout(now) leaves no deadline at or before now.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "event/event.hpp"
#include "relay/client_message.hpp"
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

  std::string pick_id(std::uint8_t b) {
    if (b % 8 == 7 || live_ids.empty()) return b % 2 ? "unknown" : std::string(kProbePrefix) + "1";
    return live_ids[b % live_ids.size()];
  }

  std::string frame(input& in) {
    const std::uint8_t kind = in.next();
    const std::string id = pick_id(in.next());
    switch (kind % 7) {
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
      case 5: return "[\"OK\",\"" + std::string(64, '0') + "\",false,\"auth-required: x\"]";
      default: return std::string(in.in.substr(0, in.next() % 16));
    }
  }

  void step(input& in) {
    const std::uint8_t op = in.next();
    const int r = in.next() % 2;
    const char* relay = kRelays[r];
    std::string unsubscribed;
    switch (op % 11) {
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
      default:
        if (in.next() % 4 == 0) {
          subs.remove_relay(relay, "removed");
          connected[r] = false;
          open[r].clear();
          if (r == 0) subs.set_limits(kRelays[0], {kMaxSubsA, 0, 0});
        }
        break;
    }
    check(subs.take_actions(), unsubscribed);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  input in{fuzz::text(data, size)};
  harness h;
  h.subs.set_limits(kRelays[0], {kMaxSubsA, 0, 0});
  for (int steps = 0; !in.in.empty() && steps < 256; ++steps) h.step(in);
  return 0;
}
