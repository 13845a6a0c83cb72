#include "crypto/aead.hpp"

#include <sodium/crypto_aead_xchacha20poly1305.h>

#include "util/bytes.hpp"

namespace nostr::crypto {

void xchacha20poly1305_encrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n, const std::uint8_t* ad,
                               std::size_t ad_len, const std::uint8_t* nonce24, const std::uint8_t* key32) {
  unsigned long long written = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(out, &written, in, n, ad, ad_len, nullptr, nonce24, key32);
}

bool xchacha20poly1305_decrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n, const std::uint8_t* ad,
                               std::size_t ad_len, const std::uint8_t* nonce24, const std::uint8_t* key32) {
  if (n < kPoly1305TagLen) return false;
  unsigned long long written = 0;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(out, &written, nullptr, in, n, ad, ad_len, nonce24, key32) != 0) {
    secure_zero(out, n - kPoly1305TagLen);
    return false;
  }
  return true;
}

}  // namespace nostr::crypto
