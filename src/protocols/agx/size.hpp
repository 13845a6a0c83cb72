// The outbound size bound (SPEC.md "Message size (normative)"): what governs a message we send is
// not NIP-44's limit but the largest rumor whose worst-case gift wrap a default-configured
// (65536-byte) relay stores, 28672 bytes, applied to the SERIALIZED rumor the transport encrypts.
#pragma once
#include <cstddef>

#include "event/event.hpp"

namespace nostr::agx {

// Base64 length of a NIP-44 v2 payload for a plaintext of n bytes (n >= 1).
std::size_t nip44_payload_bytes(std::size_t n);

// Upper bound on the serialized gift wrap produced by a rumor of rumor_bytes: the rumor encrypted
// into a seal (maximal id/pubkey/sig/created_at), the seal encrypted into a wrap with its three
// tags at their largest.
std::size_t worst_case_wrap_bytes(std::size_t rumor_bytes);

// The largest rumor size whose worst_case_wrap_bytes fits kInteropMaxEventBytes (derived; equals
// kInteropMaxRumorBytes, which a test pins).
std::size_t derive_interop_max_rumor_bytes();

// Serialized size of a rumor (nip59::rumor_to_json), and whether it is within the bound.
std::size_t rumor_bytes(const event& rumor);
bool fits_interop(const event& rumor);

}  // namespace nostr::agx
