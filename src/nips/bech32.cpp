#include "nips/bech32.hpp"

#include <array>

namespace nostr::bech32 {
namespace {

constexpr char kCharset[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
constexpr std::size_t kChecksumLength = 6;

// Reverse of kCharset over 7-bit ASCII: the 5-bit value of a data character, or -1.
constexpr std::array<std::int8_t, 128> make_reverse() {
  std::array<std::int8_t, 128> r{};
  for (auto& v : r) v = -1;
  for (int i = 0; i < 32; ++i) r[static_cast<unsigned char>(kCharset[i])] = static_cast<std::int8_t>(i);
  return r;
}
constexpr auto kReverse = make_reverse();

// The BCH checksum of BIP-173 ("Checksum"), fed one 5-bit value at a time.
struct polymod {
  std::uint32_t chk = 1;
  void step(std::uint32_t v) {
    static constexpr std::uint32_t kGen[5] = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
    std::uint32_t top = chk >> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (int i = 0; i < 5; ++i)
      if ((top >> i) & 1) chk ^= kGen[i];
  }
  // hrp_expand(hrp): high bits of each character, a zero, then the low bits.
  void hrp(std::string_view h) {
    for (char c : h) step(static_cast<unsigned char>(c) >> 5);
    step(0);
    for (char c : h) step(static_cast<unsigned char>(c) & 31);
  }
};

bool valid_hrp_char(char c) { return c >= 33 && c <= 126; }

}  // namespace

result<std::string> encode(std::string_view hrp, const std::uint8_t* data, std::size_t n) {
  if (hrp.empty()) return make_error(errc::bech32_prefix, "empty prefix");
  for (char c : hrp)
    if (!valid_hrp_char(c) || (c >= 'A' && c <= 'Z'))
      return make_error(errc::bech32_prefix, "prefix must be lowercase printable ASCII");
  if (n > kMaxLength || hrp.size() + 1 + (n * 8 + 4) / 5 + kChecksumLength > kMaxLength)
    return make_error(errc::bech32_length, "encoding would exceed " + std::to_string(kMaxLength) + " characters");

  std::string out;
  out.reserve(hrp.size() + 1 + (n * 8 + 4) / 5 + kChecksumLength);
  out.append(hrp);
  out.push_back('1');
  polymod pm;
  pm.hrp(hrp);
  auto put = [&](std::uint32_t word) {
    pm.step(word);
    out.push_back(kCharset[word]);
  };
  // Regroup 8-bit bytes into 5-bit words, zero-padding the last word.
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < n; ++i) {
    acc = ((acc << 8) | data[i]) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      put((acc >> bits) & 31);
    }
  }
  if (bits > 0) put((acc << (5 - bits)) & 31);
  for (std::size_t i = 0; i < kChecksumLength; ++i) pm.step(0);
  std::uint32_t chk = pm.chk ^ 1;  // bech32's constant (bech32m would use 0x2bc830a3)
  for (std::size_t i = 0; i < kChecksumLength; ++i) out.push_back(kCharset[(chk >> (5 * (5 - i))) & 31]);
  return out;
}

result<decoded> decode(std::string_view s) {
  if (s.size() > kMaxLength)
    return make_error(errc::bech32_length, "longer than " + std::to_string(kMaxLength) + " characters");
  if (s.size() < 8) return make_error(errc::bech32_invalid, "too short for bech32");

  bool lower = false, upper = false;
  std::size_t sep = std::string_view::npos;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (!valid_hrp_char(c)) return make_error(errc::bech32_invalid, "character outside printable ASCII");
    if (c >= 'a' && c <= 'z') lower = true;
    if (c >= 'A' && c <= 'Z') upper = true;
    if (c == '1') sep = i;  // the separator is the last '1': the hrp may contain '1' itself
  }
  // BIP-173: decoders accept all-lowercase or all-uppercase, never mixed case.
  if (lower && upper) return make_error(errc::bech32_invalid, "mixed case");
  if (sep == std::string_view::npos) return make_error(errc::bech32_invalid, "no separator '1'");
  if (sep == 0) return make_error(errc::bech32_invalid, "empty prefix");
  if (s.size() - sep - 1 < kChecksumLength) return make_error(errc::bech32_invalid, "checksum too short");

  decoded out;
  out.hrp.reserve(sep);
  for (std::size_t i = 0; i < sep; ++i) {
    char c = s[i];
    out.hrp.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  }
  polymod pm;
  pm.hrp(out.hrp);

  const std::size_t data_begin = sep + 1, words_end = s.size() - kChecksumLength;
  out.data.reserve((words_end - data_begin) * 5 / 8);
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = data_begin; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    int v = kReverse[static_cast<unsigned char>(c)];  // c < 127 was checked above
    if (v < 0) return make_error(errc::bech32_invalid, "character not in the bech32 alphabet");
    pm.step(static_cast<std::uint32_t>(v));
    if (i >= words_end) continue;  // checksum characters carry no payload
    acc = ((acc << 5) | static_cast<std::uint32_t>(v)) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.data.push_back(static_cast<std::uint8_t>(acc >> bits));
    }
  }
  if (pm.chk != 1) {
    secure_zero(out.data);  // the payload may be a secret key (nsec)
    return make_error(errc::bech32_checksum, "checksum mismatch");
  }
  // BIP-173 conversion without padding: at most 4 leftover bits, all zero.
  if (bits >= 5 || (acc & ((1u << bits) - 1)) != 0) {
    secure_zero(out.data);
    return make_error(errc::bech32_invalid, bits >= 5 ? "excess padding" : "non-zero padding bits");
  }
  return out;
}

}  // namespace nostr::bech32
