// Shared helpers of the libFuzzer targets: a check that aborts with a message (libFuzzer records
// the input as a crash), a fixed key pair for the targets that need one, and the split of an input
// into a mode byte and the rest.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include "crypto/secp256k1.hpp"
#include "util/bytes.hpp"
#include "util/hex.hpp"

#define FUZZ_CHECK(cond)                                                         \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                              \
    }                                                                            \
  } while (0)

namespace fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The fixed keys of the targets (test keys, never used anywhere else).
inline nostr::bytes32 fixed_bytes(std::uint8_t fill) {
  nostr::bytes32 b{};
  b.fill(fill);
  return b;
}
inline const nostr::bytes32& recipient_sk() {
  static const nostr::bytes32 sk = fixed_bytes(0x02);
  return sk;
}
inline const nostr::bytes32& sender_sk() {
  static const nostr::bytes32 sk = fixed_bytes(0x01);
  return sk;
}
inline const nostr::crypto::keypair& sender_keypair() {
  static const nostr::crypto::keypair kp = nostr::crypto::keypair::from_secret(sender_sk()).value();
  return kp;
}
inline const nostr::crypto::keypair& recipient_keypair() {
  static const nostr::crypto::keypair kp = nostr::crypto::keypair::from_secret(recipient_sk()).value();
  return kp;
}
inline std::string hex32(const nostr::bytes32& b) { return nostr::hex::encode(b); }

}  // namespace fuzz
