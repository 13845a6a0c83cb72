// NIP-01 hot paths. JS writes the canonical serialization (JSON.stringify of
// [0,pubkey,created_at,kind,tags,content], byte-identical to the core's serialize_for_id) straight
// into the scratch buffer, so no event object crosses the boundary field by field. Signing with a
// raw secret key (finalizeEvent) is in event_finalize.cpp, verifyEvents in event_batch.cpp.
#include <emscripten/bind.h>

#include <cstring>

#include "crypto/hash.hpp"
#include "event/event.hpp"
#include "event_sign.hpp"
#include "keys.hpp"
#include "support.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {

// event_sign.hpp
int sign_into_scratch(const crypto::keypair& kp, std::size_t ser_len) {
  if (ser_len < 70) return fail_code(make_error(errc::invalid_argument, "serialization too short"));
  std::uint8_t* s = scratch(ser_len + 128);
  std::uint8_t* ser = s + 128;
  std::memmove(ser, s, ser_len);
  hex::encode_to(kp.public_key().data(), 32, reinterpret_cast<char*>(ser + 4));
  bytes32 id = crypto::sha256(ser, ser_len);
  bytes64 sig = kp.sign32(id, aux_random32());
  std::memcpy(s, kp.public_key().data(), 32);
  std::memcpy(s + 32, id.data(), 32);
  std::memcpy(s + 64, sig.data(), 64);
  return 0;
}

namespace {

// Scratch layout for verify: [0,64) id hex, [64,128) pubkey hex, [128,256) sig hex,
// [256, 256+len) serialization. Returns 0 or an errc value.
int verify_scratch(std::size_t ser_len) {
  const std::uint8_t* s = scratch(256 + ser_len);
  bytes32 claimed{}, pub{};
  bytes64 sig{};
  auto text = [&](std::size_t off, std::size_t n) { return as_chars(s + off, n); };
  if (!hex::is_lower_hex(text(0, 64), 32) || !hex::is_lower_hex(text(64, 64), 32) ||
      !hex::is_lower_hex(text(128, 128), 64))
    return fail_code(make_error(errc::invalid_event, kHexFields));
  (void)hex::decode_to(text(0, 64), claimed.data(), 32);
  (void)hex::decode_to(text(64, 64), pub.data(), 32);
  (void)hex::decode_to(text(128, 128), sig.data(), 64);
  bytes32 id = crypto::sha256(s + 256, ser_len);
  if (id != claimed) return fail_code(make_error(errc::id_mismatch, kIdMismatch));
  if (!crypto::schnorr_verify32(sig, id, pub))
    return fail_code(make_error(errc::invalid_signature, kBadSignature));
  return 0;
}

int key_sign_scratch(int handle, std::size_t ser_len) {
  const auto* kp = key_for_handle(handle);
  if (!kp) return fail_code(make_error(errc::invalid_argument, "signer was disposed"));
  return sign_into_scratch(*kp, ser_len);
}

// sha256 of scratch[0, len), written to scratch[0, 32).
void hash_scratch(std::size_t len) {
  std::uint8_t* s = scratch(len);
  bytes32 h = crypto::sha256(s, len);
  std::memcpy(s, h.data(), 32);
}

}  // namespace

EMSCRIPTEN_BINDINGS(event) {
  emscripten::function("verifyScratch", &verify_scratch);
  emscripten::function("keySignScratch", &key_sign_scratch);
  emscripten::function("hashScratch", &hash_scratch);
}

}  // namespace nostr::bindings
