// Signing an event with a raw secret key (finalizeEvent), apart from event.cpp so a module whose
// JS signs only through LocalSigner key handles (the built demo page's, cmake/wasm.cmake) links
// without it and the remembered-keypair cache behind it.
#include <emscripten/bind.h>

#include "crypto/secp256k1.hpp"
#include "event_sign.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

// The secret key is in the secret slot (js/core.js putSecret).
int finalize_scratch(std::size_t ser_len) {
  secret32 sk = take_secret();
  auto kp = crypto::keypair::from_secret_remembered(sk.b);
  if (!kp) return fail_code(kp.err());
  return sign_into_scratch(*kp, ser_len);
}

}  // namespace

EMSCRIPTEN_BINDINGS(event_finalize) {
  emscripten::function("finalizeScratch", &finalize_scratch);
}

}  // namespace nostr::bindings
