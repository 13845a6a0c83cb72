// Our generator multiplication (src/crypto/secp256k1_core.c) against the library's own
// secp256k1_ecmult_gen (its 4-bit table) and against the verification multiplication
// secp256k1_ecmult: random scalars, edge scalars, scalars aimed at extreme digit strings,
// with the context unblinded and blinded by several seeds.
#include <gtest/gtest.h>

#include <secp256k1.h>

#include <array>
#include <cstring>
#include <random>
#include <vector>

#include "crypto/secp256k1.hpp"
#include "util/hex.hpp"

extern "C" {
void nostr_secp256k1_compute_lib_gen_table(void);
int nostr_secp256k1_gen_check(const secp256k1_context* c, const unsigned char k32[32], unsigned char ours[64],
                              unsigned char lib[64], unsigned char ref[64]);
int nostr_secp256k1_gen_bits(void);
}

namespace {

using scalar = std::array<unsigned char, 32>;

scalar from_hex(const char* h) {
  scalar s{};
  EXPECT_TRUE(nostr::hex::decode_to(h, s.data(), 32));
  return s;
}

scalar small(unsigned v) {
  scalar s{};
  for (int i = 0; i < 4; i++) s[31 - i] = static_cast<unsigned char>(v >> (8 * i));
  return s;
}

struct gen_fixture : ::testing::Test {
  static void SetUpTestSuite() {
    // Any call through the product's context computes the shared tables (ours included).
    (void)nostr::crypto::secret_key_valid(nostr::bytes32{1});
    nostr_secp256k1_compute_lib_gen_table();
  }
  secp256k1_context* c = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
  ~gen_fixture() override { secp256k1_context_destroy(c); }

  // Returns false when k is not a valid nonzero scalar (nothing to compare).
  bool check(const scalar& k) {
    unsigned char ours[64], lib[64], ref[64];
    if (!nostr_secp256k1_gen_check(c, k.data(), ours, lib, ref)) return false;
    EXPECT_EQ(0, std::memcmp(ours, ref, 64)) << nostr::hex::encode(k);
    EXPECT_EQ(0, std::memcmp(lib, ref, 64)) << nostr::hex::encode(k);
    return true;
  }

  // A valid secret key through the public API: the x-only key agrees with ecmult too.
  void check_pubkey(const scalar& k) {
    secp256k1_pubkey pk;
    if (secp256k1_ec_pubkey_create(c, &pk, k.data()) != 1) return;
    unsigned char ser[65];
    size_t len = sizeof ser;
    ASSERT_EQ(1, secp256k1_ec_pubkey_serialize(c, ser, &len, &pk, SECP256K1_EC_UNCOMPRESSED));
    unsigned char ours[64], lib[64], ref[64];
    ASSERT_EQ(1, nostr_secp256k1_gen_check(c, k.data(), ours, lib, ref));
    EXPECT_EQ(0, std::memcmp(ser + 1, ref, 64));
  }
};

const char* const kOrderMinus1 = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140";

std::vector<scalar> edge_scalars() {
  std::vector<scalar> v;
  for (unsigned i = 1; i <= 40; i++) v.push_back(small(i));
  v.push_back(from_hex(kOrderMinus1));
  v.push_back(from_hex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd036413f"));
  v.push_back(from_hex("7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0"));  // (n-1)/2
  v.push_back(from_hex("7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a1"));  // (n+1)/2
  v.push_back(from_hex("8000000000000000000000000000000000000000000000000000000000000000"));
  v.push_back(from_hex("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"));
  v.push_back(from_hex("5555555555555555555555555555555555555555555555555555555555555555"));
  v.push_back(from_hex("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
  v.push_back(from_hex("00000000000000000000000000000000ffffffffffffffffffffffffffffffff"));
  v.push_back(from_hex("ffffffffffffffffffffffffffffffff00000000000000000000000000000000"));
  for (int bit = 0; bit < 256; bit += 7) {
    scalar s{};
    s[31 - bit / 8] = static_cast<unsigned char>(1u << (bit % 8));
    v.push_back(s);
  }
  return v;
}

// a = 2*d - 2^L (mod n): with the unblinded context (blind = 1) the digit string our
// multiplication walks is exactly d, so these hit all-zero, all-one and alternating digits.
std::vector<scalar> digit_aimed_scalars() {
  secp256k1_context* c = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
  scalar two_l = small(1);
  for (int i = 0; i < nostr_secp256k1_gen_bits(); i++) EXPECT_EQ(1, secp256k1_ec_seckey_tweak_mul(c, two_l.data(), small(2).data()));
  std::vector<scalar> ds = {small(1), small(2), small(0x1f), from_hex(kOrderMinus1),
                            from_hex("5555555555555555555555555555555555555555555555555555555555555555"),
                            from_hex("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
                            from_hex("8421084210842108421084210842108421084210842108421084210842108421"),
                            from_hex("7bdef7bdef7bdef7bdef7bdef7bdef7bdef7bdef7bdef7bdef7bdef7bdef7bde")};
  std::vector<scalar> out;
  for (const auto& d : ds) {
    scalar a = d;
    EXPECT_EQ(1, secp256k1_ec_seckey_tweak_mul(c, a.data(), small(2).data()));
    scalar neg = two_l;
    EXPECT_EQ(1, secp256k1_ec_seckey_negate(c, neg.data()));
    if (secp256k1_ec_seckey_tweak_add(c, a.data(), neg.data()) == 1) out.push_back(a);
  }
  secp256k1_context_destroy(c);
  return out;
}

}  // namespace

TEST_F(gen_fixture, edge_scalars_unblinded_and_blinded) {
  int checked = 0;
  for (int round = 0; round < 4; round++) {
    if (round > 0) {
      unsigned char seed[32];
      for (int i = 0; i < 32; i++) seed[i] = static_cast<unsigned char>(round * 37 + i);
      ASSERT_EQ(1, secp256k1_context_randomize(c, seed));
    }
    for (const auto& k : edge_scalars()) checked += check(k);
  }
  EXPECT_GT(checked, 300);
}

TEST_F(gen_fixture, digit_aimed_scalars_unblinded) {
  auto ks = digit_aimed_scalars();
  ASSERT_GE(ks.size(), 6u);
  for (const auto& k : ks) EXPECT_TRUE(check(k));
}

TEST_F(gen_fixture, random_scalars_many_blindings) {
  std::mt19937_64 rng(0x5eed);
  int checked = 0;
  for (int i = 0; i < 3000; i++) {
    if (i % 100 == 0) {
      unsigned char seed[32];
      for (auto& b : seed) b = static_cast<unsigned char>(rng());
      ASSERT_EQ(1, secp256k1_context_randomize(c, i == 0 ? nullptr : seed));
    }
    scalar k;
    for (auto& b : k) b = static_cast<unsigned char>(rng());
    checked += check(k);
    if (i % 10 == 0) check_pubkey(k);
  }
  EXPECT_GT(checked, 2990);
}

TEST_F(gen_fixture, rejects_zero_and_overflow) {
  unsigned char ours[64], lib[64], ref[64];
  EXPECT_EQ(0, nostr_secp256k1_gen_check(c, small(0).data(), ours, lib, ref));
  EXPECT_EQ(0, nostr_secp256k1_gen_check(c, from_hex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141").data(), ours, lib, ref));
}
