// SHA-256, HMAC-SHA256 (RFC 2104) and HKDF-SHA256 (RFC 5869), on our own SHA-256 compression
// (sha256_compress.c; libsodium's portable C keeps its state in memory arrays: hashing 64 KiB
// through the wasm API is ~1.2x faster with ours). libsodium's HKDF (crypto_kdf_hkdf_sha256,
// since 1.0.19) runs on its own SHA-256; the native tests check ours against it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "util/bytes.hpp"

namespace nostr::crypto {

bytes32 sha256(const std::uint8_t* data, std::size_t n);

// Incremental SHA-256, for hashing a serialization written in pieces.
class sha256_stream {
 public:
  sha256_stream();
  void update(const std::uint8_t* data, std::size_t n);
  bytes32 finish();

 private:
  std::uint32_t s_[8];
  std::uint8_t buf_[64];
  std::uint64_t bytes_ = 0;  // total so far; bytes_ % 64 of them wait in buf_
};

bytes32 hmac_sha256(const std::uint8_t* key, std::size_t key_len, const std::uint8_t* data, std::size_t n);

// HMAC over the concatenation of two messages, without copying them together.
bytes32 hmac_sha256_2(const bytes32& key, const std::uint8_t* a, std::size_t a_len, const std::uint8_t* b,
                      std::size_t b_len);

bytes32 hkdf_extract(const std::uint8_t* salt, std::size_t salt_len, const std::uint8_t* ikm, std::size_t ikm_len);

// Writes out_len (at most 255 * 32) bytes of HKDF-Expand output.
void hkdf_expand(const bytes32& prk, const std::uint8_t* info, std::size_t info_len, std::uint8_t* out,
                 std::size_t out_len);

// Constant-time comparison of two 32-byte values.
bool equal32(const std::uint8_t* a, const std::uint8_t* b);

}  // namespace nostr::crypto
