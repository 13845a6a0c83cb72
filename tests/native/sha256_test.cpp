// Our SHA-256, HMAC-SHA256 and HKDF (src/crypto/hash.cpp on sha256_compress.c) against
// libsodium's, which is still linked (NIP-44's ChaCha20 and compare): every length across the
// block and padding boundaries, streaming in every split, HMAC keys shorter and longer than a
// block, HKDF against an HMAC chain written out from RFC 5869.
#include <gtest/gtest.h>

#include <sodium/crypto_auth_hmacsha256.h>
#include <sodium/crypto_hash_sha256.h>

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
