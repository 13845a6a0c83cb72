#include "protocols/agx/nip05.hpp"

#include "util/hex.hpp"

namespace nostr::agx {

result<nip05_address> parse_nip05(std::string_view id) {
  auto at = id.find('@');
  if (at == std::string_view::npos || at == 0)
    return make_error(errc::agx_nip05_invalid, "a NIP-05 identifier is name@domain");
  auto a = nip05::parse(id);
  if (!a) return make_error(errc::agx_nip05_invalid, a.err().detail);
  return a;
}

result<std::string> nip05_pubkey(std::string_view body, std::string_view name) {
  auto p = nip05::read_pubkey(body, name);
  if (!p) return make_error(errc::agx_nip05_response_invalid, p.err().detail);
  return p;
}

bool nip05_verifies(std::string_view body, const nip05_address& a, std::string_view pubkey_hex) {
  auto pk = nip05_pubkey(body, a.name);
  bytes32 want{};
  if (!pk || !hex::decode_to(pubkey_hex, want.data(), 32)) return false;
  return *pk == hex::encode(want);
}

}  // namespace nostr::agx
