// NIP-01 filters from the network (REQ/COUNT bodies): an accepted filter must survive
// parse -> to_json -> parse with the same JSON, and matching it against an event must not crash.
#include "event/event.hpp"
#include "event/filter.hpp"
#include "fuzz_support.hpp"

using namespace nostr;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto f = parse_filter(fuzz::text(data, size));
  if (!f.ok()) return 0;
  const std::string out = to_json(*f);
  auto again = parse_filter(out);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(to_json(*again) == out);

  static const event probe = [] {
    event e;
    e.id = std::string(64, 'a');
    e.pubkey = std::string(64, 'b');
    e.created_at = 1700000000;
    e.kind = 1;
    e.tags = {{"e", std::string(64, 'c')}, {"p", std::string(64, 'd')}, {"t", "nostr"}, {"d", ""}};
    e.content = "hello";
    e.sig = std::string(128, 'e');
    return e;
  }();
  FUZZ_CHECK(matches(*f, probe) == matches(*again, probe));
  return 0;
}
