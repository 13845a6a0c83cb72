#include "crypto/scrypt.hpp"

#include <sodium/crypto_pwhash_scryptsalsa208sha256.h>

#include "util/bytes.hpp"

namespace nostr::crypto {

result<void> scrypt(const std::uint8_t* password, std::size_t password_len, const std::uint8_t* salt,
                    std::size_t salt_len, unsigned log_n, std::uint32_t r, std::uint32_t p, std::uint8_t* out,
                    std::size_t out_len) {
  if (log_n == 0 || log_n > 63) return make_error(errc::invalid_argument, "scrypt: log_n must be 1 to 63");
  // libsodium wants a non-null pointer even for an empty password or salt.
  static const std::uint8_t kEmpty = 0;
  if (crypto_pwhash_scryptsalsa208sha256_ll(password_len ? password : &kEmpty, password_len, salt_len ? salt : &kEmpty,
                                            salt_len, std::uint64_t{1} << log_n, r, p, out, out_len) != 0) {
    secure_zero(out, out_len);
    return make_error(errc::invalid_argument, "scrypt: parameters refused, or not enough memory");
  }
  return {};
}

}  // namespace nostr::crypto
