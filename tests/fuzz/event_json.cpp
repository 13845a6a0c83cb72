// NIP-01 event JSON from the network: parse_event (DOM) and read_event (the fast reader) must
// agree on every input (same verdict, same code); an accepted event must survive
// parse -> to_json -> parse unchanged; the shape/id/signature checks must not crash on it.
#include "event/event.hpp"
#include "event/event_reader.hpp"
#include "fuzz_support.hpp"

using namespace nostr;

static bool same_event(const event& a, const event& b) {
  return a.id == b.id && a.pubkey == b.pubkey && a.created_at == b.created_at && a.kind == b.kind &&
         a.tags == b.tags && a.content == b.content && a.sig == b.sig;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in = fuzz::text(data, size);
  auto dom = parse_event(in);
  auto fast = read_event(in);
  FUZZ_CHECK(dom.ok() == fast.ok());
  FUZZ_CHECK(dom.code() == fast.code());
  auto unsigned_ev = read_event(in, false);
  if (fast.ok()) FUZZ_CHECK(unsigned_ev.ok());
  if (!dom.ok()) return 0;
  FUZZ_CHECK(same_event(*dom, *fast));

  const std::string out = to_json(*dom);
  auto again = parse_event(out);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(same_event(*dom, *again));
  FUZZ_CHECK(to_json(*again) == out);

  (void)classify_kind(dom->kind);
  if (validate_shape(*dom).ok()) {
    (void)compute_id_hex(*dom);
    (void)verify(*dom);
  }
  return 0;
}
