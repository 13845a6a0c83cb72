#include "nips/nip49.hpp"

#include <cstring>

#include "crypto/aead.hpp"
#include "crypto/scrypt.hpp"
#include "nips/bech32.hpp"

namespace nostr::nip49 {
namespace {

constexpr const char* kHrp = "ncryptsec";
// Offsets in the 91-byte payload.
constexpr std::size_t kLogNAt = 1;
constexpr std::size_t kSaltAt = 2;
constexpr std::size_t kNonceAt = kSaltAt + kSaltLen;      // 18
constexpr std::size_t kSecurityAt = kNonceAt + kNonceLen;  // 42
constexpr std::size_t kSealedAt = kSecurityAt + 1;         // 43: 32 bytes of ciphertext, 16 of tag
static_assert(kSealedAt + 32 + crypto::kPoly1305TagLen == kPayloadLen);

// The symmetric key (49.md: "temporary and should be zeroed and discarded after use").
result<secret32> symmetric_key(std::string_view password, const std::uint8_t* salt, unsigned log_n) {
  secret32 key;
  auto r = crypto::scrypt(as_bytes(password), password.size(), salt, kSaltLen, log_n, 8, 1, key.data(), 32);
  if (!r) return make_error(errc::nip49_invalid_log_n, "not enough memory for scrypt at this log_n");
  return key;
}

result<void> check_log_n(unsigned log_n, unsigned max) {
  if (log_n < kMinLogN || log_n > max)
    return make_error(errc::nip49_invalid_log_n, "log_n must be " + std::to_string(kMinLogN) + " to " + std::to_string(max) +
                                                     " (scrypt needs 2^log_n KiB of memory)");
  return {};
}

}  // namespace

result<std::string> encrypt(const bytes32& secret_key, std::string_view password, unsigned log_n,
                            std::uint8_t key_security_byte, const salt16& salt, const nonce24& nonce) {
  NOSTR_TRY(check_log_n(log_n, kMaxLogN));
  if (key_security_byte > static_cast<std::uint8_t>(key_security::unknown))
    return make_error(errc::nip49_invalid_key_security, "key security byte must be 0, 1 or 2");
  auto key = symmetric_key(password, salt.data(), log_n);
  if (!key) return key.err();
  std::array<std::uint8_t, kPayloadLen> out{};
  out[0] = kVersion;
  out[kLogNAt] = static_cast<std::uint8_t>(log_n);
  std::memcpy(out.data() + kSaltAt, salt.data(), kSaltLen);
  std::memcpy(out.data() + kNonceAt, nonce.data(), kNonceLen);
  out[kSecurityAt] = key_security_byte;
  crypto::xchacha20poly1305_encrypt(out.data() + kSealedAt, secret_key.data(), 32, out.data() + kSecurityAt, 1,
                                    nonce.data(), key->data());
  return bech32::encode(kHrp, out.data(), out.size());  // 162 characters: within bech32::kMaxLength
}

result<decrypted> decrypt(std::string_view ncryptsec, std::string_view password, unsigned max_log_n) {
  auto d = bech32::decode(ncryptsec);
  if (!d) return d.err();
  const bytes& b = d->data;  // ciphertext only: nothing secret to wipe
  if (d->hrp != kHrp) return make_error(errc::bech32_prefix, "expected an ncryptsec");
  if (b.size() != kPayloadLen) return make_error(errc::nip49_invalid_payload, "an ncryptsec holds 91 bytes");
  if (b[0] != kVersion) return make_error(errc::nip49_unknown_version, "unknown ncryptsec version (0x02 is known)");
  const unsigned log_n = b[kLogNAt];
  NOSTR_TRY(check_log_n(log_n, max_log_n < kMaxLogN ? max_log_n : kMaxLogN));
  auto key = symmetric_key(password, b.data() + kSaltAt, log_n);
  if (!key) return key.err();
  decrypted out;
  if (!crypto::xchacha20poly1305_decrypt(out.secret_key.data(), b.data() + kSealedAt, kPayloadLen - kSealedAt,
                                         b.data() + kSecurityAt, 1, b.data() + kNonceAt, key->data()))
    return make_error(errc::nip49_decrypt_failed, "wrong password, or the ncryptsec was altered");
  out.log_n = log_n;
  out.key_security_byte = b[kSecurityAt];
  return out;
}

}  // namespace nostr::nip49
