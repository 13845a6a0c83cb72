// NIP-04 encrypted direct messages (deprecated by NIP-17 and NIP-44; here to read and answer the
// DMs still on the network): the shared secret and the content format. AES-256-CBC itself runs in
// the host (WebCrypto, js/nip04.js): libsodium has no CBC mode, and a constant-time AES of our own
// is not worth its risk for a deprecated NIP.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::nip04 {

constexpr std::size_t kIvSize = 16;
constexpr std::size_t kBlockSize = 16;

using iv16 = std::array<std::uint8_t, kIvSize>;

// The AES-256 key: the x coordinate of sk * P, not hashed (NIP-04 "Note"), P the even-y point
// with x = pub (NIP-04's '02' + pubkey). INVALID_SECRET_KEY, INVALID_PUBLIC_KEY.
result<secret32> shared_key(const bytes32& sk, const bytes32& pub);

struct payload {
  bytes ciphertext;  // a non-empty multiple of kBlockSize bytes (PKCS#7 padded)
  iv16 iv;
};

// "<base64 ciphertext>?iv=<base64 iv>" (NIP-04 "content"), both in canonical padded base64 (RFC
// 4648), the ciphertext whole AES blocks, the IV 16 bytes. NIP04_INVALID_PAYLOAD otherwise.
result<payload> parse_payload(std::string_view content);

// The content for a ciphertext and its IV. NIP04_INVALID_PAYLOAD unless the ciphertext is a
// non-empty multiple of kBlockSize bytes.
result<std::string> format_payload(const std::uint8_t* ciphertext, std::size_t n, const iv16& iv);

}  // namespace nostr::nip04
