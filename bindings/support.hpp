// Shared conventions of the Embind glue (the only code that knows about Emscripten).
//
// Errors: a binding that fails records the error with fail() and returns undefined (or a non-zero
// code); the JS side then reads lastError() and throws a NostrError. No C++ exception crosses.
// Bytes in: std::string (Embind copies a Uint8Array's raw bytes into it). Bytes out: a fresh
// Uint8Array copy (returning std::string would UTF-8-decode binary data).
// Hot paths exchange data through a scratch buffer in wasm memory that JS fills directly.
#pragma once
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::bindings {

using emscripten::val;

// Records err as the last error; returns undefined for the binding to return.
val fail(const error& err);
int fail_code(const error& err);  // same, returning the numeric code

// Copies n bytes into a new JS Uint8Array.
val to_uint8array(const std::uint8_t* p, std::size_t n);
template <std::size_t N>
val to_uint8array(const std::array<std::uint8_t, N>& a) { return to_uint8array(a.data(), N); }

// Reads exactly 32 bytes from a std::string holding a Uint8Array's bytes.
bool read32(const std::string& in, bytes32& out);

// Fresh random bytes from the platform CSPRNG: one crypto.getRandomValues call per 64 KiB
// (Emscripten 3.1.6's getentropy() makes one JS call per byte).
bytes32 random32();
// 32 bytes of BIP-340 aux randomness from a pooled CSPRNG draw (support.cpp).
bytes32 aux_random32();
void random_fill(std::uint8_t* p, std::size_t n);

// Secret keys cross into wasm through one fixed 32-byte slot, never as an Embind std::string
// (whose heap copy is freed unwiped): JS writes the key there (js/core.js putSecret), and the
// binding takes it out, wiping the slot.
secret32 take_secret();

// The scratch buffer: grows to at least n bytes; its address is valid until the next grow. A
// grow wipes the old buffer before freeing it.
std::uint8_t* scratch(std::size_t n);

// Zeroes the n bytes of wasm stack below the caller's frame: what the functions it called left
// there when they returned (secrets in their locals, temporaries of values returned by copy,
// libsecp256k1's scalars). Cheap next to the curve arithmetic that leaves them.
void wipe_stack_below(std::size_t n);

// Declared first in a binding that handles a secret: on the way out, after every other local
// (secret32s wipe themselves), the stack its callees used is zeroed too.
struct stack_wipe {
  static constexpr std::size_t kBytes = 32 * 1024;
  stack_wipe() = default;
  stack_wipe(const stack_wipe&) = delete;
  stack_wipe& operator=(const stack_wipe&) = delete;
  ~stack_wipe() { wipe_stack_below(kBytes); }
};

}  // namespace nostr::bindings
