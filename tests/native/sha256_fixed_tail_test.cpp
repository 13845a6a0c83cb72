#include "crypto/sha256_fixed_tail.hpp"

#include <gtest/gtest.h>

#include "crypto/hash.hpp"
#include "util/hex.hpp"

using namespace nostr;

namespace {

std::uint32_t g_seed = 12345;
std::uint8_t next_byte() {
  g_seed = g_seed * 1103515245u + 12345u;
  return static_cast<std::uint8_t>(g_seed >> 16);
}

}  // namespace

TEST(sha256_fixed_tail_test, fips_180_examples) {
  // FIPS 180-4 / NIST examples "abc" and the two-block 448-bit message.
  std::string abc = "abc";
  crypto::sha256_fixed_tail h;
  h.reset(as_bytes(abc), abc.size(), 1, 2);
  EXPECT_EQ(hex::encode(h.hash()), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  h.var()[0] = 'x';
  EXPECT_EQ(h.hash(), crypto::sha256(as_bytes(std::string("axc")), 3));
  std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  h.reset(as_bytes(two), two.size(), 0, two.size());
  EXPECT_EQ(hex::encode(h.hash()), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(sha256_fixed_tail_test, matches_plain_sha256_for_every_layout) {
  // Lengths around the padding edges (55, 56, 64, 119...) and varying runs at every offset,
  // including runs that cross a block boundary, rewritten several times each.
  int cases = 0;
  for (std::size_t len : {1u, 2u, 31u, 55u, 56u, 63u, 64u, 65u, 119u, 120u, 128u, 200u, 300u}) {
    std::vector<std::uint8_t> msg(len);
    for (auto& b : msg) b = next_byte();
    for (std::size_t begin = 0; begin < len; begin += (len > 70 ? 3 : 1)) {
      for (std::size_t width : {1u, 4u, 9u}) {
        if (begin + width > len) continue;
        crypto::sha256_fixed_tail h;
        h.reset(msg.data(), len, begin, begin + width);
        for (int round = 0; round < 3; ++round) {
          for (std::size_t i = 0; i < width; ++i) h.var()[i] = msg[begin + i] = next_byte();
          crypto::sha256_fixed_tail copy = h;  // copies are independent and equal
          ASSERT_EQ(h.hash(), crypto::sha256(msg.data(), len)) << len << " " << begin << " " << width;
          ASSERT_EQ(copy.hash(), h.hash());
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 1000);
}
