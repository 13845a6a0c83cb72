// Secrets wiped where the code promises it (bytes.hpp secret32, secp256k1.hpp keypair, nip44.hpp
// message_keys, nip59.hpp wrap_randomness, nip19.hpp nsec, agx wrap_miner). Each value is built in
// storage the test owns, destroyed through its public destructor, and that storage (still ours,
// never freed) is searched for the secret: present before (so the test can fail), gone after.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "crypto/secp256k1.hpp"
#include "nips/nip19.hpp"
#include "nips/nip44.hpp"
#include "nips/nip59.hpp"
#include "protocols/agx/wrap.hpp"
#include "util/bytes.hpp"
#include "util/hex.hpp"

using namespace nostr;

namespace {

bytes32 pattern(std::uint8_t seed) {
  bytes32 b{};
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::uint8_t>(seed + 7 * i + 1);
  return b;
}

bool contains(const unsigned char* storage, std::size_t n, const std::uint8_t* needle, std::size_t len) {
  return std::search(storage, storage + n, needle, needle + len) != storage + n;
}

// Places a copy (or the moved value) of T in owned storage, checks `secret` is in it, destroys
// it, and returns whether the secret is still there afterwards.
template <class T>
bool secret_survives_destruction(T&& value, const std::uint8_t* secret, std::size_t len) {
  using U = std::decay_t<T>;
  alignas(U) unsigned char storage[sizeof(U)];
  std::memset(storage, 0, sizeof storage);
  U* p = new (storage) U(std::forward<T>(value));
  EXPECT_TRUE(contains(storage, sizeof storage, secret, len)) << "the secret was never in the value";
  p->~U();
  return contains(storage, sizeof storage, secret, len);
}

}  // namespace

TEST(secret_wipe_test, secure_zero_clears_every_byte) {
  bytes b(100, 0xab);
  secure_zero(b);
  EXPECT_TRUE(std::all_of(b.begin(), b.end(), [](std::uint8_t v) { return v == 0; }));
  std::string s(33, 'k');
  secure_zero(s);
  EXPECT_EQ(s, std::string(33, '\0'));
}

TEST(secret_wipe_test, secret32_wipes_itself) {
  const bytes32 sk = pattern(1);
  EXPECT_FALSE(secret_survives_destruction(secret32(sk), sk.data(), sk.size()));
}

TEST(secret_wipe_test, keypair_wipes_its_secret_key) {
  const bytes32 sk = pattern(2);
  auto kp = crypto::keypair::from_secret(sk);
  ASSERT_TRUE(kp.ok());
  EXPECT_FALSE(secret_survives_destruction(*kp, sk.data(), sk.size()));
  auto remembered = crypto::keypair::from_secret_remembered(sk);
  ASSERT_TRUE(remembered.ok());
  EXPECT_FALSE(secret_survives_destruction(*remembered, sk.data(), sk.size()));
}

TEST(secret_wipe_test, nip44_message_keys_are_wiped) {
  const bytes32 ck = pattern(3), nonce = pattern(4);
  const nip44::message_keys keys = nip44::get_message_keys(ck, nonce);
  const bytes32 chacha = keys.chacha_key, hmac = keys.hmac_key;
  const auto chacha_nonce = keys.chacha_nonce;
  alignas(nip44::message_keys) unsigned char storage[sizeof(nip44::message_keys)];
  auto* p = new (storage) nip44::message_keys(keys);
  ASSERT_TRUE(contains(storage, sizeof storage, hmac.data(), hmac.size()));
  p->~message_keys();
  EXPECT_FALSE(contains(storage, sizeof storage, chacha.data(), chacha.size()));
  EXPECT_FALSE(contains(storage, sizeof storage, hmac.data(), hmac.size()));
  EXPECT_FALSE(contains(storage, sizeof storage, chacha_nonce.data(), chacha_nonce.size()));
}

TEST(secret_wipe_test, nip59_wrap_randomness_is_wiped) {
  nip59::wrap_randomness rnd;
  rnd.wrap_secret = pattern(5);
  rnd.seal_nonce = pattern(6);
  rnd.wrap_nonce = pattern(7);
  rnd.seal_aux = pattern(8);
  rnd.wrap_aux = pattern(9);
  rnd.seal_tweak = 0x1122334455667788u;
  rnd.wrap_tweak = 0x8877665544332211u;
  alignas(nip59::wrap_randomness) unsigned char storage[sizeof(nip59::wrap_randomness)];
  auto* p = new (storage) nip59::wrap_randomness(rnd);
  p->~wrap_randomness();
  EXPECT_TRUE(std::all_of(storage, storage + sizeof storage, [](unsigned char c) { return c == 0; }));
}

TEST(secret_wipe_test, decoded_nsec_wipes_itself) {
  const bytes32 sk = pattern(10);
  auto decoded = nip19::decode(nip19::encode_nsec(sk));
  ASSERT_TRUE(decoded.ok());
  auto* nsec = std::get_if<nip19::nsec>(&*decoded);
  ASSERT_NE(nsec, nullptr);
  EXPECT_FALSE(secret_survives_destruction(*nsec, sk.data(), sk.size()));
  auto direct = nip19::decode_nsec(nip19::encode_nsec(sk));
  ASSERT_TRUE(direct.ok());
  EXPECT_FALSE(secret_survives_destruction(*direct, sk.data(), sk.size()));
}

TEST(secret_wipe_test, agx_wrap_miner_wipes_its_one_time_key_and_aux) {
  const bytes32 author_sk = pattern(11), recipient_sk = pattern(12);
  auto author = crypto::keypair::from_secret(author_sk);
  ASSERT_TRUE(author.ok());
  const std::string author_hex = hex::encode(author->public_key());
  const std::string recipient_hex = hex::encode(crypto::xonly_public_key(recipient_sk).value());
  event_template t;
  t.kind = 3838;
  t.created_at = 1700000000;
  t.tags = {{"p", recipient_hex}};
  t.content = "hi";
  const event rumor = nip59::create_rumor(t, author_hex);
  auto ck = nip44::get_conversation_key(author_sk, crypto::xonly_public_key(recipient_sk).value());
  ASSERT_TRUE(ck.ok());
  auto seal = nip59::create_seal(rumor, *author, *ck, pattern(13), pattern(14), 1700000000 - 10);
  ASSERT_TRUE(seal.ok()) << seal.err().detail;

  nip59::wrap_randomness rnd;
  rnd.wrap_secret = pattern(15);
  rnd.wrap_nonce = pattern(16);
  rnd.wrap_aux = pattern(17);
  auto miner = agx::wrap_miner::start(*seal, recipient_hex, 1700000000, rnd);
  ASSERT_TRUE(miner.ok()) << miner.err().detail;
  alignas(agx::wrap_miner) unsigned char storage[sizeof(agx::wrap_miner)];
  auto* p = new (storage) agx::wrap_miner(std::move(*miner));
  ASSERT_TRUE(contains(storage, sizeof storage, rnd.wrap_aux.data(), 32)) << "the aux was never in the miner";
  ASSERT_TRUE(contains(storage, sizeof storage, rnd.wrap_secret.data(), 32)) << "the key was never in the miner";
  p->~wrap_miner();
  EXPECT_FALSE(contains(storage, sizeof storage, rnd.wrap_aux.data(), 32));
  EXPECT_FALSE(contains(storage, sizeof storage, rnd.wrap_secret.data(), 32));
}
