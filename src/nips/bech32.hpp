// Bech32 (BIP-173), the text encoding NIP-19 builds on. Only the original bech32 checksum
// (constant 1), not bech32m: NIP-19 entities use bech32.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::bech32 {

// BIP-173 caps strings at 90 characters; NIP-19's TLV entities (nprofile with relays, naddr) are
// longer, so like nostr-tools we allow up to 5000.
constexpr std::size_t kMaxLength = 5000;

struct decoded {
  std::string hrp;  // human-readable part, lowercase
  bytes data;       // the payload regrouped from 5-bit words into bytes
};

// hrp || '1' || data as 5-bit words || 6-character checksum, all lowercase.
// Errors: BECH32_PREFIX (hrp empty or with characters outside '!'..'~' or uppercase),
// BECH32_LENGTH (the result would exceed kMaxLength).
result<std::string> encode(std::string_view hrp, const std::uint8_t* data, std::size_t n);
inline result<std::string> encode(std::string_view hrp, const bytes& data) {
  return encode(hrp, data.data(), data.size());
}

// Decodes a lowercase or uppercase (never mixed) bech32 string.
// Errors: BECH32_LENGTH (longer than kMaxLength), BECH32_INVALID (too short, bad or mixed-case
// characters, no separator, empty hrp, checksum too short, non-zero or excess padding bits),
// BECH32_CHECKSUM (checksum does not match).
result<decoded> decode(std::string_view s);

}  // namespace nostr::bech32
