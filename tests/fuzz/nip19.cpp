// NIP-19 bech32 entities from the network (links, profiles, QR codes): bech32 is canonical, so an
// accepted string re-encodes to its own lowercase form; an accepted entity encodes, and that
// encoding decodes and encodes again to the same string (unknown TLVs are dropped on the way).
#include <algorithm>
#include <cctype>
#include "nips/bech32.hpp"
#include "nips/nip19.hpp"
#include "fuzz_support.hpp"

using namespace nostr;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in = fuzz::text(data, size);
  auto b = bech32::decode(in);
  if (b.ok()) {
    auto re = bech32::encode(b->hrp, b->data);
    FUZZ_CHECK(re.ok());
    std::string lower(in);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    FUZZ_CHECK(*re == lower);
  }
  auto e = nip19::decode(in);
  if (!e.ok()) return 0;
  FUZZ_CHECK(b.ok());
  auto out = nip19::encode(*e);
  FUZZ_CHECK(out.ok());  // unknown TLVs only shrink it
  auto again = nip19::decode(*out);
  FUZZ_CHECK(again.ok());
  auto out2 = nip19::encode(*again);
  FUZZ_CHECK(out2.ok() && *out2 == *out);
  FUZZ_CHECK(std::string_view(nip19::prefix_of(*e)) == nip19::prefix_of(*again));
  return 0;
}
