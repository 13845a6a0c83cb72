// Our SHA-256, HMAC-SHA256 and HKDF (src/crypto/hash.cpp on sha256_compress.c) against
// libsodium's, which is still linked (NIP-44's ChaCha20 and compare): every length across the
// block and padding boundaries, streaming in every split, HMAC keys shorter and longer than a
// block, HKDF against an HMAC chain written out from RFC 5869 and against libsodium's own HKDF
// (crypto_kdf_hkdf_sha256, new in libsodium 1.0.19), with RFC 5869's test case 1.
#include <gtest/gtest.h>

#include <sodium/crypto_auth_hmacsha256.h>
#include <sodium/crypto_hash_sha256.h>
#include <sodium/crypto_kdf_hkdf_sha256.h>

#include <vector>

#include "crypto/hash.hpp"
#include "util/hex.hpp"

using namespace nostr;

namespace {

std::vector<std::uint8_t> pattern(std::size_t n, std::uint32_t seed) {
  std::vector<std::uint8_t> v(n);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<std::uint8_t>(x >> 24);
  }
  return v;
}

// libsodium declares its pointers non-null even for empty input.
const std::uint8_t kNothing[1] = {0};
const std::uint8_t* ptr(const std::vector<std::uint8_t>& v) { return v.empty() ? kNothing : v.data(); }

bytes32 sodium_sha256(const std::vector<std::uint8_t>& m) {
  bytes32 out{};
  crypto_hash_sha256(out.data(), ptr(m), m.size());
  return out;
}

bytes32 sodium_hmac(const std::vector<std::uint8_t>& key, const std::vector<std::uint8_t>& m) {
  crypto_auth_hmacsha256_state st;
  bytes32 out{};
  crypto_auth_hmacsha256_init(&st, ptr(key), key.size());
  crypto_auth_hmacsha256_update(&st, ptr(m), m.size());
  crypto_auth_hmacsha256_final(&st, out.data());
  return out;
}

}  // namespace

