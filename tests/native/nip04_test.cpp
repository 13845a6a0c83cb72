// NIP-04: the shared key and the content format, with rust-nostr's vectors (tests/vectors/nip04.json).
// AES-CBC itself runs in WebCrypto; tests/js/nip04.test.js decrypts the vector.
#include "nips/nip04.hpp"

#include <gtest/gtest.h>

#include "crypto/secp256k1.hpp"
#include "util/base64.hpp"
#include "util/hex.hpp"
#include "test_support.hpp"

using namespace nostr;

namespace {

bytes32 b32(const std::string& hex_text) { return *hex::decode32(hex_text); }

}  // namespace

TEST(nip04_test, shared_key_is_the_unhashed_x_both_ways) {
  auto v = test::load_vector_json("nip04.json");
  ASSERT_FALSE(v.is_discarded());
  bytes32 s = b32(v["sender_sk"]), r = b32(v["receiver_sk"]);
  EXPECT_EQ(hex::encode(*crypto::xonly_public_key(s)), v["sender_pk"].get<std::string>());
  EXPECT_EQ(hex::encode(*crypto::xonly_public_key(r)), v["receiver_pk"].get<std::string>());
  auto k1 = nip04::shared_key(s, b32(v["receiver_pk"]));
  auto k2 = nip04::shared_key(r, b32(v["sender_pk"]));
  ASSERT_TRUE(k1.ok() && k2.ok());
  EXPECT_EQ(k1->b, k2->b);
  EXPECT_EQ(k1->b, *crypto::ecdh_xonly(s, b32(v["receiver_pk"])));  // NIP-44's ECDH x, not hashed

  EXPECT_EQ(nip04::shared_key(bytes32{}, b32(v["receiver_pk"])).code(), errc::invalid_secret_key);
  bytes32 off_curve{};
  off_curve[31] = 5;  // x = 5 is not on secp256k1
  EXPECT_EQ(nip04::shared_key(s, off_curve).code(), errc::invalid_public_key);
}

TEST(nip04_test, the_vector_content_parses_into_blocks_and_iv) {
  auto v = test::load_vector_json("nip04.json");
  for (const auto& c : v["decrypt"]) {
    std::string content = c["content"];
    auto p = nip04::parse_payload(content);
    ASSERT_TRUE(p.ok()) << content;
    EXPECT_EQ(p->ciphertext.size(), 32u);  // "Saturn, bringer of old age" (26 bytes) + PKCS#7 padding
    auto back = nip04::format_payload(p->ciphertext.data(), p->ciphertext.size(), p->iv);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, content);
  }
  for (const auto& c : v["invalid"])
    EXPECT_EQ(nip04::parse_payload(c["content"].get<std::string>()).code(), errc::nip04_invalid_payload) << c["content"];
}

TEST(nip04_test, malformed_contents_are_invalid_payload) {
  const std::string iv = "AAAAAAAAAAAAAAAAAAAAAA==";
  const std::string block = "AAAAAAAAAAAAAAAAAAAAAA==";  // 16 bytes
  for (const std::string& bad : {
           std::string(""), std::string("?iv="), "?iv=" + iv, block + "?iv=", block + "?iv=" + iv + "x",
           block + "?iv=AAAAAAAAAAAAAAAAAAAAAAA=",  // non-canonical: unused bits set
           block + "?iv=AAAAAAAAAAAAAAAAAAAA",      // 15 bytes, unpadded
           "AAAAAAAAAAAAAAAAAAAAAAA?iv=" + iv,      // no padding
           "AAAAAAAAAAAAAAAAAAAAAAAAAAAA?iv=" + iv, // 21 bytes: not whole blocks
           block + "?IV=" + iv, block + " ?iv=" + iv, block + "?iv=" + iv + "?iv=" + iv,
       })
    EXPECT_EQ(nip04::parse_payload(bad).code(), errc::nip04_invalid_payload) << bad;
  EXPECT_TRUE(nip04::parse_payload(block + "?iv=" + iv).ok());
  auto two = nip04::parse_payload(std::string(43, 'A') + "=?iv=" + iv);  // 32 bytes: two blocks
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->ciphertext.size(), 32u);

  nip04::iv16 z{};
  std::uint8_t ct[17] = {};
  EXPECT_EQ(nip04::format_payload(ct, 0, z).code(), errc::nip04_invalid_payload);
  EXPECT_EQ(nip04::format_payload(ct, 17, z).code(), errc::nip04_invalid_payload);
  EXPECT_EQ(*nip04::format_payload(ct, 16, z), block + "?iv=" + iv);
}
