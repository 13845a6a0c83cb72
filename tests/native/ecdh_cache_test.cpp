// crypto::ecdh_xonly takes the peer point from the parsed-key cache (src/crypto/secp256k1.cpp),
// and from a peer's second use on multiplies with a cached table of its multiples
// (secp256k1_core.c, nostr_ecdh_xonly_with_table): checked against the library's own path (the
// peer parsed as the compressed key 0x02 || x, then secp256k1_ecdh and its ecmult_const), for
// fresh peers, repeated peers, peers that share a cache set and evict each other, more peers
// than there are tables, x values that are not on the curve or not below p, edge secret keys
// (small, near n, near 2^128, both wNAF skews), interleaved with verifications that use the same
// cache.
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

TEST(ecdh_cache_test, edge_secret_keys_on_the_table_path) {
  auto hex32 = [](const char* h) {
    bytes32 b{};
    for (int i = 0; i < 32; ++i) {
      auto v = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
      b[i] = static_cast<std::uint8_t>(v(h[2 * i]) << 4 | v(h[2 * i + 1]));
    }
    return b;
  };
  std::vector<bytes32> sks;
  for (std::uint8_t i = 1; i <= 20; ++i) {
    bytes32 k{};
    k[31] = i;
    sks.push_back(k);
  }
  for (const char* h : {"fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140",
                        "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd036413f",
                        "7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0",
                        "7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a1",
                        "0000000000000000000000000000000100000000000000000000000000000000",
                        "00000000000000000000000000000000ffffffffffffffffffffffffffffffff",
                        "fffffffffffffffffffffffffffffffe00000000000000000000000000000000",
                        "5555555555555555555555555555555555555555555555555555555555555555",
                        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                        "8000000000000000000000000000000000000000000000000000000000000000"})
    sks.push_back(hex32(h));
  for (int bit = 0; bit < 256; bit += 5) {
    bytes32 k{};
    k[31 - bit / 8] = static_cast<std::uint8_t>(1u << (bit % 8));
    sks.push_back(k);
  }
  for (std::uint32_t i = 0; i < 150; ++i) sks.push_back(derive(7000 + i));
  for (std::uint32_t p = 0; p < 3; ++p) {
    auto pub = crypto::xonly_public_key(derive(9000 + p));
    ASSERT_TRUE(pub.ok());
    int checked = 0;
    for (const auto& sk : sks) {
      bytes32 want{};
      ASSERT_TRUE(reference_ecdh(sk, *pub, want)) << checked;
      auto got = crypto::ecdh_xonly(sk, *pub);  // from the second call on: the table path
      ASSERT_TRUE(got.ok());
      ASSERT_EQ(*got, want);
      ++checked;
    }
    EXPECT_GT(checked, 200);
    // zero and n are refused on the table path too
    bytes32 zero{};
    EXPECT_EQ(crypto::ecdh_xonly(zero, *pub).code(), errc::invalid_secret_key);
    EXPECT_EQ(crypto::ecdh_xonly(hex32("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"), *pub).code(),
              errc::invalid_secret_key);
  }
}

TEST(ecdh_cache_test, more_peers_than_tables) {
  // 40 peers used three times each, round after round: tables are built, evicted and rebuilt.
  std::vector<bytes32> peers;
  for (std::uint32_t i = 0; i < 40; ++i) {
    auto pub = crypto::xonly_public_key(derive(11000 + i));
    ASSERT_TRUE(pub.ok());
    peers.push_back(*pub);
  }
  for (int round = 0; round < 3; ++round)
    for (std::size_t j = 0; j < peers.size(); ++j) expect_same(derive(12000 + static_cast<std::uint32_t>(j + 40 * round)), peers[j]);
}
