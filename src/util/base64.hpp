// Base64 with the standard alphabet and required padding (RFC 4648 section 4), as NIP-44 uses it.
// Decoding is strict: no whitespace, no URL-safe characters, no missing or misplaced '=', and the
// unused bits before the padding must be zero, so every byte string has exactly one encoding.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::base64 {

// Encoded length of n bytes: 4 * ceil(n / 3).
constexpr std::size_t encoded_len(std::size_t n) { return (n + 2) / 3 * 4; }

// Writes encoded_len(n) characters to out (no terminator). out must not overlap data.
void encode_to(const std::uint8_t* data, std::size_t n, char* out);

std::string encode(const std::uint8_t* data, std::size_t n);

// Decoded length of a well-formed encoding (its padding counted), or 0 when in.size() is not a
// multiple of 4. Does not validate the characters.
std::size_t decoded_len(std::string_view in);

// Decodes `in` into out (room for decoded_len(in) bytes) and returns the byte count. out may be
// the same memory as in.data(): each 4-character group is read before its 3 bytes are written.
// Fails with errc::invalid_base64 (and leaves out partly written) on any non-canonical input.
result<std::size_t> decode_to(std::string_view in, std::uint8_t* out);

result<bytes> decode(std::string_view in);

}  // namespace nostr::base64
