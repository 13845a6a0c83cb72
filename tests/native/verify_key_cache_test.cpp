// schnorr_verify keeps parsed x-only keys of recent authors in a small direct-mapped cache
// (slot = (pub[0] ^ pub[31]) & 63). These tests make keys share a slot and check that an entry
// never answers for another key, and that a rejected key leaves no usable entry behind.
#include <gtest/gtest.h>

#include <vector>

#include "crypto/secp256k1.hpp"

namespace nostr::crypto {
namespace {

struct signed_msg {
  bytes32 pub;
  bytes32 msg;
  bytes64 sig;
};

signed_msg sign_with(std::uint8_t seed) {
  bytes32 sk{};
  sk[0] = 1;
  sk[31] = seed;
  auto kp = keypair::from_secret(sk);
  EXPECT_TRUE(kp.ok());
  bytes32 msg{};
  msg[5] = seed;
  bytes32 aux{};
  return {kp->public_key(), msg, kp->sign32(msg, aux)};
}

int slot_of(const bytes32& pub) { return (pub[0] ^ pub[31]) & 63; }

TEST(VerifyKeyCache, KeysSharingASlotNeverAnswerForEachOther) {
  // Find two keys in one slot.
  std::vector<signed_msg> all;
  signed_msg a{}, b{};
  bool found = false;
  for (int s = 1; s < 255 && !found; ++s) {
    all.push_back(sign_with(static_cast<std::uint8_t>(s)));
    for (std::size_t i = 0; i + 1 < all.size() && !found; ++i)
      if (slot_of(all[i].pub) == slot_of(all.back().pub)) {
        a = all[i];
        b = all.back();
        found = true;
      }
  }
  ASSERT_TRUE(found);
  for (int round = 0; round < 3; ++round) {
    EXPECT_TRUE(schnorr_verify32(a.sig, a.msg, a.pub));
    EXPECT_FALSE(schnorr_verify32(a.sig, a.msg, b.pub));  // a's signature under b's key (b now cached)
    EXPECT_TRUE(schnorr_verify32(b.sig, b.msg, b.pub));
    EXPECT_FALSE(schnorr_verify32(b.sig, b.msg, a.pub));
  }
}

TEST(VerifyKeyCache, AKeyOffTheCurveIsRejectedEveryTimeAndClearsItsSlot) {
  signed_msg a = sign_with(7);
  ASSERT_TRUE(schnorr_verify32(a.sig, a.msg, a.pub));
  // An x in a's slot with no point on the curve (about half of all x are off the curve).
  bytes32 bad = a.pub;
  bool off_curve = false;
  for (int v = 0; v < 256 && !off_curve; ++v) {
    bad[1] = static_cast<std::uint8_t>(v);
    off_curve = !xonly_public_key_valid(bad);
  }
  ASSERT_TRUE(off_curve);
  ASSERT_EQ(slot_of(bad), slot_of(a.pub));
  EXPECT_FALSE(schnorr_verify32(a.sig, a.msg, bad));
  EXPECT_FALSE(schnorr_verify32(a.sig, a.msg, bad));
  EXPECT_TRUE(schnorr_verify32(a.sig, a.msg, a.pub));
  bytes64 tampered = a.sig;
  tampered[63] ^= 1;
  EXPECT_FALSE(schnorr_verify32(tampered, a.msg, a.pub));
}

}  // namespace
}  // namespace nostr::crypto
