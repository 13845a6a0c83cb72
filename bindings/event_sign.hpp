// Event signing into the scratch buffer, shared by the key-handle path (event.cpp) and the raw
// secret key path (event_finalize.cpp); the messages of a failed event check, shared by
// verifyScratch (event.cpp) and verifyEvents (event_batch.cpp).
#pragma once
#include <cstddef>

#include "crypto/secp256k1.hpp"

namespace nostr::bindings {

// Scratch holds a serialization whose pubkey slot (bytes [4,68), after `[0,"`) is a placeholder.
// Fills in the key's pubkey, hashes, signs; writes pubkey(32) id(32) sig(64) at the scratch start.
// Returns 0 or an errc value.
int sign_into_scratch(const crypto::keypair& kp, std::size_t ser_len);

inline constexpr const char* kHexFields = "id, pubkey and sig must be lowercase hex of 32, 32 and 64 bytes";
inline constexpr const char* kIdMismatch = "id is not the hash of the event";
inline constexpr const char* kBadSignature = "signature does not verify";

}  // namespace nostr::bindings
