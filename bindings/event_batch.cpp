// verifyEvents (the package's verifyEvents: many events at once, signatures checked in one
// batch). Apart from event.cpp so that a module whose JS never verifies in batches (the demo
// page's core-web, cmake/wasm.cmake) links without it and the batch bookkeeping it reaches.
#include <emscripten/bind.h>

#include <cstring>
#include <memory>
#include <vector>

#include "crypto/hash.hpp"
#include "event/event.hpp"
#include "event_sign.hpp"
#include "support.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {
namespace {

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

}  // namespace

EMSCRIPTEN_BINDINGS(event_batch) {
  emscripten::function("verifyEventsScratch", &verify_events_scratch);
  emscripten::function("verifyEventsError", &verify_events_error);
}

}  // namespace nostr::bindings
