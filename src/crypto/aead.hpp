// XChaCha20-Poly1305 (the IETF construction with a 192-bit nonce: HChaCha20 subkey, then
// ChaCha20-Poly1305 as in RFC 8439) over libsodium.
#pragma once
#include <cstddef>
#include <cstdint>

namespace nostr::crypto {

constexpr std::size_t kXChaChaNonceLen = 24;
constexpr std::size_t kPoly1305TagLen = 16;

// out (n + 16 bytes: ciphertext, then tag) = seal(in). in and out may be the same buffer.
void xchacha20poly1305_encrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n, const std::uint8_t* ad,
                               std::size_t ad_len, const std::uint8_t* nonce24, const std::uint8_t* key32);

// out (n - 16 bytes) = open(in, n bytes with the tag). False, with out zeroed, when n < 16 or the
// tag does not verify (wrong key, or altered ciphertext or associated data).
[[nodiscard]] bool xchacha20poly1305_decrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n,
                                             const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* nonce24,
                                             const std::uint8_t* key32);

}  // namespace nostr::crypto
