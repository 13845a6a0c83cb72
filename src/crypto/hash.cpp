#include "crypto/hash.hpp"

#include <sodium/crypto_verify_32.h>

#include <algorithm>
#include <cstring>

#include "crypto/sha256_compress.h"

namespace nostr::crypto {
namespace {

constexpr std::uint32_t kInit[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

void store_be32(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
}

void digest_of(const std::uint32_t s[8], std::uint8_t* out) {
  for (int i = 0; i < 8; ++i) store_be32(out + 4 * i, s[i]);
}

// The last 1 or 2 blocks: the `rest` (< 64) trailing bytes, 0x80, zeros, the 64-bit big-endian
// bit length of all `total` bytes hashed (FIPS 180-4, 5.1.1). `block` is 128 bytes of scratch.
void finish_blocks(std::uint32_t s[8], const std::uint8_t* rest, std::size_t n, std::uint64_t total,
                   std::uint8_t* block) {
  const std::size_t blocks = n < 56 ? 1 : 2;
  if (n > 0) std::memcpy(block, rest, n);  // rest may be null when n is 0
  block[n] = 0x80;
  std::memset(block + n + 1, 0, blocks * 64 - 8 - (n + 1));
  const std::uint64_t bits = total * 8;
  store_be32(block + blocks * 64 - 8, static_cast<std::uint32_t>(bits >> 32));
  store_be32(block + blocks * 64 - 4, static_cast<std::uint32_t>(bits));
  nostr_sha256_compress(s, block, blocks);
}

// HMAC-SHA256 (RFC 2104): the states after the key block xor ipad and xor opad.
struct hmac_state {
  std::uint32_t inner[8];
  std::uint32_t outer[8];
  ~hmac_state() {
    secure_zero(inner, sizeof inner);
    secure_zero(outer, sizeof outer);
  }
};

void hmac_init(hmac_state& st, const std::uint8_t* key, std::size_t key_len) {
  std::uint8_t k[64] = {};
  if (key_len > 64) {
    bytes32 kh = sha256(key, key_len);
    std::memcpy(k, kh.data(), 32);
    secure_zero(kh);
  } else {
    if (key_len > 0) std::memcpy(k, key, key_len);  // key may be null when empty
  }
  for (auto& b : k) b ^= 0x36;
  std::memcpy(st.inner, kInit, sizeof kInit);
  nostr_sha256_compress(st.inner, k, 1);
  for (auto& b : k) b ^= 0x36 ^ 0x5c;
  std::memcpy(st.outer, kInit, sizeof kInit);
  nostr_sha256_compress(st.outer, k, 1);
  secure_zero(k, sizeof k);
}

// Inner hash of the concatenation of up to three messages after the key block, then the outer.
bytes32 hmac_run(const hmac_state& st, const std::uint8_t* const* parts, const std::size_t* lens, int count) {
  std::uint32_t s[8];
  std::memcpy(s, st.inner, sizeof s);
  std::uint8_t block[128];
  std::size_t held = 0;  // bytes waiting in block
  std::uint64_t total = 64;
  for (int i = 0; i < count; ++i) {
    const std::uint8_t* p = parts[i];
    std::size_t n = lens[i];
    if (n == 0) continue;  // p may be null
    total += n;
    if (held > 0) {
      std::size_t take = std::min(n, 64 - held);
      std::memcpy(block + held, p, take);
      held += take;
      p += take;
      n -= take;
      if (held < 64) continue;
      nostr_sha256_compress(s, block, 1);
      held = 0;
    }
    if (n >= 64) {
      nostr_sha256_compress(s, p, n / 64);
      p += n & ~std::size_t{63};
      n &= 63;
    }
    std::memcpy(block, p, n);
    held = n;
  }
  std::uint8_t tail[64];
  if (held > 0) std::memcpy(tail, block, held);
  finish_blocks(s, tail, held, total, block);
  std::uint8_t inner_digest[32];
  digest_of(s, inner_digest);
  std::memcpy(s, st.outer, sizeof s);
  finish_blocks(s, inner_digest, 32, 64 + 32, block);
  bytes32 out{};
  digest_of(s, out.data());
  secure_zero(s, sizeof s);
  secure_zero(block, sizeof block);
  secure_zero(tail, sizeof tail);
  secure_zero(inner_digest, sizeof inner_digest);
  return out;
}

}  // namespace

bytes32 sha256(const std::uint8_t* data, std::size_t n) {
  std::uint32_t s[8];
  std::memcpy(s, kInit, sizeof s);
  const std::size_t full = n / 64;
  if (full > 0) nostr_sha256_compress(s, data, full);
  std::uint8_t block[128];
  finish_blocks(s, data + full * 64, n - full * 64, n, block);
  bytes32 out{};
  digest_of(s, out.data());
  return out;
}

sha256_stream::sha256_stream() { std::memcpy(s_, kInit, sizeof s_); }

void sha256_stream::update(const std::uint8_t* data, std::size_t n) {
  if (n == 0) return;  // data may be null
  std::size_t held = static_cast<std::size_t>(bytes_ % 64);
  bytes_ += n;
  if (held > 0) {
    std::size_t take = std::min(n, 64 - held);
    std::memcpy(buf_ + held, data, take);
    data += take;
    n -= take;
    if (held + take < 64) return;
    nostr_sha256_compress(s_, buf_, 1);
  }
  if (n >= 64) {
    nostr_sha256_compress(s_, data, n / 64);
    data += n & ~std::size_t{63};
    n &= 63;
  }
  std::memcpy(buf_, data, n);
}

bytes32 sha256_stream::finish() {
  std::uint8_t block[128];
  finish_blocks(s_, buf_, static_cast<std::size_t>(bytes_ % 64), bytes_, block);
  bytes32 out{};
  digest_of(s_, out.data());
  // What was hashed may be secret (secp256k1.cpp hashes secret keys): leave none of it behind.
  secure_zero(block, sizeof block);
  secure_zero(buf_, sizeof buf_);
  secure_zero(s_, sizeof s_);
  return out;
}

bytes32 hmac_sha256(const std::uint8_t* key, std::size_t key_len, const std::uint8_t* data, std::size_t n) {
  hmac_state st;
  hmac_init(st, key, key_len);
  const std::uint8_t* parts[1] = {data};
  const std::size_t lens[1] = {n};
  return hmac_run(st, parts, lens, 1);
}

bytes32 hmac_sha256_2(const bytes32& key, const std::uint8_t* a, std::size_t a_len, const std::uint8_t* b,
                      std::size_t b_len) {
  hmac_state st;
  hmac_init(st, key.data(), key.size());
  const std::uint8_t* parts[2] = {a, b};
  const std::size_t lens[2] = {a_len, b_len};
  return hmac_run(st, parts, lens, 2);
}

bytes32 hkdf_extract(const std::uint8_t* salt, std::size_t salt_len, const std::uint8_t* ikm, std::size_t ikm_len) {
  return hmac_sha256(salt, salt_len, ikm, ikm_len);
}

void hkdf_expand(const bytes32& prk, const std::uint8_t* info, std::size_t info_len, std::uint8_t* out,
                 std::size_t out_len) {
  hmac_state st;  // the key blocks once for every T(i)
  hmac_init(st, prk.data(), prk.size());
  bytes32 t{};
  std::size_t t_len = 0;
  for (std::uint8_t counter = 1; out_len > 0; ++counter) {
    const std::uint8_t* parts[3] = {t.data(), info, &counter};
    const std::size_t lens[3] = {t_len, info_len, 1};
    t = hmac_run(st, parts, lens, 3);
    t_len = 32;
    std::size_t take = std::min<std::size_t>(32, out_len);
    std::copy_n(t.begin(), take, out);
    out += take;
    out_len -= take;
  }
  secure_zero(t);
}

bool equal32(const std::uint8_t* a, const std::uint8_t* b) { return crypto_verify_32(a, b) == 0; }

}  // namespace nostr::crypto
