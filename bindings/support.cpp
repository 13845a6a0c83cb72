#include "support.hpp"

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/stack.h>

#include <cstring>
#include <vector>

namespace nostr::bindings {
namespace {

error g_last_error{errc::ok, {}};
alignas(16) std::uint8_t g_secret_slot[32];
std::vector<std::uint8_t> g_scratch(1 << 16);

val last_error() {
  val o = val::object();
  o.set("code", std::string(errc_name(g_last_error.code)));
  o.set("message", g_last_error.detail);
  return o;
}

std::uintptr_t scratch_ptr(std::size_t n) { return reinterpret_cast<std::uintptr_t>(scratch(n)); }
std::uintptr_t secret_slot_ptr() { return reinterpret_cast<std::uintptr_t>(g_secret_slot); }

}  // namespace

val fail(const error& err) {
  g_last_error = err;
  return val::undefined();
}

int fail_code(const error& err) {
  g_last_error = err;
  return static_cast<int>(err.code);
}

val to_uint8array(const std::uint8_t* p, std::size_t n) {
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(n, p));
}

bool read32(const std::string& in, bytes32& out) {
  if (in.size() != 32) return false;
  std::memcpy(out.data(), in.data(), 32);
  return true;
}

// Returns 0, or -1 when no CSPRNG exists (then nothing may go on: the caller traps).
EM_JS(int, js_random_fill, (std::uint8_t * p, std::size_t n), {
  var c = globalThis.crypto;
  if (!c || !c.getRandomValues) return -1;
  for (var off = 0; off < n; off += 65536) {
    c.getRandomValues(HEAPU8.subarray(p + off, p + Math.min(n, off + 65536)));
  }
  return 0;
});

void random_fill(std::uint8_t* p, std::size_t n) {
  if (n > 0 && js_random_fill(p, n) != 0) __builtin_trap();  // never continue without a CSPRNG
}

bytes32 random32() {
  bytes32 b{};
  random_fill(b.data(), b.size());
  return b;
}

// BIP-340 auxiliary randomness for signatures, drawn from a pool refilled 1 KiB at a time: one
// crypto.getRandomValues call costs about as much as hashing the event, and a signature needs only
// 32 fresh bytes. Each draw is wiped from the pool as it is handed out. Only aux randomness comes
// from here (it hardens the nonce against side channels; the nonce stays a hash of the secret key
// and the message); secret keys and everything else keep calling random32().
bytes32 aux_random32() {
  static std::uint8_t pool[1024];
  static std::size_t used = sizeof pool;
  if (used == sizeof pool) {
    random_fill(pool, sizeof pool);
    used = 0;
  }
  bytes32 b{};
  std::memcpy(b.data(), pool + used, 32);
  secure_zero(pool + used, 32);
  used += 32;
  return b;
}

secret32 take_secret() {
  secret32 sk;
  std::memcpy(sk.data(), g_secret_slot, 32);
  secure_zero(g_secret_slot, 32);
  return sk;
}

// Grown by hand: vector::resize would free the old buffer unwiped, and scratch holds plaintexts,
// keys and passwords on their way in and out.
std::uint8_t* scratch(std::size_t n) {
  if (g_scratch.size() < n) {
    std::vector<std::uint8_t> bigger(n + n / 2);
    std::memcpy(bigger.data(), g_scratch.data(), g_scratch.size());
    secure_zero(g_scratch);
    g_scratch.swap(bigger);  // the old buffer, wiped, is freed with `bigger`
  }
  return g_scratch.data();
}

void wipe_stack_below(std::size_t n) {
  // The stack grows down from emscripten_stack_get_base() to emscripten_stack_get_end(). This
  // function keeps nothing in linear memory itself, so everything below `sp` is free.
  const std::uintptr_t sp = emscripten_stack_get_current() & ~std::uintptr_t{7};
  const std::uintptr_t end = emscripten_stack_get_end();
  const std::uintptr_t lo = (sp - end > n ? sp - n : (end + 7) & ~std::uintptr_t{7});
  volatile std::uint64_t* p = reinterpret_cast<volatile std::uint64_t*>(lo);
  for (std::uintptr_t i = 0, words = (sp - lo) / 8; i < words; ++i) p[i] = 0;
}

EMSCRIPTEN_BINDINGS(support) {
  emscripten::function("lastError", &last_error);
  emscripten::function("scratch", &scratch_ptr);
  emscripten::function("secretSlot", &secret_slot_ptr);
}

}  // namespace nostr::bindings
