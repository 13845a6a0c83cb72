// The client's subscription machine fed by relay frames (after the codec): a script of lines,
// each an operation: F<frame> / G<frame> feed relay A / B, D disconnects A, R resubscribes A,
// C closes subscription s2, Q sends s1's REQ to B again. Invariants: a delivered event verifies,
// matches its subscription's filters and is delivered once per subscription; nothing is delivered
// for a closed subscription.
#include <set>
#include <string>
#include <utility>

#include "event/filter.hpp"
#include "relay/subscriptions.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::relay;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in = fuzz::text(data, size);
  subscriptions subs;
  FUZZ_CHECK(subs.open("s1", {parse_filter("{}").value()}).ok());
  FUZZ_CHECK(subs.open("s2", {parse_filter("{\"kinds\":[1,13,1059]}").value()}).ok());
  const std::int64_t now = 1700000000;
  for (const char* relay : {"wss://a", "wss://b"}) {
    FUZZ_CHECK(subs.req_for("s1", relay, now).ok());
    FUZZ_CHECK(subs.req_for("s2", relay, now).ok());
  }
  std::set<std::pair<std::string, std::string>> delivered;
  bool s2_closed = false;
  int ops = 0;
  while (!in.empty() && ops++ < 64) {
    const std::size_t nl = in.find('\n');
    std::string_view line = in.substr(0, nl);
    in.remove_prefix(nl == std::string_view::npos ? in.size() : nl + 1);
    if (line.empty()) continue;
    const char op = line[0];
    line.remove_prefix(1);
    switch (op) {
      case 'D': subs.relay_disconnected("wss://a"); continue;
      case 'R': (void)subs.resubscribe("wss://a", now + ops); continue;
      case 'Q': (void)subs.req_for("s1", "wss://b", now + ops); continue;
      case 'C': {
        auto c = subs.close("s2");
        if (c.ok()) s2_closed = true;
        continue;
      }
      case 'F':
      case 'G': break;
      default: continue;
    }
    outcome o = subs.feed(op == 'F' ? "wss://a" : "wss://b", line);
    if (auto* d = std::get_if<deliver>(&o)) {
      FUZZ_CHECK(verify(d->ev).ok());
      FUZZ_CHECK(!(s2_closed && d->sub_id == "s2"));
      const auto* filters = subs.filters(d->sub_id);
      FUZZ_CHECK(filters != nullptr);
      bool any = false;
      for (const auto& f : *filters) any = any || matches(f, d->ev);
      FUZZ_CHECK(any);
      FUZZ_CHECK(delivered.insert({d->sub_id, d->ev.id}).second);
    }
  }
  (void)subs.seen_count("s1");
  (void)subs.resume_since("s1", "wss://a", now + 100);
  return 0;
}
