// crypto::ecdh_xonly takes the peer point from the parsed-key cache (src/crypto/secp256k1.cpp):
// checked against the library's own path (the peer parsed as the compressed key 0x02 || x),
// for fresh peers, repeated peers (cache hits), peers that share a cache set and evict each
// other, and x values that are not on the curve or not below p, interleaved with verifications
// that use the same cache.
#include <gtest/gtest.h>

#include <secp256k1.h>
#include <secp256k1_ecdh.h>

#include <cstring>
#include <vector>

#include "crypto/hash.hpp"
#include "crypto/secp256k1.hpp"

using namespace nostr;

namespace {

int copy_x(unsigned char* out, const unsigned char* x32, const unsigned char*, void*) {
  std::memcpy(out, x32, 32);
  return 1;
}

// The library's path: 0x02 || x parsed as a compressed key, then secp256k1_ecdh.
bool reference_ecdh(const bytes32& sk, const bytes32& pub, bytes32& out) {
  static secp256k1_context* c = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
  unsigned char compressed[33];
  compressed[0] = 0x02;
  std::memcpy(compressed + 1, pub.data(), 32);
  secp256k1_pubkey point;
  if (secp256k1_ec_pubkey_parse(c, &point, compressed, sizeof compressed) != 1) return false;
  return secp256k1_ecdh(c, out.data(), &point, sk.data(), copy_x, nullptr) == 1;
}

bytes32 derive(std::uint32_t i) {
  std::uint8_t in[4] = {static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(i >> 8),
                        static_cast<std::uint8_t>(i >> 16), static_cast<std::uint8_t>(i >> 24)};
  return crypto::sha256(in, sizeof in);
}

void expect_same(const bytes32& sk, const bytes32& pub) {
  bytes32 want{};
  const bool ok = reference_ecdh(sk, pub, want);
  auto got = crypto::ecdh_xonly(sk, pub);
  ASSERT_EQ(got.ok(), ok);
  if (ok) ASSERT_EQ(*got, want);
  else ASSERT_EQ(got.code(), errc::invalid_public_key);
}

}  // namespace

TEST(ecdh_cache_test, matches_the_library_for_fresh_repeated_and_evicted_peers) {
  std::vector<bytes32> peers;
  // Public keys of 40 secrets, plus 24 raw x values (about half are on the curve).
  for (std::uint32_t i = 0; i < 40; ++i) {
    auto pub = crypto::xonly_public_key(derive(i));
    ASSERT_TRUE(pub.ok());
    peers.push_back(*pub);
  }
  for (std::uint32_t i = 0; i < 24; ++i) peers.push_back(derive(1000 + i));
  // Four keys in one cache set (same first ^ last byte): more than its two ways.
  for (std::uint32_t i = 2000, found = 0; found < 4; ++i) {
    auto pub = crypto::xonly_public_key(derive(i));
    ASSERT_TRUE(pub.ok());
    if ((((*pub)[0] ^ (*pub)[31]) & 127) == 5) {
      peers.push_back(*pub);
      ++found;
    }
  }
  // x = p (not below the field size) and x = 5 (x^3 + 7 = 132 is not a square mod p).
  bytes32 p_x{};
  std::memset(p_x.data(), 0xff, 32);
  p_x[27] = 0xfe;
  p_x[28] = 0xff;
  p_x[29] = 0xfc;
  p_x[30] = 0x2f;
  p_x[31] = 0x2f;
  peers.push_back(p_x);
  bytes32 five{};
  five[31] = 5;
  peers.push_back(five);

  for (int pass = 0; pass < 3; ++pass) {
    for (std::size_t j = 0; j < peers.size(); ++j) {
      const bytes32 sk = derive(static_cast<std::uint32_t>(500 + j + 97 * pass));
      expect_same(sk, peers[j]);
      expect_same(sk, peers[j]);  // now from the cache
      if (j % 3 == 0) {
        // a verification through the same cache in between
        auto kp = crypto::keypair::from_secret(sk);
        ASSERT_TRUE(kp.ok());
        const bytes32 msg = derive(static_cast<std::uint32_t>(j));
        const bytes64 sig = kp->sign32(msg, derive(7));
        ASSERT_TRUE(crypto::schnorr_verify32(sig, msg, kp->public_key()));
      }
    }
  }
}
