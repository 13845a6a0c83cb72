// Shared fixtures for the AGX tests: three identities (alice, bob, mallory), a deterministic
// stand-in for the caller's CSPRNG, and a wrap crafter that can break any one AGX rule.
#pragma once
#include <cstring>
#include <optional>
#include <string>

#include "crypto/hash.hpp"
#include "crypto/secp256k1.hpp"
#include "event/event.hpp"
#include "nips/nip13.hpp"
#include "nips/nip44.hpp"
#include "nips/nip59.hpp"
#include "protocols/agx/constants.hpp"
#include "util/hex.hpp"

namespace nostr::agx_test {

constexpr std::int64_t kNow = 1760000000;

struct rng {
  std::uint64_t seed;
  std::uint64_t counter = 0;
  bytes32 next32() {
    std::uint8_t in[16];
    std::memcpy(in, &seed, 8);
    std::memcpy(in + 8, &counter, 8);
    ++counter;
    return crypto::sha256(in, sizeof in);
  }
  std::uint64_t next64() {
    bytes32 b = next32();
    std::uint64_t v;
    std::memcpy(&v, b.data(), 8);
    return v;
  }
  bytes32 next_key() {
    for (;;) {
      bytes32 k = next32();
      if (crypto::secret_key_valid(k)) return k;
    }
  }
  void fill(nip59::wrap_randomness& r) {
    r.wrap_secret = next_key();
    r.seal_nonce = next32();
    r.wrap_nonce = next32();
    r.seal_aux = next32();
    r.wrap_aux = next32();
    r.seal_tweak = next64();
    r.wrap_tweak = next64();
  }
};

struct identity {
  bytes32 sk;
  std::string pub;
  crypto::keypair kp() const { return *crypto::keypair::from_secret(sk); }
};

inline identity make_identity(std::uint64_t seed) {
  rng r{seed};
  identity id;
  id.sk = r.next_key();
  id.pub = hex::encode(*crypto::xonly_public_key(id.sk));
  return id;
}

inline const identity& alice() {
  static identity id = make_identity(0xa11ce);
  return id;
}
inline const identity& bob() {
  static identity id = make_identity(0xb0b);
  return id;
}
inline const identity& mallory() {
  static identity id = make_identity(0x3a11);
  return id;
}

inline bytes32 pub_bytes(const std::string& hex_pub) { return *hex::decode32(hex_pub); }

inline bytes32 conv(const identity& me, const std::string& peer) {
  return *nip44::get_conversation_key(me.sk, pub_bytes(peer));
}

// A seal of arbitrary rumor JSON by `signer` to `recipient`, with no AGX or NIP-59 checks.
inline event raw_seal(const std::string& rumor_json, const identity& signer, const std::string& recipient,
                      std::int64_t created_at, rng& r, std::int64_t kind = 13) {
  event_template t;
  t.kind = kind;
  t.created_at = created_at;
  t.content = *nip44::encrypt(rumor_json, conv(signer, recipient), r.next32());
  return finalize(t, signer.kp(), r.next32());
}

// A wrap of arbitrary seal JSON to `recipient` with the given tags before the nonce, mined to
// `bits` (committed as such), or no nonce tag at all when bits is nullopt.
inline event raw_wrap(const std::string& seal_json, const std::string& recipient, std::int64_t created_at,
                      const tag_list& tags, std::optional<int> bits, rng& r, std::int64_t kind = 1059) {
  identity one_time;
  one_time.sk = r.next_key();
  one_time.pub = hex::encode(*crypto::xonly_public_key(one_time.sk));
  event_template t;
  t.kind = kind;
  t.created_at = created_at;
  t.tags = tags;
  t.content = *nip44::encrypt(seal_json, conv(one_time, recipient), r.next32());
  if (bits) {
    auto m = nip13::mine(one_time.pub, t, *bits, 0, std::uint64_t{1} << 26);
    t.tags = m->ev.tags;
  }
  return finalize(t, one_time.kp(), r.next32());
}

inline tag_list agx_tags(const std::string& recipient, std::int64_t created_at) {
  return {{"p", recipient}, {"expiration", std::to_string(created_at + agx::kWrapTtl)}};
}

}  // namespace nostr::agx_test