TEST(sha256_test, fips_180_2_examples) {
  const std::string abc = "abc";
  EXPECT_EQ(hex::encode(crypto::sha256(reinterpret_cast<const std::uint8_t*>(abc.data()), abc.size())),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  EXPECT_EQ(hex::encode(crypto::sha256(reinterpret_cast<const std::uint8_t*>(two.data()), two.size())),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex::encode(crypto::sha256(nullptr, 0)),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  std::vector<std::uint8_t> million(1000000, 'a');
  EXPECT_EQ(hex::encode(crypto::sha256(million.data(), million.size())),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(sha256_test, one_shot_and_stream_match_libsodium_for_every_length) {
  for (std::size_t n = 0; n <= 300; ++n) {
    auto m = pattern(n, static_cast<std::uint32_t>(n));
    const bytes32 want = sodium_sha256(m);
    ASSERT_EQ(crypto::sha256(m.data(), m.size()), want) << n;
    // every split into two pieces, and byte by byte
    for (std::size_t cut = 0; cut <= n; cut += (n < 140 ? 1 : 7)) {
      crypto::sha256_stream s;
      s.update(m.data(), cut);
      s.update(m.data() + cut, n - cut);
      ASSERT_EQ(s.finish(), want) << n << " " << cut;
    }
    crypto::sha256_stream bytewise;
    for (std::size_t i = 0; i < n; ++i) bytewise.update(m.data() + i, 1);
    ASSERT_EQ(bytewise.finish(), want) << n;
  }
  for (std::size_t n : {1000u, 4095u, 4096u, 4097u, 65536u + 13u}) {
    auto m = pattern(n, 7);
    ASSERT_EQ(crypto::sha256(m.data(), m.size()), sodium_sha256(m)) << n;
    crypto::sha256_stream s;
    for (std::size_t off = 0; off < n; off += 100) s.update(m.data() + off, std::min<std::size_t>(100, n - off));
    ASSERT_EQ(s.finish(), sodium_sha256(m)) << n;
  }
}

TEST(sha256_test, hmac_matches_libsodium_for_key_and_message_lengths) {
  for (std::size_t klen : {0u, 1u, 31u, 32u, 33u, 63u, 64u, 65u, 100u, 130u}) {
    auto key = pattern(klen, static_cast<std::uint32_t>(1000 + klen));
    for (std::size_t n = 0; n <= 200; ++n) {
      auto m = pattern(n, static_cast<std::uint32_t>(n + 77));
      const bytes32 want = sodium_hmac(key, m);
      ASSERT_EQ(crypto::hmac_sha256(key.data(), key.size(), m.data(), m.size()), want) << klen << " " << n;
      if (klen == 32) {
        bytes32 k{};
        std::copy(key.begin(), key.end(), k.begin());
        for (std::size_t cut : {std::size_t{0}, n / 3, n / 2, n}) {
          ASSERT_EQ(crypto::hmac_sha256_2(k, m.data(), cut, m.data() + cut, n - cut), want) << n << " " << cut;
        }
      }
    }
  }
  // RFC 4231 test case 2
  const std::string key = "Jefe", data = "what do ya want for nothing?";
  EXPECT_EQ(hex::encode(crypto::hmac_sha256(reinterpret_cast<const std::uint8_t*>(key.data()), key.size(),
                                            reinterpret_cast<const std::uint8_t*>(data.data()), data.size())),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(sha256_test, hkdf_expand_is_the_rfc5869_hmac_chain) {
  bytes32 prk{};
  auto p = pattern(32, 5);
  std::copy(p.begin(), p.end(), prk.begin());
  for (std::size_t info_len : {0u, 1u, 32u, 60u, 100u}) {
    auto info = pattern(info_len, static_cast<std::uint32_t>(info_len + 3));
    for (std::size_t out_len : {1u, 32u, 33u, 76u, 200u}) {
      std::vector<std::uint8_t> got(out_len);
      crypto::hkdf_expand(prk, info.data(), info.size(), got.data(), got.size());
      // T(i) = HMAC(prk, T(i-1) || info || i)
      std::vector<std::uint8_t> want, t;
      for (std::uint8_t i = 1; want.size() < out_len; ++i) {
        std::vector<std::uint8_t> msg = t;
        msg.insert(msg.end(), info.begin(), info.end());
        msg.push_back(i);
        bytes32 ti = sodium_hmac(std::vector<std::uint8_t>(prk.begin(), prk.end()), msg);
        t.assign(ti.begin(), ti.end());
        want.insert(want.end(), t.begin(), t.end());
      }
      want.resize(out_len);
      ASSERT_EQ(got, want) << info_len << " " << out_len;
    }
  }
}

TEST(sha256_test, hkdf_matches_libsodium_hkdf_and_rfc5869_case_1) {
  // RFC 5869 A.1: IKM = 22 x 0x0b, salt = 00..0c, info = f0..f9, L = 42.
  std::vector<std::uint8_t> ikm(22, 0x0b), salt, info;
  for (std::uint8_t i = 0; i <= 0x0c; ++i) salt.push_back(i);
  for (std::uint8_t i = 0xf0; i <= 0xf9; ++i) info.push_back(i);
  const bytes32 prk = crypto::hkdf_extract(salt.data(), salt.size(), ikm.data(), ikm.size());
  EXPECT_EQ(hex::encode(prk), "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
  std::vector<std::uint8_t> okm(42);
  crypto::hkdf_expand(prk, info.data(), info.size(), okm.data(), okm.size());
  EXPECT_EQ(hex::encode(okm.data(), okm.size()),
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");

  // Every salt, key and output length around the block and hash sizes, against libsodium's HKDF
  // (NIP-44's own use: salt "nip44-v2", info = the nonce, L = 76).
  for (std::size_t salt_len : {0u, 8u, 32u, 64u, 65u, 100u}) {
    for (std::size_t ikm_len : {0u, 1u, 32u, 64u, 65u}) {
      auto s = pattern(salt_len, static_cast<std::uint32_t>(salt_len + 11));
      auto k = pattern(ikm_len, static_cast<std::uint32_t>(ikm_len + 17));
      bytes32 want_prk{};
      ASSERT_EQ(crypto_kdf_hkdf_sha256_extract(want_prk.data(), ptr(s), s.size(), ptr(k), k.size()), 0);
      const bytes32 got_prk = crypto::hkdf_extract(s.data(), s.size(), k.data(), k.size());
      ASSERT_EQ(got_prk, want_prk) << salt_len << " " << ikm_len;
      for (std::size_t out_len : {1u, 31u, 32u, 33u, 76u, 255u * 32u}) {
        auto ctx = pattern(out_len % 40, static_cast<std::uint32_t>(out_len));
        std::vector<std::uint8_t> want(out_len), got(out_len);
        ASSERT_EQ(crypto_kdf_hkdf_sha256_expand(want.data(), want.size(), reinterpret_cast<const char*>(ptr(ctx)),
                                                ctx.size(), want_prk.data()),
                  0);
        crypto::hkdf_expand(got_prk, ctx.data(), ctx.size(), got.data(), got.size());
        ASSERT_EQ(got, want) << salt_len << " " << ikm_len << " " << out_len;
      }
    }
  }
}
