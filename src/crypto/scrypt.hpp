// scrypt (RFC 7914) on libsodium's portable implementation, whose working memory is wiped before
// it is freed (scrypt_region.c).
#pragma once
#include <cstddef>
#include <cstdint>

#include "util/result.hpp"

namespace nostr::crypto {

// Writes out_len bytes of scrypt(password, salt, N = 2^log_n, r, p) to out. It needs
// 128 * r * 2^log_n bytes of memory for the call. Errors: INVALID_ARGUMENT for parameters scrypt
// refuses (log_n 0 or above 63, r * p too large) or memory that cannot be had; out is zeroed then.
result<void> scrypt(const std::uint8_t* password, std::size_t password_len, const std::uint8_t* salt,
                    std::size_t salt_len, unsigned log_n, std::uint32_t r, std::uint32_t p, std::uint8_t* out,
                    std::size_t out_len);

}  // namespace nostr::crypto
