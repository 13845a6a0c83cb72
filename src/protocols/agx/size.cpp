#include "protocols/agx/size.hpp"

#include <string>

#include "nips/nip44.hpp"
#include "nips/nip59.hpp"
#include "protocols/agx/constants.hpp"

namespace nostr::agx {
namespace {

// Every byte of a seal but its content: maximal id/pubkey/sig, a 10-digit created_at, kind 13 and
// no tags. Measured from a real serialization, not counted by hand.
std::size_t seal_envelope_bytes() {
  event e;
  e.id = std::string(64, '0');
  e.pubkey = std::string(64, '0');
  e.sig = std::string(128, '0');
  e.created_at = 9999999999;
  e.kind = 30000;  // wider than 13: an over-estimate is the safe direction
  return to_json(e).size();
}

// Every byte of a wrap but its content, with p, a maximal expiration and a maximal nonce tag.
std::size_t wrap_envelope_bytes() {
  event e;
  e.id = std::string(64, '0');
  e.pubkey = std::string(64, '0');
  e.sig = std::string(128, '0');
  e.created_at = 9999999999;
  e.kind = 30000;
  e.tags = {{"p", std::string(64, '0')}, {"expiration", "9999999999"}, {"nonce", "18446744073709551615", "256"}};
  return to_json(e).size();
}

}  // namespace

std::size_t nip44_payload_bytes(std::size_t n) {
  auto padded = nip44::calc_padded_len(n == 0 ? 1 : n);
  std::size_t prefix = n >= 65536 ? 6 : 2;
  std::size_t binary = 1 + 32 + prefix + (padded ? *padded : n) + 32;
  return 4 * ((binary + 2) / 3);
}

std::size_t worst_case_wrap_bytes(std::size_t rumor_bytes) {
  std::size_t seal = seal_envelope_bytes() + nip44_payload_bytes(rumor_bytes);
  return wrap_envelope_bytes() + nip44_payload_bytes(seal);
}

std::size_t derive_interop_max_rumor_bytes() {
  // Padding makes the answer a multiple of a chunk, so walk 32-byte steps (the smallest chunk).
  std::size_t best = 0;
  for (std::size_t n = 32; n <= kNip44MaxPlaintextBytes; n += 32) {
    if (worst_case_wrap_bytes(n) > kInteropMaxEventBytes) break;
    best = n;
  }
  return best;
}

std::size_t rumor_bytes(const event& rumor) { return nip59::rumor_to_json(rumor).size(); }

bool fits_interop(const event& rumor) { return rumor_bytes(rumor) <= kInteropMaxRumorBytes; }

}  // namespace nostr::agx
