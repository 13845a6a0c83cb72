// NIP-44 through the scratch buffer: JS writes the UTF-8 plaintext (TextEncoder.encodeInto) or
// the ASCII payload straight into wasm memory, the core works in place, and JS reads the base64
// payload or the plaintext back from the start of the buffer. No large string crosses Embind.
//
// Encrypt layout: [0,32) conversation key (wiped on entry), [32,64) nonce, [64,128) the peer's
// hex public key (handle variant only), plaintext at kEncPlaintext = 167. The raw payload is
// built in place around the plaintext (version and nonce, then the 2- or 6-byte prefix, before
// it; padding and MAC after it), its base64 written after that, then moved to offset 0.
// Decrypt layout: [0,32) conversation key (wiped on entry), payload at 32, decoded in place;
// the plaintext is moved to offset 0. js/nip44.js mirrors these offsets. Here the key-handle
// variants; the raw conversation and secret key ones are in nip44_secret.cpp.
#include <emscripten/bind.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "keys.hpp"
#include "nip44_scratch.hpp"
#include "nips/nip44.hpp"
#include "support.hpp"
#include "util/base64.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {

secret32 take_key(std::uint8_t* s) {
  secret32 ck;
  std::memcpy(ck.data(), s + kKeyAt, 32);
  secure_zero(s + kKeyAt, 32);
  return ck;
}

// JS draws nonces (crypto.getRandomValues, pooled): Emscripten 3.1.6's getentropy() makes one JS
// call per byte, which cost more than the whole encryption of 1 KiB.
int encrypt_scratch_with(const bytes32& ck, std::size_t n) {
  auto raw_len = nip44::raw_len(n);
  if (!raw_len) return -fail_code(raw_len.err());
  const std::size_t b64_len = base64::encoded_len(*raw_len);
  if (b64_len > INT_MAX) return -fail_code(make_error(errc::nip44_invalid_plaintext_length, "plaintext too long"));
  // The raw payload ends at raw_at + raw_len; its base64 goes right after it.
  const std::size_t raw_at = kEncRawBase + 6 - nip44::prefix_len(n);
  const std::size_t out_at = raw_at + *raw_len;
  std::uint8_t* s = scratch(out_at + b64_len);  // may move the buffer (contents are kept)
  bytes32 nonce;
  std::memcpy(nonce.data(), s + kNonceAt, 32);
  auto sealed = nip44::seal(s + raw_at, n, ck, nonce);
  if (!sealed) return -fail_code(sealed.err());
  base64::encode_to(s + raw_at, *raw_len, reinterpret_cast<char*>(s + out_at));
  std::memmove(s, s + out_at, b64_len);
  return static_cast<int>(b64_len);
}

int decrypt_scratch_with(const bytes32& ck, std::size_t at, std::size_t m) {
  std::uint8_t* s = scratch(at + m);
  std::uint8_t* raw = s + at;
  auto raw_len = nip44::decode_payload(as_chars(raw, m), raw);
  if (!raw_len) return -fail_code(raw_len.err());
  auto range = nip44::open(raw, *raw_len, ck);
  if (!range) return -fail_code(range.err());
  if (range->size > INT_MAX) return -fail_code(make_error(errc::nip44_invalid_payload, "plaintext too long"));
  const std::size_t from = at + range->offset;
  std::memmove(s, s + from, range->size);
  // The one copy left is at offset 0, for JS to read and wipe: the rest of the source goes now.
  const std::size_t keep = std::max(range->size, from);
  secure_zero(s + keep, from + range->size - keep);
  return static_cast<int>(range->size);
}

bool read_pubkey_hex(const std::uint8_t* s, bytes32& pub) {
  return hex::decode_to(as_chars(s, 64), pub.data(), 32);
}

namespace {

// Handle variants: the peer's public key as 64 hex characters at kPeerAt for encrypt and at
// [0,64) for decrypt, instead of a conversation key, which comes from the handle's cache and
// never leaves wasm memory.
int key_encrypt_scratch(int handle, std::size_t n) {
  bytes32 peer;
  if (!read_pubkey_hex(scratch(kEncPlaintext + n) + kPeerAt, peer))
    return -fail_code(make_error(errc::invalid_public_key, "public key must be 64 hex characters"));
  auto ck = conversation_key_for_handle(handle, peer);
  if (!ck) return -fail_code(ck.err());
  return encrypt_scratch_with(**ck, n);
}

// Payload at offset 64, after the peer's public key.
int key_decrypt_scratch(int handle, std::size_t m) {
  bytes32 peer;
  if (!read_pubkey_hex(scratch(64 + m), peer))
    return -fail_code(make_error(errc::invalid_public_key, "public key must be 64 hex characters"));
  auto ck = conversation_key_for_handle(handle, peer);
  if (!ck) return -fail_code(ck.err());
  return decrypt_scratch_with(**ck, 64, m);
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip44) {
  emscripten::function("nip44KeyEncryptScratch", &key_encrypt_scratch);
  emscripten::function("nip44KeyDecryptScratch", &key_decrypt_scratch);
}

}  // namespace nostr::bindings
