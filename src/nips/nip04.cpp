#include "nips/nip04.hpp"

#include "crypto/secp256k1.hpp"
#include "util/base64.hpp"

namespace nostr::nip04 {
namespace {

constexpr std::string_view kIvMarker = "?iv=";

error invalid(const char* d) { return make_error(errc::nip04_invalid_payload, d); }

}  // namespace

result<secret32> shared_key(const bytes32& sk, const bytes32& pub) {
  auto x = crypto::ecdh_xonly(sk, pub);
  if (!x) return x.err();
  secret32 key(*x);
  secure_zero(*x);
  return key;
}

result<payload> parse_payload(std::string_view content) {
  auto at = content.find(kIvMarker);
  if (at == std::string_view::npos) return invalid("NIP-04 content is <base64>?iv=<base64>");
  std::string_view ct = content.substr(0, at);
  std::string_view iv = content.substr(at + kIvMarker.size());
  payload p;
  if (iv.size() != base64::encoded_len(kIvSize) || base64::decoded_len(iv) != kIvSize)
    return invalid("the NIP-04 iv is not 16 bytes of base64");
  auto iv_len = base64::decode_to(iv, p.iv.data());
  if (!iv_len) return invalid("the NIP-04 iv is not 16 bytes of base64");
  std::size_t n = base64::decoded_len(ct);
  if (n == 0 || n % kBlockSize != 0) return invalid("the NIP-04 ciphertext is not whole AES blocks of base64");
  p.ciphertext.resize(n);
  auto got = base64::decode_to(ct, p.ciphertext.data());
  if (!got || *got != n) return invalid("the NIP-04 ciphertext is not whole AES blocks of base64");
  return p;
}

result<std::string> format_payload(const std::uint8_t* ciphertext, std::size_t n, const iv16& iv) {
  if (n == 0 || n % kBlockSize != 0) return invalid("the NIP-04 ciphertext is not whole AES blocks");
  std::string out = base64::encode(ciphertext, n);
  out += kIvMarker;
  out += base64::encode(iv.data(), iv.size());
  return out;
}

}  // namespace nostr::nip04
