#include "crypto/chacha20.hpp"

#include <sodium/crypto_stream_chacha20.h>

namespace nostr::crypto {

void chacha20_xor(std::uint8_t* out, const std::uint8_t* in, std::size_t n, const std::uint8_t* nonce12,
                  std::uint32_t counter, const std::uint8_t* key32) {
  crypto_stream_chacha20_ietf_xor_ic(out, in, n, nonce12, counter, key32);
}

}  // namespace nostr::crypto
