// NIP-44 through the scratch buffer (the layouts are described in nip44.cpp): what the key-handle
// entry points (nip44.cpp) and the raw-key ones (nip44_secret.cpp) share.
#pragma once
#include <cstddef>
#include <cstdint>

#include "util/bytes.hpp"

namespace nostr::bindings {

inline constexpr std::size_t kKeyAt = 0;
inline constexpr std::size_t kNonceAt = 32;
inline constexpr std::size_t kPeerAt = 64;       // handle encrypt: peer public key, 64 hex
inline constexpr std::size_t kEncRawBase = 128;  // raw payload of a 6-byte prefix starts here
inline constexpr std::size_t kEncPlaintext = kEncRawBase + 1 + 32 + 6;  // = nip44::plaintext_offset(65536)
inline constexpr std::size_t kDecPayload = 32;

// Takes the conversation key out of scratch and wipes its copy there.
secret32 take_key(std::uint8_t* s);

// Scratch holds n plaintext bytes at kEncPlaintext and the nonce at kNonceAt. Returns the base64
// length (the payload is at scratch offset 0), or -errc.
int encrypt_scratch_with(const bytes32& ck, std::size_t n);

// Scratch holds m payload bytes at `at`. Returns the plaintext length (the plaintext is at
// scratch offset 0), or -errc.
int decrypt_scratch_with(const bytes32& ck, std::size_t at, std::size_t m);

// 64 hex characters at s as a public key.
bool read_pubkey_hex(const std::uint8_t* s, bytes32& pub);

}  // namespace nostr::bindings
