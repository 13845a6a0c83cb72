// The client's subscription machine fed by relay frames (after the codec): a script of lines,
// each an operation: F<frame> / G<frame> feed relay A / B, D disconnects A, R resubscribes A,
// C closes subscription s2, Q sends s1's REQ to B again. Invariants: a delivered event verifies,
// matches its subscription's filters and is delivered once per subscription; nothing is delivered
// for a closed subscription. A twin machine gets the same script with each run of consecutive F
// lines fed as one batch (feed_batch: signatures checked together): its outcomes must be the same.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "event/filter.hpp"
#include "relay/subscriptions.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::relay;

namespace {

// What must agree between feed and feed_batch: the outcome's kind, and the delivered event or the
// drop's reason and code.
std::string summary(const outcome& o) {
  std::string s(1, static_cast<char>('0' + o.index()));
  if (auto* d = std::get_if<deliver>(&o)) s += d->sub_id + "/" + d->ev.id;
  if (auto* x = std::get_if<dropped>(&o)) s += std::string(drop_reason_name(x->reason)) + "/" + errc_name(x->err.code);
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in = fuzz::text(data, size);
  subscriptions subs, twin;
  const std::int64_t now = 1700000000;
  for (subscriptions* m : {&subs, &twin}) {
    FUZZ_CHECK(m->open("s1", {parse_filter("{}").value()}).ok());
    FUZZ_CHECK(m->open("s2", {parse_filter("{\"kinds\":[1,13,1059]}").value()}).ok());
    for (const char* relay : {"wss://a", "wss://b"}) {
      FUZZ_CHECK(m->req_for("s1", relay, now).ok());
      FUZZ_CHECK(m->req_for("s2", relay, now).ok());
    }
  }
  std::vector<std::string_view> batch;  // F lines not yet fed to the twin
  std::vector<std::string> expected;    // their outcomes from subs
  auto flush = [&] {
    std::vector<outcome> got = twin.feed_batch("wss://a", batch);
    FUZZ_CHECK(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) FUZZ_CHECK(summary(got[i]) == expected[i]);
    batch.clear();
    expected.clear();
  };
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
    if (op != 'F') flush();
    switch (op) {
      case 'D': subs.relay_disconnected("wss://a"); twin.relay_disconnected("wss://a"); continue;
      case 'R': (void)subs.resubscribe("wss://a", now + ops); (void)twin.resubscribe("wss://a", now + ops); continue;
      case 'Q': (void)subs.req_for("s1", "wss://b", now + ops); (void)twin.req_for("s1", "wss://b", now + ops); continue;
      case 'C': {
        auto c = subs.close("s2");
        (void)twin.close("s2");
        if (c.ok()) s2_closed = true;
        continue;
      }
      case 'F':
      case 'G': break;
      default: continue;
    }
    outcome o = subs.feed(op == 'F' ? "wss://a" : "wss://b", line);
    if (op == 'F') {
      batch.push_back(line);
      expected.push_back(summary(o));
    } else {
      FUZZ_CHECK(summary(twin.feed("wss://b", line)) == summary(o));
    }
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
  flush();
  FUZZ_CHECK(subs.seen_count("s1") == twin.seen_count("s1"));
  (void)subs.resume_since("s1", "wss://a", now + 100);
  return 0;
}
