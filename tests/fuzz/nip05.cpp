// NIP-05 from the network: identifiers (profiles, cards) and nostr.json bodies (any server). An
// accepted identifier names a public-looking host and an https URL; an accepted body gives a
// lowercase hex key and only ws(s) relay hints.
#include "nips/nip05.hpp"
#include "fuzz_support.hpp"

using namespace nostr;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view in = fuzz::text(data + 1, size - 1);
  if (data[0] & 1) {
    auto a = nip05::parse(in);
    if (!a) return 0;
    FUZZ_CHECK(!a->name.empty() && nip05::is_public_domain(a->domain));
    std::string url = nip05::url(*a);
    FUZZ_CHECK(url.rfind("https://" + a->domain + "/.well-known/nostr.json?name=", 0) == 0);
    auto again = nip05::parse(a->name + "@" + a->domain);
    FUZZ_CHECK(again.ok() && again->domain == a->domain && again->name == a->name);
  } else {
    auto p = nip05::read_response(in, "bob");
    if (p) {
      FUZZ_CHECK(nostr::hex::is_lower_hex(p->pubkey, 32));
      for (const auto& r : p->relays) FUZZ_CHECK(r.size() > 5 && (r[0] == 'w' || r[0] == 'W'));
    }
    auto names = nip05::read_names(in);
    if (names)
      for (const auto& [name, pk] : *names) FUZZ_CHECK(nostr::hex::is_lower_hex(pk, 32));
  }
  return 0;
}
