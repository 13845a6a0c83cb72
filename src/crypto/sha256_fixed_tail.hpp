// SHA-256 of many same-length messages that differ only in a short run of bytes, for
// proof-of-work searches (NIP-13 rewrites the nonce digits and hashes again, thousands to millions
// of times). What does not depend on the varying bytes is computed once, in reset(): the blocks
// before them (the midstate), the padding, the rounds of their block that read only constant words,
// and the message schedule (plus round constants) of every block after them. Nothing here is
// secret, so unlike libsodium's streaming API nothing is wiped per hash.
// Written from FIPS 180-4, sections 5.1.1 (padding), 6.2.2 (compression).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/bytes.hpp"

namespace nostr::crypto {

class sha256_fixed_tail {
 public:
  // Takes the whole message and the byte range [var_begin, var_end) that later hashes may change
  // (var_begin < var_end <= len).
  void reset(const std::uint8_t* msg, std::size_t len, std::size_t var_begin, std::size_t var_end);

  // The varying bytes (var_end - var_begin of them), to rewrite in place between hashes.
  std::uint8_t* var() { return varying_.data() + var_off_; }

  // SHA-256 of the message with the current varying bytes.
  bytes32 hash() const;

 private:
  using state = std::array<std::uint32_t, 8>;
  state mid_{};     // after the blocks before the first varying block
  state early_{};   // after the first `skip_` rounds of that block
  std::size_t skip_ = 0;
  std::vector<std::uint8_t> varying_;  // the blocks holding varying bytes, 64 bytes each
  std::size_t var_off_ = 0;  // an offset, not a pointer: copies stay valid
  std::vector<std::uint32_t> fixed_wk_;  // W[t] + K[t] of each later block, 64 words per block
};

}  // namespace nostr::crypto
