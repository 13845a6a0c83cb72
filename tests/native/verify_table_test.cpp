// BIP-340 verification with a cached table of the key's multiples (secp256k1_core.c,
// nostr_schnorrsig_verify_with_table, used by crypto::schnorr_verify from a key's second
// verification on) against the library's secp256k1_schnorrsig_verify: valid signatures,
// signatures with any of r, s or the message changed, r and s out of range, messages of several
// lengths; and the BIP-340 vectors through crypto::schnorr_verify three times over (the later
// passes take the table path), with more keys than there are tables.
#include <gtest/gtest.h>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include <cstring>
#include <random>
#include <sstream>
#include <vector>

#include "crypto/hash.hpp"
#include "crypto/secp256k1.hpp"
#include "test_support.hpp"
#include "util/hex.hpp"

extern "C" {
std::size_t nostr_verify_table_size(void);
int nostr_verify_table_build(void* table, const secp256k1_xonly_pubkey* pubkey);
int nostr_schnorrsig_verify_with_table(const unsigned char* sig64, const unsigned char* msg, std::size_t msglen,
                                       const secp256k1_xonly_pubkey* pubkey, const void* table);
}

using namespace nostr;

namespace {

struct verify_table_fixture : ::testing::Test {
  secp256k1_context* c = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
  std::vector<unsigned char> table = std::vector<unsigned char>(nostr_verify_table_size());
  ~verify_table_fixture() override { secp256k1_context_destroy(c); }

  // Both verifications agree on this input; returns the verdict.
  bool same(const unsigned char* sig, const std::vector<unsigned char>& msg, const secp256k1_xonly_pubkey& pk) {
    const int lib = secp256k1_schnorrsig_verify(c, sig, msg.data(), msg.size(), &pk);
    const int ours = nostr_schnorrsig_verify_with_table(sig, msg.data(), msg.size(), &pk, table.data());
    EXPECT_EQ(lib, ours) << hex::encode(bytes64{}) << " " << msg.size();
    return lib == 1;
  }
};

}  // namespace

TEST_F(verify_table_fixture, agrees_with_the_library_on_valid_and_altered_signatures) {
  std::mt19937_64 rng(0xb1b340);
  (void)crypto::secret_key_valid(bytes32{1});  // the product's context builds the shared tables
  int valid = 0, invalid = 0;
  for (int k = 0; k < 40; ++k) {
    unsigned char sk[32];
    for (auto& b : sk) b = static_cast<unsigned char>(rng());
    secp256k1_keypair kp;
    if (secp256k1_keypair_create(c, &kp, sk) != 1) continue;
    secp256k1_xonly_pubkey pk;
    ASSERT_EQ(1, secp256k1_keypair_xonly_pub(c, &pk, nullptr, &kp));
    ASSERT_EQ(1, nostr_verify_table_build(table.data(), &pk));
    for (int m = 0; m < 12; ++m) {
      std::vector<unsigned char> msg(m % 3 == 0 ? 32 : (m * 7) % 90);
      for (auto& b : msg) b = static_cast<unsigned char>(rng());
      unsigned char aux[32], sig[64];
      for (auto& b : aux) b = static_cast<unsigned char>(rng());
      secp256k1_schnorrsig_extraparams extra = SECP256K1_SCHNORRSIG_EXTRAPARAMS_INIT;
      extra.ndata = aux;
      ASSERT_EQ(1, secp256k1_schnorrsig_sign_custom(c, sig, msg.data(), msg.size(), &kp, &extra));
      EXPECT_TRUE(same(sig, msg, pk));
      ++valid;
      // one bit of r, of s, of the message
      unsigned char bad[64];
      std::memcpy(bad, sig, 64);
      bad[rng() % 32] ^= static_cast<unsigned char>(1u << (rng() % 8));
      EXPECT_FALSE(same(bad, msg, pk));
      std::memcpy(bad, sig, 64);
      bad[32 + rng() % 32] ^= static_cast<unsigned char>(1u << (rng() % 8));
      EXPECT_FALSE(same(bad, msg, pk));
      if (!msg.empty()) {
        auto other = msg;
        other[rng() % other.size()] ^= 1;
        EXPECT_FALSE(same(sig, other, pk));
      }
      // s = n (overflow) and r = p (not a field element)
      std::memcpy(bad, sig, 64);
      auto n = hex::decode32("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
      std::memcpy(bad + 32, n->data(), 32);
      EXPECT_FALSE(same(bad, msg, pk));
      std::memcpy(bad, sig, 64);
      auto p = hex::decode32("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f");
      std::memcpy(bad, p->data(), 32);
      EXPECT_FALSE(same(bad, msg, pk));
      invalid += 5;
    }
  }
  EXPECT_GT(valid, 400);
  EXPECT_GT(invalid, 2000);
}

TEST(verify_table_test, bip340_vectors_on_every_pass_with_the_tables_cycling) {
  // 50 other keys verified twice each between the passes push every vector key out of the 32
  // tables, so later passes rebuild them.
  std::vector<crypto::keypair> others;
  for (std::uint8_t i = 1; others.size() < 50; ++i) {
    bytes32 sk{};
    sk[31] = i;
    sk[0] = 0x42;
    auto kp = crypto::keypair::from_secret(sk);
    if (kp) others.push_back(*kp);
  }
  const std::string csv = test::read_file(test::vector_path("bip340-test-vectors.csv"));
  for (int pass = 0; pass < 4; ++pass) {
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    int rows = 0;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      std::vector<std::string> f;
      std::string cur;
      for (char ch : line) {
        if (ch == ',') {
          f.push_back(cur);
          cur.clear();
        } else if (ch != '\r') {
          cur.push_back(ch);
        }
      }
      f.push_back(cur);
      ASSERT_GE(f.size(), 7u);
      auto pub = hex::decode32(f[2]);
      auto msg = hex::decode(f[4]);
      auto sig = hex::decode64(f[5]);
      ASSERT_TRUE(msg.ok() && sig.ok());
      const bool expected = f[6] == "TRUE";
      const bool got = pub.ok() && crypto::schnorr_verify(*sig, msg->data(), msg->size(), *pub);
      EXPECT_EQ(got, expected) << "pass " << pass << " row " << f[0];
      ++rows;
    }
    EXPECT_GE(rows, 15);
    if (pass == 1) {
      for (int twice = 0; twice < 2; ++twice)
        for (const auto& kp : others) {
          bytes32 m = crypto::sha256(kp.public_key().data(), 32);
          const bytes64 sig = kp.sign32(m, bytes32{});
          ASSERT_TRUE(crypto::schnorr_verify32(sig, m, kp.public_key()));
          bytes64 bad = sig;
          bad[63] ^= 1;
          ASSERT_FALSE(crypto::schnorr_verify32(bad, m, kp.public_key()));
        }
    }
  }
}
