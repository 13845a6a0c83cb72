#include "util/base64.hpp"

#include <array>

namespace nostr::base64 {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::uint8_t kInvalid = 0x80;  // any table entry with this bit set is not a base64 digit

constexpr std::array<std::uint8_t, 256> make_table() {
  std::array<std::uint8_t, 256> t{};
  for (auto& v : t) v = kInvalid;
  for (std::uint8_t i = 0; i < 64; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = i;
  return t;
}
constexpr std::array<std::uint8_t, 256> kTable = make_table();

inline std::uint8_t digit(char c) { return kTable[static_cast<unsigned char>(c)]; }

error bad(const char* why) { return make_error(errc::invalid_base64, why); }

}  // namespace

void encode_to(const std::uint8_t* data, std::size_t n, char* out) {
  std::size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    std::uint32_t v = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) | data[i + 2];
    out[0] = kAlphabet[v >> 18];
    out[1] = kAlphabet[(v >> 12) & 63];
    out[2] = kAlphabet[(v >> 6) & 63];
    out[3] = kAlphabet[v & 63];
    out += 4;
  }
  if (std::size_t rest = n - i; rest > 0) {
    std::uint32_t v = std::uint32_t{data[i]} << 16;
    if (rest == 2) v |= std::uint32_t{data[i + 1]} << 8;
    out[0] = kAlphabet[v >> 18];
    out[1] = kAlphabet[(v >> 12) & 63];
    out[2] = rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out[3] = '=';
  }
}

std::string encode(const std::uint8_t* data, std::size_t n) {
  std::string s(encoded_len(n), '\0');
  encode_to(data, n, s.data());
  return s;
}

std::size_t decoded_len(std::string_view in) {
  if (in.size() % 4 != 0 || in.empty()) return 0;
  std::size_t n = in.size() / 4 * 3;
  if (in[in.size() - 1] == '=') --n;
  if (in[in.size() - 2] == '=') --n;
  return n;
}

result<std::size_t> decode_to(std::string_view in, std::uint8_t* out) {
  if (in.size() % 4 != 0) return bad("length is not a multiple of 4");
  if (in.empty()) return std::size_t{0};
  const char* p = in.data();
  const std::size_t groups = in.size() / 4;
  std::size_t o = 0;
  // Every group but the last is four digits. All four are read before the three bytes are
  // written, so decoding in place (out == in) never overwrites unread input.
  for (std::size_t g = 0; g + 1 < groups; ++g, p += 4) {
    std::uint8_t a = digit(p[0]), b = digit(p[1]), c = digit(p[2]), d = digit(p[3]);
    if ((a | b | c | d) & kInvalid) return bad("character outside the base64 alphabet");
    std::uint32_t v = (std::uint32_t{a} << 18) | (std::uint32_t{b} << 12) | (std::uint32_t{c} << 6) | d;
    out[o] = static_cast<std::uint8_t>(v >> 16);
    out[o + 1] = static_cast<std::uint8_t>(v >> 8);
    out[o + 2] = static_cast<std::uint8_t>(v);
    o += 3;
  }
  // The last group may end in "=" or "==" (RFC 4648 section 4); the bits the padding hides must
  // be zero (section 3.5), or two strings would decode to the same bytes.
  std::uint8_t a = digit(p[0]), b = digit(p[1]);
  if ((a | b) & kInvalid) return bad("character outside the base64 alphabet");
  std::uint32_t v = (std::uint32_t{a} << 18) | (std::uint32_t{b} << 12);
  if (p[2] == '=') {
    if (p[3] != '=') return bad("misplaced padding");
    if (b & 0x0f) return bad("non-zero bits before the padding");
    out[o] = static_cast<std::uint8_t>(v >> 16);
    return o + 1;
  }
  std::uint8_t c = digit(p[2]);
  if (c & kInvalid) return bad("character outside the base64 alphabet");
  v |= std::uint32_t{c} << 6;
  if (p[3] == '=') {
    if (c & 0x03) return bad("non-zero bits before the padding");
    out[o] = static_cast<std::uint8_t>(v >> 16);
    out[o + 1] = static_cast<std::uint8_t>(v >> 8);
    return o + 2;
  }
  std::uint8_t d = digit(p[3]);
  if (d & kInvalid) return bad("character outside the base64 alphabet");
  v |= d;
  out[o] = static_cast<std::uint8_t>(v >> 16);
  out[o + 1] = static_cast<std::uint8_t>(v >> 8);
  out[o + 2] = static_cast<std::uint8_t>(v);
  return o + 3;
}

result<bytes> decode(std::string_view in) {
  bytes out(in.size() / 4 * 3);
  auto n = decode_to(in, out.data());
  if (!n) return n.err();
  out.resize(*n);
  return out;
}

}  // namespace nostr::base64
