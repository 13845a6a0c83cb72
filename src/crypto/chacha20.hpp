// ChaCha20 (RFC 8439, 96-bit nonce) over libsodium.
#pragma once
#include <cstddef>
#include <cstdint>

namespace nostr::crypto {

// out = in XOR keystream(key32, nonce12, starting at block `counter`). in and out may alias.
void chacha20_xor(std::uint8_t* out, const std::uint8_t* in, std::size_t n, const std::uint8_t* nonce12,
                  std::uint32_t counter, const std::uint8_t* key32);

}  // namespace nostr::crypto
