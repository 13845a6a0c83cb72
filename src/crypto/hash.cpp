#include "crypto/hash.hpp"

#include <sodium/crypto_auth_hmacsha256.h>
#include <sodium/crypto_hash_sha256.h>
#include <sodium/crypto_verify_32.h>

#include <algorithm>

namespace nostr::crypto {

static_assert(sizeof(crypto_hash_sha256_state) <= 112, "sha256 state size");

bytes32 sha256(const std::uint8_t* data, std::size_t n) {
  bytes32 out{};
  crypto_hash_sha256(out.data(), data, n);
  return out;
}

sha256_stream::sha256_stream() { crypto_hash_sha256_init(reinterpret_cast<crypto_hash_sha256_state*>(state_)); }

void sha256_stream::update(const std::uint8_t* data, std::size_t n) {
  crypto_hash_sha256_update(reinterpret_cast<crypto_hash_sha256_state*>(state_), data, n);
}

bytes32 sha256_stream::finish() {
  bytes32 out{};
  crypto_hash_sha256_final(reinterpret_cast<crypto_hash_sha256_state*>(state_), out.data());
  return out;
}

bytes32 hmac_sha256(const std::uint8_t* key, std::size_t key_len, const std::uint8_t* data, std::size_t n) {
  crypto_auth_hmacsha256_state st;
  bytes32 out{};
  crypto_auth_hmacsha256_init(&st, key, key_len);
  crypto_auth_hmacsha256_update(&st, data, n);
  crypto_auth_hmacsha256_final(&st, out.data());
  secure_zero(&st, sizeof st);
  return out;
}

bytes32 hmac_sha256_2(const bytes32& key, const std::uint8_t* a, std::size_t a_len, const std::uint8_t* b,
                      std::size_t b_len) {
  crypto_auth_hmacsha256_state st;
  bytes32 out{};
  crypto_auth_hmacsha256_init(&st, key.data(), key.size());
  crypto_auth_hmacsha256_update(&st, a, a_len);
  crypto_auth_hmacsha256_update(&st, b, b_len);
  crypto_auth_hmacsha256_final(&st, out.data());
  secure_zero(&st, sizeof st);
  return out;
}

bytes32 hkdf_extract(const std::uint8_t* salt, std::size_t salt_len, const std::uint8_t* ikm, std::size_t ikm_len) {
  return hmac_sha256(salt, salt_len, ikm, ikm_len);
}

void hkdf_expand(const bytes32& prk, const std::uint8_t* info, std::size_t info_len, std::uint8_t* out,
                 std::size_t out_len) {
  bytes32 t{};
  std::size_t t_len = 0;
  for (std::uint8_t counter = 1; out_len > 0; ++counter) {
    crypto_auth_hmacsha256_state st;
    crypto_auth_hmacsha256_init(&st, prk.data(), prk.size());
    crypto_auth_hmacsha256_update(&st, t.data(), t_len);
    crypto_auth_hmacsha256_update(&st, info, info_len);
    crypto_auth_hmacsha256_update(&st, &counter, 1);
    crypto_auth_hmacsha256_final(&st, t.data());
    secure_zero(&st, sizeof st);
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
