// NIP-44 v2 encrypted payloads: conversation key, message keys, padding, encrypt and decrypt,
// including the extended length prefix for plaintexts of 65536 bytes and more (current 44.md).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::nip44 {

constexpr std::uint8_t kVersion = 2;
constexpr std::size_t kMaxPlaintext = 0xffffffffu;  // 2^32 - 1 with the extended prefix

// HKDF-extract(salt = "nip44-v2", ikm = x coordinate of sk * pub).
result<bytes32> get_conversation_key(const bytes32& sk, const bytes32& pub);

struct message_keys {
  bytes32 chacha_key;
  std::array<std::uint8_t, 12> chacha_nonce;
  bytes32 hmac_key;
  ~message_keys();
};

// HKDF-expand(prk = conversation key, info = nonce, L = 76) split 32 / 12 / 32.
message_keys get_message_keys(const bytes32& conversation_key, const bytes32& nonce);

// Padded length of a plaintext of `unpadded_len` bytes (1 .. kMaxPlaintext).
result<std::size_t> calc_padded_len(std::size_t unpadded_len);

// Base64 payload: version(1) || nonce(32) || ciphertext || mac(32). nonce must be fresh random.
result<std::string> encrypt(std::string_view plaintext, const bytes32& conversation_key, const bytes32& nonce);

// Plaintext of a base64 payload, the bytes as sent (UTF-8 is not checked here); NIP44_* error
// codes say which check failed.
result<std::string> decrypt(std::string_view payload, const bytes32& conversation_key);

// --- Buffer-level forms that allocate nothing (the WASM glue runs them inside its scratch buffer).
// A raw payload is version(1) || nonce(32) || prefix || plaintext || zeros || mac(32), where the
// prefix is u16 big-endian, or 00 00 then u32 big-endian for 65536 bytes and more.

constexpr std::size_t kExtendedThreshold = 65536;  // plaintexts this long use the 6-byte prefix
constexpr std::size_t kMinRawPayload = 99;         // 1 + 32 + 2 + 32 (the smallest padding) + 32
constexpr std::size_t kMinPayload = 132;           // base64 length of kMinRawPayload bytes

// Size of the length prefix for a plaintext of n bytes: 2, or 6 from kExtendedThreshold on.
constexpr std::size_t prefix_len(std::size_t n) { return n >= kExtendedThreshold ? 6 : 2; }

// Offset of the plaintext inside a raw payload: version, nonce, prefix.
constexpr std::size_t plaintext_offset(std::size_t n) { return 1 + 32 + prefix_len(n); }

// Size of the raw payload for a plaintext of n bytes (1 .. kMaxPlaintext).
result<std::size_t> raw_len(std::size_t n);

// raw holds n plaintext bytes at raw + plaintext_offset(n) and has room for raw_len(n) bytes.
// Writes version, nonce, prefix and padding, encrypts in place and appends the MAC.
// Returns raw_len(n).
result<std::size_t> seal(std::uint8_t* raw, std::size_t n, const bytes32& conversation_key, const bytes32& nonce);

// Checks a base64 payload ('#' flag, length bounds), decodes it into raw and checks the decoded
// size and version. raw needs room for payload.size() / 4 * 3 bytes and may be payload.data()
// itself (decoding in place). Returns the raw length.
result<std::size_t> decode_payload(std::string_view payload, std::uint8_t* raw);

struct plaintext_range {
  std::size_t offset;
  std::size_t size;
};

// Checks the MAC of a raw payload (before decrypting), decrypts it in place and checks the
// length prefix against the padding. The plaintext is raw[offset, offset + size).
result<plaintext_range> open(std::uint8_t* raw, std::size_t raw_len, const bytes32& conversation_key);

}  // namespace nostr::nip44
