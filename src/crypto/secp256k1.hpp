// BIP-340 keys and signatures and x-only ECDH, over libsecp256k1. The only file that includes it.
// Arguments follow libsecp256k1's order: outputs, then inputs. No entropy is gathered here:
// callers pass aux randomness in.
#pragma once
#include <cstddef>
#include <cstdint>

#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::crypto {

// Re-randomizes the shared context's blinding (side-channel hardening). Optional; any time.
void seed_context(const bytes32& seed);

bool secret_key_valid(const bytes32& sk);

// x-only public key of a secret key (BIP-340).
result<bytes32> xonly_public_key(const bytes32& sk);

// True when pub is the x coordinate of a point on the curve.
bool xonly_public_key_valid(const bytes32& pub);

// A secret key with its public key precomputed, for repeated signing. Wipes itself.
class keypair {
 public:
  static result<keypair> from_secret(const bytes32& sk);
  // The same, remembering the public half of the last few keys (keyed by a salted SHA-256 of the
  // secret, never the secret itself), so signing again with a recent key skips the point
  // multiplication that derives its public key. For signing with a raw secret key per call.
  static result<keypair> from_secret_remembered(const bytes32& sk);
  keypair(const keypair&) = default;
  keypair& operator=(const keypair&) = default;
  ~keypair();
  const bytes32& public_key() const { return pub_; }
  // BIP-340 signature of a 32-byte message with the given aux randomness.
  bytes64 sign32(const bytes32& msg, const bytes32& aux) const;
  // BIP-340 signature of a message of any length (BIP-340 variable-length messages).
  bytes64 sign(const std::uint8_t* msg, std::size_t len, const bytes32& aux) const;

 private:
  keypair() = default;
  std::uint8_t kp_[96]{};  // secp256k1_keypair, opaque
  bytes32 pub_{};
};

bool schnorr_verify(const bytes64& sig, const std::uint8_t* msg, std::size_t len, const bytes32& pub);
inline bool schnorr_verify32(const bytes64& sig, const bytes32& msg, const bytes32& pub) {
  return schnorr_verify(sig, msg.data(), 32, pub);
}

// One BIP-340 signature over a 32-byte message (a NIP-01 event id) to check in a batch.
struct schnorr_check {
  bytes64 sig{};
  bytes32 msg{};
  bytes32 pub{};
};

// ok[i] = schnorr_verify32(checks[i].sig, checks[i].msg, checks[i].pub), for i < n, computed
// together: BIP-340 batch verification (random weights, one multi-scalar multiplication per
// chunk of signatures), and where a chunk fails, each of its signatures alone, so exactly the
// bad ones come out false. Faster than n single checks from a few signatures up, the more so when
// keys repeat (a relay's backlog). Public data only: variable time.
void schnorr_verify32_batch(const schnorr_check* checks, std::size_t n, bool* ok);

// The x coordinate of sk * P, where P is the even-y point with x = pub (NIP-44's shared secret).
result<bytes32> ecdh_xonly(const bytes32& sk, const bytes32& pub);

}  // namespace nostr::crypto
