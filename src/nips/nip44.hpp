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

// Plaintext of a base64 payload; NIP44_* error codes say which check failed.
result<std::string> decrypt(std::string_view payload, const bytes32& conversation_key);

}  // namespace nostr::nip44
