#include "crypto/sha256_fixed_tail.hpp"

#include <cstring>

namespace nostr::crypto {
namespace {

constexpr std::uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::array<std::uint32_t, 8> kInit = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

inline std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
inline std::uint32_t big_sigma0(std::uint32_t a) { return rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22); }
inline std::uint32_t big_sigma1(std::uint32_t e) { return rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25); }
inline std::uint32_t small_sigma0(std::uint32_t w) { return rotr(w, 7) ^ rotr(w, 18) ^ (w >> 3); }
inline std::uint32_t small_sigma1(std::uint32_t w) { return rotr(w, 17) ^ rotr(w, 19) ^ (w >> 10); }
inline std::uint32_t ch(std::uint32_t e, std::uint32_t f, std::uint32_t g) { return g ^ (e & (f ^ g)); }
inline std::uint32_t maj(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return (a & b) | (c & (a | b)); }

inline std::uint32_t load_be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

// W[t] + K[t] for t = 0..63 of one 64-byte block.
void schedule(const std::uint8_t* block, std::uint32_t* wk) {
  std::uint32_t w[64];
  for (int t = 0; t < 16; ++t) w[t] = load_be32(block + 4 * t);
  for (int t = 16; t < 64; ++t) w[t] = small_sigma1(w[t - 2]) + w[t - 7] + small_sigma0(w[t - 15]) + w[t - 16];
  for (int t = 0; t < 64; ++t) wk[t] = w[t] + K[t];
}

// One round, with the roles of the eight working variables passed in rotated order so that eight
// consecutive calls need no register shuffling.
#define NOSTR_SHA256_ROUND(a, b, c, d, e, f, g, h, wk)                 \
  do {                                                                 \
    std::uint32_t t1 = (h) + big_sigma1(e) + ch((e), (f), (g)) + (wk); \
    std::uint32_t t2 = big_sigma0(a) + maj((a), (b), (c));             \
    (d) += t1;                                                         \
    (h) = t1 + t2;                                                     \
  } while (0)

// Rounds from..63 on working state s.
void rounds(std::array<std::uint32_t, 8>& s, const std::uint32_t* wk, int from) {
  std::uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
  int t = from;
  for (; t < 64 && t % 8 != 0; ++t) {
    std::uint32_t t1 = h + big_sigma1(e) + ch(e, f, g) + wk[t];
    std::uint32_t t2 = big_sigma0(a) + maj(a, b, c);
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  for (; t < 64; t += 8) {
    NOSTR_SHA256_ROUND(a, b, c, d, e, f, g, h, wk[t]);
    NOSTR_SHA256_ROUND(h, a, b, c, d, e, f, g, wk[t + 1]);
    NOSTR_SHA256_ROUND(g, h, a, b, c, d, e, f, wk[t + 2]);
    NOSTR_SHA256_ROUND(f, g, h, a, b, c, d, e, wk[t + 3]);
    NOSTR_SHA256_ROUND(e, f, g, h, a, b, c, d, wk[t + 4]);
    NOSTR_SHA256_ROUND(d, e, f, g, h, a, b, c, wk[t + 5]);
    NOSTR_SHA256_ROUND(c, d, e, f, g, h, a, b, wk[t + 6]);
    NOSTR_SHA256_ROUND(b, c, d, e, f, g, h, a, wk[t + 7]);
  }
  s = {a, b, c, d, e, f, g, h};
}

// Rounds 0..skip-1 only: what a block's constant leading words allow in advance.
void first_rounds(std::array<std::uint32_t, 8>& s, const std::uint32_t* wk, int skip) {
  for (int t = 0; t < skip; ++t) {
    std::uint32_t t1 = s[7] + big_sigma1(s[4]) + ch(s[4], s[5], s[6]) + wk[t];
    std::uint32_t t2 = big_sigma0(s[0]) + maj(s[0], s[1], s[2]);
    s = {t1 + t2, s[0], s[1], s[2], s[3] + t1, s[4], s[5], s[6]};
  }
}

void add_into(std::array<std::uint32_t, 8>& h, const std::array<std::uint32_t, 8>& s) {
  for (int i = 0; i < 8; ++i) h[i] += s[i];
}

}  // namespace

void sha256_fixed_tail::reset(const std::uint8_t* msg, std::size_t len, std::size_t var_begin, std::size_t var_end) {
  // Padded message: msg || 0x80 || zeros || 64-bit big-endian bit length (FIPS 180-4, 5.1.1).
  const std::size_t blocks = (len + 9 + 63) / 64;
  const std::size_t first = var_begin / 64;      // first block holding a varying byte
  const std::size_t last = (var_end - 1) / 64;   // last one
  std::vector<std::uint8_t> tail((blocks - first) * 64, 0);
  std::memcpy(tail.data(), msg + first * 64, len - first * 64);
  tail[len - first * 64] = 0x80;
  const std::uint64_t bits = static_cast<std::uint64_t>(len) * 8;
  for (int i = 0; i < 8; ++i) tail[tail.size() - 1 - i] = static_cast<std::uint8_t>(bits >> (8 * i));

  std::uint32_t wk[64];
  mid_ = kInit;
  for (std::size_t b = 0; b < first; ++b) {
    schedule(msg + 64 * b, wk);
    state s = mid_;
    rounds(s, wk, 0);
    add_into(mid_, s);
  }

  // Rounds of the first varying block before its first varying word see only constant input.
  skip_ = (var_begin % 64) / 4;
  schedule(tail.data(), wk);  // only W[0..skip_) of it is used here, and those never change
  early_ = mid_;
  first_rounds(early_, wk, static_cast<int>(skip_));

  const std::size_t nvar = last - first + 1;
  varying_.assign(tail.begin(), tail.begin() + static_cast<std::ptrdiff_t>(nvar * 64));
  var_off_ = var_begin - first * 64;
  fixed_wk_.resize((blocks - first - nvar) * 64);
  for (std::size_t b = 0; b < blocks - first - nvar; ++b) schedule(tail.data() + (nvar + b) * 64, &fixed_wk_[64 * b]);
}

bytes32 sha256_fixed_tail::hash() const {
  std::uint32_t wk[64];
  schedule(varying_.data(), wk);
  state s = early_;
  rounds(s, wk, static_cast<int>(skip_));
  state h = mid_;
  add_into(h, s);
  for (std::size_t off = 64; off < varying_.size(); off += 64) {  // varying bytes across a boundary
    schedule(varying_.data() + off, wk);
    s = h;
    rounds(s, wk, 0);
    add_into(h, s);
  }
  for (std::size_t off = 0; off < fixed_wk_.size(); off += 64) {
    s = h;
    rounds(s, &fixed_wk_[off], 0);
    add_into(h, s);
  }
  bytes32 out{};
  for (int i = 0; i < 8; ++i) {
    out[4 * i] = static_cast<std::uint8_t>(h[i] >> 24);
    out[4 * i + 1] = static_cast<std::uint8_t>(h[i] >> 16);
    out[4 * i + 2] = static_cast<std::uint8_t>(h[i] >> 8);
    out[4 * i + 3] = static_cast<std::uint8_t>(h[i]);
  }
  return out;
}

}  // namespace nostr::crypto
