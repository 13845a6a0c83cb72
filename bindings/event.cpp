// NIP-01 hot paths. JS writes the canonical serialization (JSON.stringify of
// [0,pubkey,created_at,kind,tags,content], byte-identical to the core's serialize_for_id) straight
// into the scratch buffer, so no event object crosses the boundary field by field. Signing with a
// raw secret key (finalizeEvent) is in event_finalize.cpp.
#include <emscripten/bind.h>

#include <cstring>
#include <memory>
#include <vector>

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

constexpr const char* kHexFields = "id, pubkey and sig must be lowercase hex of 32, 32 and 64 bytes";
constexpr const char* kIdMismatch = "id is not the hash of the event";
constexpr const char* kBadSignature = "signature does not verify";

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

// verifyEvents: n events checked as verify_scratch checks one, with the signatures checked
// together (crypto::schnorr_verify32_batch). Scratch in (js/core.js writeScratchRecords): n
// little-endian u32 byte lengths, then per event its 256 bytes of id, pubkey and sig hex and its
// serialization.
// Scratch out: n bytes at [0, n), 0 for a valid event, else 1 (its error through
// verifyEventsError(i) until the next batch). Returns 0, or -1 when the lengths overrun `total`.
std::vector<error> g_batch_errors;

int verify_events_scratch(std::size_t n, std::size_t total) {
  if (total < 4 * n) return -1;
  std::uint8_t* s = scratch(total);
  std::vector<crypto::schnorr_check> checks;
  std::vector<std::size_t> at;
  checks.reserve(n);
  at.reserve(n);
  g_batch_errors.assign(n, error{errc::ok, {}});
  std::size_t off = 4 * n;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t len;
    std::memcpy(&len, s + 4 * i, 4);
    if (len < 256 || len > total - off) return -1;
    auto text = [&](std::size_t o, std::size_t k) { return as_chars(s + off + o, k); };
    crypto::schnorr_check c;
    bytes32 claimed{};
    if (!hex::is_lower_hex(text(0, 64), 32) || !hex::is_lower_hex(text(64, 64), 32) ||
        !hex::is_lower_hex(text(128, 128), 64)) {
      g_batch_errors[i] = make_error(errc::invalid_event, kHexFields);
    } else {
      (void)hex::decode_to(text(0, 64), claimed.data(), 32);
      (void)hex::decode_to(text(64, 64), c.pub.data(), 32);
      (void)hex::decode_to(text(128, 128), c.sig.data(), 64);
      c.msg = crypto::sha256(s + off + 256, len - 256);
      if (c.msg != claimed) {
        g_batch_errors[i] = make_error(errc::id_mismatch, kIdMismatch);
      } else {
        checks.push_back(c);
        at.push_back(i);
      }
    }
    off += len;
  }
  std::unique_ptr<bool[]> ok(new bool[checks.size() + 1]);
  crypto::schnorr_verify32_batch(checks.data(), checks.size(), ok.get());
  for (std::size_t j = 0; j < checks.size(); ++j)
    if (!ok[j]) g_batch_errors[at[j]] = make_error(errc::invalid_signature, kBadSignature);
  for (std::size_t i = 0; i < n; ++i) s[i] = g_batch_errors[i].code == errc::ok ? 0 : 1;
  return 0;
}

// Records the error of event i of the last verifyEvents batch as the last error (lastError()).
int verify_events_error(std::size_t i) {
  if (i >= g_batch_errors.size()) return fail_code(make_error(errc::invalid_argument, "no such event in the last batch"));
  return fail_code(g_batch_errors[i]);
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
  emscripten::function("verifyEventsScratch", &verify_events_scratch);
  emscripten::function("verifyEventsError", &verify_events_error);
  emscripten::function("keySignScratch", &key_sign_scratch);
  emscripten::function("hashScratch", &hash_scratch);
}

}  // namespace nostr::bindings
