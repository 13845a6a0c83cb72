// NIP-98 Authorization headers and NIP-04 contents from the network (any HTTP client, any DM): a
// token that decodes re-encodes to a token of the same event; a NIP-04 content that parses is
// canonical, so it formats back to itself.
#include "nips/nip04.hpp"
#include "nips/nip98.hpp"
#include "fuzz_support.hpp"

using namespace nostr;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in = fuzz::text(data, size);
  auto e = nip98::decode_token(in);
  if (e) {
    auto again = nip98::decode_token(nip98::encode_token(*e, true));
    FUZZ_CHECK(again.ok() && to_json(*again) == to_json(*e));
    (void)nip98::validate(*e, {"https://x.example.com/", "GET", std::nullopt}, 1700000000);
  }
  auto p = nip04::parse_payload(in);
  if (p) {
    auto back = nip04::format_payload(p->ciphertext.data(), p->ciphertext.size(), p->iv);
    FUZZ_CHECK(back.ok() && *back == in);
  }
  return 0;
}
