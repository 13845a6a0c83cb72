// NIP-44 with a raw conversation key or secret key through the scratch buffer (layouts in
// nip44.cpp): encrypt, decrypt and the conversation key, for apps that hold keys as bytes. Apart
// from nip44.cpp (the LocalSigner key-handle variants) so a module whose JS uses only key handles
// (the built demo page's, cmake/wasm.cmake) links without them.
#include <emscripten/bind.h>

#include <cstring>

#include "nip44_scratch.hpp"
#include "nips/nip44.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

int encrypt_scratch(std::size_t n) {
  stack_wipe wipe;
  secret32 ck = take_key(scratch(kEncPlaintext + n));
  return encrypt_scratch_with(ck.b, n);
}

int decrypt_scratch(std::size_t m) {
  stack_wipe wipe;
  secret32 ck = take_key(scratch(kDecPayload + m));
  return decrypt_scratch_with(ck.b, kDecPayload, m);
}

// Scratch holds the secret key at [0,32) and the peer's hex public key at [32,96); the secret
// is read and wiped there (no Embind string copy of it is left in freed heap memory), and the
// conversation key is written to [0,32) for JS to copy out and wipe. Returns 0 or errc.
int conversation_key_scratch() {
  stack_wipe wipe;
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

EMSCRIPTEN_BINDINGS(nip44_secret) {
  emscripten::function("nip44EncryptScratch", &encrypt_scratch);
  emscripten::function("nip44DecryptScratch", &decrypt_scratch);
  emscripten::function("nip44ConversationKeyScratch", &conversation_key_scratch);
}

}  // namespace nostr::bindings
