// NIP-44 version 2, following 44.md ("Version 2", "Encryption", "Decryption") and its extended
// length prefix: plaintexts of 65536 bytes and more carry 00 00 then a u32 (max 2^32 - 1).
#include "nips/nip44.hpp"

#include <cstring>
#include <limits>

#include "crypto/chacha20.hpp"
#include "crypto/hash.hpp"
#include "crypto/secp256k1.hpp"
#include "util/base64.hpp"

namespace nostr::nip44 {
namespace {

constexpr std::uint8_t kSalt[] = {'n', 'i', 'p', '4', '4', '-', 'v', '2'};
constexpr std::size_t kNonceLen = 32;
constexpr std::size_t kMacLen = 32;
constexpr std::size_t kOverhead = 1 + kNonceLen + kMacLen;  // version, nonce, mac

// 64-bit arithmetic: on wasm32, size_t cannot hold the padded size of the largest plaintexts.
std::uint64_t padded_len64(std::uint64_t n) {
  if (n <= 32) return 32;
  // 44.md calc_padded_len: chunks of 32 up to 256 bytes, then an eighth of the next power of two.
  std::uint64_t next_power = 1;
  while (next_power < n) next_power <<= 1;  // smallest power of two >= n, i.e. 1 << (floor(log2(n-1)) + 1)
  std::uint64_t chunk = next_power <= 256 ? 32 : next_power / 8;
  return chunk * ((n - 1) / chunk + 1);
}

std::uint64_t raw_len64(std::uint64_t n) {
  return kOverhead + (n >= kExtendedThreshold ? 6 : 2) + padded_len64(n);
}

// The largest raw payload and its base64 length: a plaintext of kMaxPlaintext bytes.
constexpr std::uint64_t kMaxRawPayload = kOverhead + 6 + (std::uint64_t{1} << 32);
constexpr std::uint64_t kMaxPayload = (kMaxRawPayload + 2) / 3 * 4;

bool fits_size_t(std::uint64_t v) { return v <= std::numeric_limits<std::size_t>::max(); }

}  // namespace

message_keys::~message_keys() {
  secure_zero(chacha_key);
  secure_zero(chacha_nonce);
  secure_zero(hmac_key);
}

result<bytes32> get_conversation_key(const bytes32& sk, const bytes32& pub) {
  // The local key first: when both are bad, the caller's own mistake is the one to report.
  if (!crypto::secret_key_valid(sk))
    return make_error(errc::invalid_secret_key, "secret key is zero or not below the curve order");
  auto shared = crypto::ecdh_xonly(sk, pub);
  if (!shared) return shared.err();
  secret32 x(*shared);
  secure_zero(*shared);
  return crypto::hkdf_extract(kSalt, sizeof kSalt, x.data(), 32);
}

message_keys get_message_keys(const bytes32& conversation_key, const bytes32& nonce) {
  std::uint8_t okm[76];
  crypto::hkdf_expand(conversation_key, nonce.data(), nonce.size(), okm, sizeof okm);
  message_keys k;
  std::memcpy(k.chacha_key.data(), okm, 32);
  std::memcpy(k.chacha_nonce.data(), okm + 32, 12);
  std::memcpy(k.hmac_key.data(), okm + 44, 32);
  secure_zero(okm, sizeof okm);
  return k;
}

result<std::size_t> calc_padded_len(std::size_t unpadded_len) {
  if (unpadded_len < 1 || std::uint64_t{unpadded_len} > kMaxPlaintext)
    return make_error(errc::nip44_invalid_plaintext_length, "plaintext must be 1 to 4294967295 bytes");
  std::uint64_t p = padded_len64(unpadded_len);
  if (!fits_size_t(p)) return make_error(errc::nip44_invalid_plaintext_length, "plaintext too long for this platform");
  return static_cast<std::size_t>(p);
}

result<std::size_t> raw_len(std::size_t n) {
  if (n < 1 || std::uint64_t{n} > kMaxPlaintext)
    return make_error(errc::nip44_invalid_plaintext_length, "plaintext must be 1 to 4294967295 bytes");
  std::uint64_t r = raw_len64(n);
  if (!fits_size_t(r)) return make_error(errc::nip44_invalid_plaintext_length, "plaintext too long for this platform");
  return static_cast<std::size_t>(r);
}

result<std::size_t> seal(std::uint8_t* raw, std::size_t n, const bytes32& conversation_key, const bytes32& nonce) {
  auto total = raw_len(n);
  if (!total) return total.err();
  const std::size_t pre = prefix_len(n);
  const std::size_t body = *total - kOverhead;  // prefix + padded plaintext
  raw[0] = kVersion;
  std::memcpy(raw + 1, nonce.data(), kNonceLen);
  std::uint8_t* p = raw + 1 + kNonceLen;
  // 44.md pad(): u16 big-endian length, or (extended prefix) 00 00 and a u32 big-endian length.
  const std::uint64_t len = n;
  if (pre == 2) {
    p[0] = static_cast<std::uint8_t>(len >> 8);
    p[1] = static_cast<std::uint8_t>(len);
  } else {
    p[0] = 0;
    p[1] = 0;
    p[2] = static_cast<std::uint8_t>(len >> 24);
    p[3] = static_cast<std::uint8_t>(len >> 16);
    p[4] = static_cast<std::uint8_t>(len >> 8);
    p[5] = static_cast<std::uint8_t>(len);
  }
  std::memset(p + pre + n, 0, body - pre - n);
  message_keys k = get_message_keys(conversation_key, nonce);
  crypto::chacha20_xor(p, p, body, k.chacha_nonce.data(), 0, k.chacha_key.data());
  // The MAC covers nonce || ciphertext (44.md hmac_aad with the nonce as AAD), contiguous here.
  bytes32 mac = crypto::hmac_sha256(k.hmac_key.data(), k.hmac_key.size(), raw + 1, kNonceLen + body);
  std::memcpy(p + body, mac.data(), kMacLen);
  return *total;
}

result<std::string> encrypt(std::string_view plaintext, const bytes32& conversation_key, const bytes32& nonce) {
  auto total = raw_len(plaintext.size());
  if (!total) return total.err();
  bytes raw(*total);
  std::memcpy(raw.data() + plaintext_offset(plaintext.size()), plaintext.data(), plaintext.size());
  auto sealed = seal(raw.data(), plaintext.size(), conversation_key, nonce);
  if (!sealed) return sealed.err();
  return base64::encode(raw.data(), raw.size());
}

namespace {

// 44.md decode_payload, first part: checks on the text before any decoding work.
result<void> check_payload_text(std::string_view payload) {
  // '#' flags a future non-base64 encoding: report the version as unsupported, not bad base64.
  if (!payload.empty() && payload[0] == '#')
    return make_error(errc::nip44_unknown_version, "unknown encryption version ('#' flag)");
  if (payload.size() < kMinPayload || std::uint64_t{payload.size()} > kMaxPayload)
    return make_error(errc::nip44_invalid_payload, "payload length outside any valid message");
  return {};
}

}  // namespace

result<std::size_t> decode_payload(std::string_view payload, std::uint8_t* raw) {
  NOSTR_TRY(check_payload_text(payload));
  auto n = base64::decode_to(payload, raw);
  if (!n) return make_error(errc::nip44_invalid_payload, "invalid base64: " + n.err().detail);
  if (*n < kMinRawPayload || std::uint64_t{*n} > kMaxRawPayload)
    return make_error(errc::nip44_invalid_payload, "decoded payload size outside any valid message");
  if (raw[0] != kVersion)
    return make_error(errc::nip44_unknown_version, "unknown encryption version " + std::to_string(raw[0]));
  return *n;
}

result<plaintext_range> open(std::uint8_t* raw, std::size_t raw_len, const bytes32& conversation_key) {
  if (raw_len < kMinRawPayload) return make_error(errc::nip44_invalid_payload, "payload too short");
  if (raw[0] != kVersion)
    return make_error(errc::nip44_unknown_version, "unknown encryption version " + std::to_string(raw[0]));
  bytes32 nonce;
  std::memcpy(nonce.data(), raw + 1, kNonceLen);
  std::uint8_t* ct = raw + 1 + kNonceLen;
  const std::size_t ct_len = raw_len - kOverhead;
  message_keys k = get_message_keys(conversation_key, nonce);
  // 44.md Decryption step 5: MAC first, in constant time; nothing is decrypted unauthenticated.
  bytes32 mac = crypto::hmac_sha256(k.hmac_key.data(), k.hmac_key.size(), raw + 1, kNonceLen + ct_len);
  if (!crypto::equal32(mac.data(), ct + ct_len)) return make_error(errc::nip44_invalid_mac, "invalid MAC");
  crypto::chacha20_xor(ct, ct, ct_len, k.chacha_nonce.data(), 0, k.chacha_key.data());
  // Step 7, unpad: a non-zero u16 is the length; 00 00 announces the extended u32 length, which
  // is only valid for lengths the u16 cannot hold. The padded size must match exactly.
  std::uint64_t n = (std::uint64_t{ct[0]} << 8) | ct[1];
  std::size_t pre = 2;
  if (n == 0) {
    n = (std::uint64_t{ct[2]} << 24) | (std::uint64_t{ct[3]} << 16) | (std::uint64_t{ct[4]} << 8) | ct[5];
    pre = 6;
    if (n < kExtendedThreshold) return make_error(errc::nip44_invalid_padding, "invalid padding");
  }
  if (ct_len != pre + padded_len64(n)) return make_error(errc::nip44_invalid_padding, "invalid padding");
  return plaintext_range{1 + kNonceLen + pre, static_cast<std::size_t>(n)};
}

result<std::string> decrypt(std::string_view payload, const bytes32& conversation_key) {
  NOSTR_TRY(check_payload_text(payload));
  bytes raw(payload.size() / 4 * 3);
  auto n = decode_payload(payload, raw.data());
  if (!n) return n.err();
  auto r = open(raw.data(), *n, conversation_key);
  if (!r) return r.err();
  return std::string(reinterpret_cast<const char*>(raw.data()) + r->offset, r->size);
}

}  // namespace nostr::nip44
