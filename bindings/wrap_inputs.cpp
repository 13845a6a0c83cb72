#include "wrap_inputs.hpp"

#include <cmath>
#include <cstring>

#include "crypto/secp256k1.hpp"
#include "support.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {

std::uint64_t read_u64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

bool read_now(double now, std::int64_t& out) {
  if (!std::isfinite(now) || now < 0 || now > 9007199254740991.0 || std::floor(now) != now) return false;
  out = static_cast<std::int64_t>(now);
  return true;
}

bool read_wrap_randomness(const std::string& in, nip59::wrap_randomness& rnd) {
  if (in.size() != kWrapRandom) return false;
  const auto* p = as_bytes(in);
  std::memcpy(rnd.wrap_secret.data(), p, 32);
  std::memcpy(rnd.seal_nonce.data(), p + 32, 32);
  std::memcpy(rnd.wrap_nonce.data(), p + 64, 32);
  std::memcpy(rnd.seal_aux.data(), p + 96, 32);
  std::memcpy(rnd.wrap_aux.data(), p + 128, 32);
  rnd.seal_tweak = read_u64(p + 160);
  rnd.wrap_tweak = read_u64(p + 168);
  while (!crypto::secret_key_valid(rnd.wrap_secret)) rnd.wrap_secret = random32();
  return true;
}

bool read_pubkey(const std::string& hex_text, bytes32& out) {
  return hex::is_lower_hex(hex_text, 32) && hex::decode_to(hex_text, out.data(), 32);
}

error bad_now() { return make_error(errc::invalid_argument, "now must be a non-negative integer (seconds)"); }
error bad_random() { return make_error(errc::invalid_argument, "random bytes have the wrong length"); }
error disposed() { return make_error(errc::invalid_argument, "signer was disposed"); }

}  // namespace nostr::bindings
