#include <gtest/gtest.h>

#include <sstream>

#include "crypto/hash.hpp"
#include "crypto/secp256k1.hpp"
#include "test_support.hpp"
#include "util/hex.hpp"

using namespace nostr;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur.push_back(c);
    }
  }
  out.push_back(cur);
  return out;
}

}  // namespace

TEST(crypto_test, bip340_vectors) {
  std::istringstream in(test::read_file(test::vector_path("bip340-test-vectors.csv")));
  std::string line;
  std::getline(in, line);  // header
  int rows = 0, signed_rows = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto f = split_csv(line);
    ASSERT_GE(f.size(), 7u) << line;
    ++rows;
    auto pub = hex::decode32(f[2]);
    auto msg = hex::decode(f[4]);
    auto sig = hex::decode64(f[5]);
    ASSERT_TRUE(msg.ok() && sig.ok());
    bool expected = f[6] == "TRUE";
    bool got = pub.ok() && crypto::schnorr_verify(*sig, msg->data(), msg->size(), *pub);
    EXPECT_EQ(got, expected) << "row " << f[0] << " " << f[7];
    if (!f[1].empty()) {
      ++signed_rows;
      auto sk = hex::decode32(f[1]);
      auto aux = hex::decode32(f[3]);
      ASSERT_TRUE(sk.ok() && aux.ok());
      auto kp = crypto::keypair::from_secret(*sk);
      ASSERT_TRUE(kp.ok());
      EXPECT_EQ(hex::encode(kp->public_key()), lower(f[2])) << "row " << f[0];
      EXPECT_EQ(hex::encode(kp->sign(msg->data(), msg->size(), *aux)), lower(f[5])) << "row " << f[0];
      if (msg->size() == 32) {
        bytes32 m{};
        std::copy(msg->begin(), msg->end(), m.begin());
        EXPECT_EQ(hex::encode(kp->sign32(m, *aux)), lower(f[5])) << "row " << f[0];
      }
    }
  }
  EXPECT_EQ(rows, 19);
  EXPECT_GE(signed_rows, 5);
}

TEST(crypto_test, secret_key_range) {
  bytes32 zero{};
  EXPECT_FALSE(crypto::secret_key_valid(zero));
  auto order = hex::decode32("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
  EXPECT_FALSE(crypto::secret_key_valid(*order));
  EXPECT_EQ(crypto::keypair::from_secret(*order).code(), errc::invalid_secret_key);
  auto below = hex::decode32("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140");
  EXPECT_TRUE(crypto::secret_key_valid(*below));
}

TEST(crypto_test, sha256_and_hmac_known_answers) {
  const std::string abc = "abc";
  EXPECT_EQ(hex::encode(crypto::sha256(as_bytes(abc), abc.size())),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // RFC 4231 test case 2.
  const std::string key = "Jefe", data = "what do ya want for nothing?";
  EXPECT_EQ(hex::encode(crypto::hmac_sha256(as_bytes(key), key.size(), as_bytes(data), data.size())),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(crypto_test, hkdf_rfc5869_case1) {
  auto ikm = hex::decode("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b");
  auto salt = hex::decode("000102030405060708090a0b0c");
  auto info = hex::decode("f0f1f2f3f4f5f6f7f8f9");
  auto prk = crypto::hkdf_extract(salt->data(), salt->size(), ikm->data(), ikm->size());
  EXPECT_EQ(hex::encode(prk), "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
  bytes okm(42);
  crypto::hkdf_expand(prk, info->data(), info->size(), okm.data(), okm.size());
  EXPECT_EQ(hex::encode(okm),
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
}

TEST(crypto_test, ecdh_is_symmetric_and_rejects_bad_points) {
  auto a = *hex::decode32("0000000000000000000000000000000000000000000000000000000000000001");
  auto b = *hex::decode32("0000000000000000000000000000000000000000000000000000000000000002");
  auto pa = crypto::xonly_public_key(a);
  auto pb = crypto::xonly_public_key(b);
  ASSERT_TRUE(pa.ok() && pb.ok());
  auto s1 = crypto::ecdh_xonly(a, *pb);
  auto s2 = crypto::ecdh_xonly(b, *pa);
  ASSERT_TRUE(s1.ok() && s2.ok());
  EXPECT_EQ(*s1, *s2);
  // x = 5 is not on secp256k1 (5^3 + 7 = 132 is not a square mod p).
  auto bad = *hex::decode32("0000000000000000000000000000000000000000000000000000000000000005");
  EXPECT_FALSE(crypto::xonly_public_key_valid(bad));
  EXPECT_EQ(crypto::ecdh_xonly(a, bad).code(), errc::invalid_public_key);
}

TEST(crypto_test, hex_decode_errors) {
  EXPECT_EQ(hex::decode("abc").code(), errc::invalid_hex);
  EXPECT_EQ(hex::decode("zz").code(), errc::invalid_hex);
  EXPECT_EQ(hex::decode32("00").code(), errc::invalid_length);
  EXPECT_TRUE(hex::is_lower_hex("00ff", 2));
  EXPECT_FALSE(hex::is_lower_hex("00FF", 2));
}

TEST(crypto_test, remembered_keypairs_sign_like_fresh_ones) {
  // More keys than the memo holds, each used several times: every signature verifies and equals
  // the one a freshly derived key pair makes with the same aux randomness.
  for (int round = 0; round < 3; ++round) {
    for (int k = 1; k <= 12; ++k) {
      bytes32 sk{};
      sk[31] = static_cast<std::uint8_t>(k);
      sk[0] = 0x42;
      bytes32 msg{}, aux{};
      msg[0] = static_cast<std::uint8_t>(round);
      aux[1] = static_cast<std::uint8_t>(k);
      auto fresh = crypto::keypair::from_secret(sk);
      auto memo = crypto::keypair::from_secret_remembered(sk);
      ASSERT_TRUE(fresh.ok() && memo.ok());
      EXPECT_EQ(memo->public_key(), fresh->public_key());
      auto sig = memo->sign32(msg, aux);
      EXPECT_EQ(sig, fresh->sign32(msg, aux));
      EXPECT_TRUE(crypto::schnorr_verify32(sig, msg, fresh->public_key()));
    }
  }
  bytes32 zero{};
  EXPECT_EQ(crypto::keypair::from_secret_remembered(zero).code(), errc::invalid_secret_key);
}
