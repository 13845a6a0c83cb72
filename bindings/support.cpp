#include "support.hpp"

#include "crypto/secp256k1.hpp"

#include <emscripten/bind.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace nostr::bindings {
namespace {

error g_last_error{errc::ok, {}};
std::vector<std::uint8_t> g_scratch(1 << 16);

val last_error() {
  val o = val::object();
  o.set("code", std::string(errc_name(g_last_error.code)));
  o.set("message", g_last_error.detail);
  return o;
}

std::uintptr_t scratch_ptr(std::size_t n) { return reinterpret_cast<std::uintptr_t>(scratch(n)); }

// Called once by init(): builds the curve tables and blinds the signing context with fresh
// randomness, so that "ready" means the first operation is as fast as every later one.
void prepare() { crypto::seed_context(random32()); }

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

void random_fill(std::uint8_t* p, std::size_t n) {
  while (n > 0) {
    std::size_t k = n > 256 ? 256 : n;  // getentropy's per-call limit
    if (getentropy(p, k) != 0) __builtin_trap();  // no CSPRNG: never continue without one
    p += k;
    n -= k;
  }
}

bytes32 random32() {
  bytes32 b{};
  random_fill(b.data(), b.size());
  return b;
}

std::uint8_t* scratch(std::size_t n) {
  if (g_scratch.size() < n) g_scratch.resize(n + n / 2);
  return g_scratch.data();
}

EMSCRIPTEN_BINDINGS(support) {
  emscripten::function("lastError", &last_error);
  emscripten::function("errorName", +[](int code) { return std::string(errc_name(static_cast<errc>(code))); });
  emscripten::function("scratch", &scratch_ptr);
  emscripten::function("prepare", &prepare);
}

}  // namespace nostr::bindings
