// The AGX endpoint machine driven by random scripts: wraps (real ones, re-wrapped rumors, forged
// results, junk) delivered in any order and any number of times, host answers, requests opened,
// cancelled and answered, input waits, polls, timeouts after clock jumps (forward and back), and
// close. Invariants: a handler action at most once per rumor id (exactly-once), at most one settle
// or timeout per request opened, no action and no deadline after close.
#include <fuzzer/FuzzedDataProvider.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "../native/agx_test_support.hpp"
#include "fuzz_support.hpp"
#include "protocols/agx/endpoint.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/wrap.hpp"

using namespace nostr;
using namespace nostr::agx;
using namespace nostr::agx_test;

namespace {

const char* const kTasks[] = {"t0", "t1", "t2"};

struct corpus {
  std::vector<event> wraps;
  std::vector<std::string> request_rumors;  // rumor ids of task requests (for host answers)
};

event wrap_of(const event& rumor, const identity& author, const std::string& to, std::uint64_t seed) {
  rng r{seed};
  nip59::wrap_randomness rnd;
  r.fill(rnd);
  return *wrap_rumor(rumor, author.sk, to, kNow, rnd);
}

const corpus& wraps() {
  static const corpus c = [] {
    corpus c;
    std::uint64_t seed = 100;
    auto add_twice = [&](const event& rumor, const identity& from) {
      c.wraps.push_back(wrap_of(rumor, from, bob().pub, ++seed));
      c.wraps.push_back(wrap_of(rumor, from, bob().pub, ++seed));
    };
    message_fields m;
    m.text = "hello";
    m.message_id = std::string(32, '1');
    m.context_id = std::string(32, '2');
    add_twice(*message_rumor(m, alice().pub, bob().pub, kNow), alice());
    for (const char* cap : {"echo", "other"}) {
      task_request_fields f;
      f.task_id = std::string("req-") + cap;
      f.capability = cap;
      f.message_id = std::string(32, '3');
      event rumor = *task_request_rumor(f, alice().pub, bob().pub, kNow);
      c.request_rumors.push_back(rumor.id);
      add_twice(rumor, alice());
    }
    for (const char* t : kTasks) {
      for (const char* out : {"\"a\"", "\"b\""})
        add_twice(task_result_rumor(t, completed_result(std::string(out)), std::string(32, '4'), alice().pub, bob().pub, kNow)
                      ->rumor,
                  alice());
      c.wraps.push_back(wrap_of(task_result_rumor(t, completed_result(std::nullopt), std::string(32, '4'), mallory().pub,
                                                  bob().pub, kNow)
                                    ->rumor,
                                mallory(), bob().pub, ++seed));
      c.wraps.push_back(wrap_of(*task_envelope_rumor(*task_status_json(t, task_state::working, std::nullopt), t,
                                                     std::string(32, '5'), alice().pub, bob().pub, kNow),
                                alice(), bob().pub, ++seed));
      c.wraps.push_back(wrap_of(*task_envelope_rumor(*task_input_json(t, std::string("1")), t, std::string(32, '6'),
                                                     alice().pub, bob().pub, kNow),
                                alice(), bob().pub, ++seed));
    }
    rng r{7};
    c.wraps.push_back(raw_wrap("junk", bob().pub, kNow - 5, agx_tags(bob().pub, kNow - 5), kPowBits, r));
    c.wraps.push_back(raw_wrap("junk", bob().pub, kNow - 5, agx_tags(bob().pub, kNow - 5), 11, r));
    return c;
  }();
  return c;
}

nip59::conversation_key_fn bob_keys() {
  return [](const bytes32& peer) { return nip44::get_conversation_key(bob().sk, peer); };
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const corpus& c = wraps();
  endpoint_options o;
  o.mode = static_cast<authorization_policy::mode>(in.ConsumeIntegralInRange<int>(0, 3));
  o.seen_cap = in.ConsumeIntegralInRange<std::size_t>(2, 64);
  o.cache_cap = in.ConsumeIntegralInRange<std::size_t>(1, 8);
  endpoint ep(o);
  ep.set_handlers({"echo"});
  if (o.mode == authorization_policy::mode::allow_list) (void)ep.allow(alice().pub, "*");

  std::int64_t now = kNow * 1000;
  std::map<std::string, int> handler_runs;   // rumor id -> run_handler actions
  std::map<std::string, int> ends;           // task id -> settle/expire of the current request
  std::set<std::string> open;                // requests we opened and did not see end
  bool closed = false;

  auto take = [&](const std::vector<action>& as) {
    if (closed) FUZZ_CHECK(as.empty());
    for (const auto& a : as) {
      if (a.kind == action_kind::run_handler) FUZZ_CHECK(++handler_runs[a.rumor_id] == 1);
      if (a.kind == action_kind::settle || a.kind == action_kind::expire_request) {
        FUZZ_CHECK(open.count(a.task_id) == 1);
        FUZZ_CHECK(++ends[a.task_id] == 1);
        open.erase(a.task_id);
      }
    }
  };

  while (in.remaining_bytes() > 0) {
    switch (in.ConsumeIntegralInRange<int>(0, 10)) {
      case 0:
      case 1:
      case 2: {
        const event& w = c.wraps[in.ConsumeIntegralInRange<std::size_t>(0, c.wraps.size() - 1)];
        auto r = ep.receive(w, bob_keys(), bob().pub, now, in.ConsumeBool());
        if (closed) FUZZ_CHECK(r.verdict == inbound_verdict::ignored);
        take(r.actions);
        break;
      }
      case 3: {
        const auto& id = c.request_rumors[in.ConsumeIntegralInRange<std::size_t>(0, c.request_rumors.size() - 1)];
        take(ep.host_verdict(id, in.ConsumeBool(), now));
        break;
      }
      case 4: {
        std::string t = kTasks[in.ConsumeIntegralInRange<int>(0, 2)];
        const identity& peer = in.ConsumeBool() ? alice() : mallory();
        if (ep.open_request(t, peer.pub, "", in.ConsumeIntegralInRange<std::int64_t>(0, 100000), now).ok()) {
          FUZZ_CHECK(!closed);
          open.insert(t);
          ends[t] = 0;
        }
        break;
      }
      case 5: {
        std::string t = kTasks[in.ConsumeIntegralInRange<int>(0, 2)];
        if (ep.cancel_request(t)) {
          FUZZ_CHECK(open.erase(t) == 1);
        }
        break;
      }
      case 6: {
        std::string t = kTasks[in.ConsumeIntegralInRange<int>(0, 2)];
        if (in.ConsumeBool()) (void)ep.await_input(t, alice().pub, in.ConsumeIntegralInRange<std::int64_t>(0, 100000), now);
        else ep.end_await(t);
        break;
      }
      case 7: {
        auto w = ep.poll_begin(now);
        FUZZ_CHECK(w.since <= ep.cursor());
        std::int64_t before = ep.cursor();
        bool complete = in.ConsumeBool();
        ep.poll_end(w, complete, now + in.ConsumeIntegralInRange<std::int64_t>(0, 20000));
        if (!closed) FUZZ_CHECK(ep.cursor() >= before);
        if (!complete) FUZZ_CHECK(ep.cursor() == before);
        if (in.ConsumeBool()) ep.start_polling();
        break;
      }
      case 8: {
        // a clock jump: mostly forward (up to 40 days), sometimes back
        std::int64_t jump = in.ConsumeIntegralInRange<std::int64_t>(-60000, 40LL * 86400 * 1000);
        now += jump;
        std::int64_t next = ep.next_deadline();
        if (closed) FUZZ_CHECK(next == -1);
        take(ep.handle_timeout(now));
        break;
      }
      case 9:
        ep.close();
        closed = true;
        FUZZ_CHECK(ep.next_deadline() == -1);
        break;
      default:
        if (!closed) ep.start_polling();
        break;
    }
  }
  return 0;
}
