// NIP-44 through the scratch buffer: JS writes the UTF-8 plaintext (TextEncoder.encodeInto) or
// the ASCII payload straight into wasm memory, the core works in place, and JS reads the base64
// payload or the plaintext back from the start of the buffer. No large string crosses Embind.
//
// Encrypt layout: [0,32) conversation key (wiped on entry), [32,64) nonce, [64,128) the peer's
// hex public key (handle variant only), plaintext at kEncPlaintext = 167. The raw payload is
// built in place around the plaintext (version and nonce, then the 2- or 6-byte prefix, before
// it; padding and MAC after it), its base64 written after that, then moved to offset 0.
// Decrypt layout: [0,32) conversation key (wiped on entry), payload at 32, decoded in place;
// the plaintext is moved to offset 0. js/nip44.js mirrors these offsets.
#include <emscripten/bind.h>

#include <climits>
#include <cstring>

#include "keys.hpp"
#include "nips/nip44.hpp"
#include "support.hpp"
#include "util/base64.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {
namespace {

constexpr std::size_t kKeyAt = 0;
constexpr std::size_t kNonceAt = 32;
constexpr std::size_t kPeerAt = 64;                         // handle encrypt: peer public key, 64 hex
constexpr std::size_t kEncRawBase = 128;                    // raw payload of a 6-byte prefix starts here
constexpr std::size_t kEncPlaintext = kEncRawBase + 1 + 32 + 6;  // = nip44::plaintext_offset(65536)
constexpr std::size_t kDecPayload = 32;

// Takes the conversation key out of scratch and wipes its copy there.
secret32 take_key(std::uint8_t* s) {
  secret32 ck;
  std::memcpy(ck.data(), s + kKeyAt, 32);
  secure_zero(s + kKeyAt, 32);
  return ck;
}

// Scratch holds n plaintext bytes at kEncPlaintext and the nonce at kNonceAt. JS draws nonces
// (crypto.getRandomValues, pooled): Emscripten 3.1.6's getentropy() makes one JS call per byte,
// which cost more than the whole encryption of 1 KiB. Returns the base64 length (the payload is
// at scratch offset 0), or -errc.
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

int encrypt_scratch(std::size_t n) {
  secret32 ck = take_key(scratch(kEncPlaintext + n));
  return encrypt_scratch_with(ck.b, n);
}

// Scratch holds m payload bytes at `at`. Returns the plaintext length (the plaintext is at
// scratch offset 0), or -errc.
int decrypt_scratch_with(const bytes32& ck, std::size_t at, std::size_t m) {
  std::uint8_t* s = scratch(at + m);
  std::uint8_t* raw = s + at;
  auto raw_len = nip44::decode_payload(as_chars(raw, m), raw);
  if (!raw_len) return -fail_code(raw_len.err());
  auto range = nip44::open(raw, *raw_len, ck);
  if (!range) return -fail_code(range.err());
  if (range->size > INT_MAX) return -fail_code(make_error(errc::nip44_invalid_payload, "plaintext too long"));
  std::memmove(s, raw + range->offset, range->size);
  return static_cast<int>(range->size);
}

int decrypt_scratch(std::size_t m) {
  secret32 ck = take_key(scratch(kDecPayload + m));
  return decrypt_scratch_with(ck.b, kDecPayload, m);
}

bool read_pubkey_hex(const std::uint8_t* s, bytes32& pub) {
  return hex::decode_to(as_chars(s, 64), pub.data(), 32);
}

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

// Scratch holds the secret key at [0,32) and the peer's hex public key at [32,96); the secret
// is read and wiped there (no Embind string copy of it is left in freed heap memory), and the
// conversation key is written to [0,32) for JS to copy out and wipe. Returns 0 or errc.
int conversation_key_scratch() {
  std::uint8_t* s = scratch(96);
  secret32 sk = take_key(s);
  bytes32 pub;
  if (!read_pubkey_hex(s + 32, pub))
    return fail_code(make_error(errc::invalid_public_key, "public key must be 64 hex characters"));
  auto ck = nip44::get_conversation_key(sk.b, pub);
  if (!ck) return fail_code(ck.err());
  std::memcpy(s, ck->data(), 32);
  secure_zero(*ck);
  return 0;
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip44) {
  emscripten::function("nip44EncryptScratch", &encrypt_scratch);
  emscripten::function("nip44DecryptScratch", &decrypt_scratch);
  emscripten::function("nip44KeyEncryptScratch", &key_encrypt_scratch);
  emscripten::function("nip44KeyDecryptScratch", &key_decrypt_scratch);
  emscripten::function("nip44ConversationKeyScratch", &conversation_key_scratch);
}

}  // namespace nostr::bindings
