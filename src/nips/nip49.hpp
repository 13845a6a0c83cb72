// NIP-49: a secret key encrypted with a password, as a bech32 "ncryptsec". The symmetric key is
// scrypt(password, salt, N = 2^log_n, r = 8, p = 1); the secret key is sealed with
// XChaCha20-Poly1305 under it, with the key security byte as associated data. 91 bytes before
// bech32: version 0x02, log_n, salt (16), nonce (24), key security byte, ciphertext and tag (48).
//
// The password is UTF-8 already normalized to NFKC by the caller (49.md, "Password Unicode
// Normalization"): the JS API does it with String.prototype.normalize, which the core would need
// the Unicode tables for. Like libsecp256k1, the core gathers no entropy: salt and nonce come in.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::nip49 {

constexpr std::uint8_t kVersion = 0x02;
constexpr std::size_t kPayloadLen = 91;
constexpr std::size_t kSaltLen = 16;
constexpr std::size_t kNonceLen = 24;
// scrypt needs 2^log_n KiB (r = 8): 20 is 1 GiB, the most nostr-tools accepts too (its scrypt's
// default memory cap); more would not fit a 32-bit WASM memory beside anything else.
constexpr unsigned kMinLogN = 1;
constexpr unsigned kMaxLogN = 20;
// 49.md's recommendation for new keys: 64 MiB, about 100 ms natively.
constexpr unsigned kDefaultLogN = 16;

// KEY_SECURITY_BYTE: whether the key is known to have been handled insecurely before.
enum class key_security : std::uint8_t { insecure = 0x00, secure = 0x01, unknown = 0x02 };

using salt16 = std::array<std::uint8_t, kSaltLen>;
using nonce24 = std::array<std::uint8_t, kNonceLen>;

// The ncryptsec of secret_key. Errors: NIP49_INVALID_LOG_N (outside kMinLogN..kMaxLogN, or no
// memory for it), NIP49_INVALID_KEY_SECURITY (a byte other than 0, 1, 2).
result<std::string> encrypt(const bytes32& secret_key, std::string_view password, unsigned log_n,
                            std::uint8_t key_security_byte, const salt16& salt, const nonce24& nonce);

struct decrypted {
  secret32 secret_key;  // wiped when the value dies
  unsigned log_n = 0;
  std::uint8_t key_security_byte = 0;  // as stored (authenticated; any value is returned)
};

// Errors: those of bech32::decode; BECH32_PREFIX (not "ncryptsec"); NIP49_INVALID_PAYLOAD (not
// 91 bytes); NIP49_UNKNOWN_VERSION (not 0x02); NIP49_INVALID_LOG_N (above max_log_n or below
// kMinLogN, checked before any scrypt work); NIP49_DECRYPT_FAILED (wrong password, or the
// ncryptsec was altered: the two cannot be told apart).
result<decrypted> decrypt(std::string_view ncryptsec, std::string_view password, unsigned max_log_n = kMaxLogN);

}  // namespace nostr::nip49
