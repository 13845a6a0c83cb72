// Lowercase hex, the encoding of ids, keys and signatures on the Nostr wire.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::hex {

std::string encode(const std::uint8_t* data, std::size_t n);
inline std::string encode(const bytes& b) { return encode(b.data(), b.size()); }
template <std::size_t N>
std::string encode(const std::array<std::uint8_t, N>& a) { return encode(a.data(), N); }

// Writes 2*n lowercase hex characters to out.
void encode_to(const std::uint8_t* data, std::size_t n, char* out);

// Decodes exactly out_len bytes from 2*out_len hex characters (either case accepted).
// Returns false on a wrong length or a non-hex character; out is zeroed then.
bool decode_to(std::string_view in, std::uint8_t* out, std::size_t out_len);

result<bytes> decode(std::string_view in);
result<bytes32> decode32(std::string_view in);
result<bytes64> decode64(std::string_view in);

// True when `in` is exactly 2*n lowercase hex characters (the form NIP-01 requires on the wire).
bool is_lower_hex(std::string_view in, std::size_t n);

}  // namespace nostr::hex
