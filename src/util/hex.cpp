#include "util/hex.hpp"

#include <cstring>

namespace nostr::hex {
namespace {

constexpr char kDigits[] = "0123456789abcdef";

int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void encode_to(const std::uint8_t* data, std::size_t n, char* out) {
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[data[i] >> 4];
    out[2 * i + 1] = kDigits[data[i] & 15];
  }
}

std::string encode(const std::uint8_t* data, std::size_t n) {
  std::string s(2 * n, '\0');
  encode_to(data, n, s.data());
  return s;
}

bool decode_to(std::string_view in, std::uint8_t* out, std::size_t out_len) {
  if (in.size() != 2 * out_len) return false;
  for (std::size_t i = 0; i < out_len; ++i) {
    int hi = nibble(in[2 * i]);
    int lo = nibble(in[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      std::memset(out, 0, out_len);
      return false;
    }
    out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return true;
}

result<bytes> decode(std::string_view in) {
  if (in.size() % 2 != 0) return make_error(errc::invalid_hex, "odd number of hex characters");
  bytes out(in.size() / 2);
  if (!decode_to(in, out.data(), out.size())) return make_error(errc::invalid_hex, "non-hex character");
  return out;
}

template <std::size_t N>
static result<std::array<std::uint8_t, N>> decode_fixed(std::string_view in) {
  std::array<std::uint8_t, N> out{};
  if (in.size() != 2 * N)
    return make_error(errc::invalid_length, "expected " + std::to_string(2 * N) + " hex characters, got " +
                                                std::to_string(in.size()));
  if (!decode_to(in, out.data(), N)) return make_error(errc::invalid_hex, "non-hex character");
  return out;
}

result<bytes32> decode32(std::string_view in) { return decode_fixed<32>(in); }
result<bytes64> decode64(std::string_view in) { return decode_fixed<64>(in); }

bool is_lower_hex(std::string_view in, std::size_t n) {
  if (in.size() != 2 * n) return false;
  for (char c : in)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace nostr::hex
