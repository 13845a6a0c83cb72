// NIP-05 for AGX Agent Cards: the identifier a peer's card claims, and the nostr.json body a
// domain answers with (both attacker-controlled). Mode 0: the input is an identifier; an accepted
// one has a URL that parses back to the same address. Mode 1: the input is a response body, read
// for a few names; a pubkey it yields verifies.
#include "protocols/agx/nip05.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::agx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string_view in = fuzz::text(data + 1, size - 1);
  if ((data[0] & 1) == 0) {
    auto a = parse_nip05(in);
    if (!a.ok()) return 0;
    const std::string url = nip05_url(*a);
    FUZZ_CHECK(url.rfind("https://", 0) == 0);
    auto again = parse_nip05(a->name + "@" + a->domain);
    FUZZ_CHECK(again.ok() && again->name == a->name && again->domain == a->domain);
    return 0;
  }
  for (const char* name : {"_", "agent", "bob"}) {
    auto pk = nip05_pubkey(in, name);
    if (!pk.ok()) continue;
    FUZZ_CHECK(pk->size() == 64);
    auto addr = parse_nip05(std::string(name) + "@example.com");
    FUZZ_CHECK(addr.ok());
    FUZZ_CHECK(nip05_verifies(in, *addr, *pk));
  }
  return 0;
}
