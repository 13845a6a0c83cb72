// Inputs the gift-wrap bindings (NIP-59 and AGX) read from JS: the clock, random bytes laid out
// as js/nip59.js draws them, and hex public keys. One copy for both, so their layouts cannot drift.
#pragma once
#include <cstdint>
#include <string>

#include "nips/nip59.hpp"
#include "util/result.hpp"

namespace nostr::bindings {

// Random bytes for one wrap: 5 x 32 (one-time key, seal and wrap nonces, seal and wrap aux)
// + 2 x 8 (created_at tweaks). js/nip59.js kWrapRandomBytes.
constexpr std::size_t kWrapRandom = 176;

std::uint64_t read_u64(const std::uint8_t* p);
// `now` from JS: a non-negative integer of seconds within 2^53.
bool read_now(double now, std::int64_t& out);
// Spreads JS's random bytes over the wrap's needs. A one-time key outside the curve order
// (probability ~2^-128) is redrawn rather than reported.
bool read_wrap_randomness(const std::string& in, nip59::wrap_randomness& rnd);
// 64 lowercase hex characters.
bool read_pubkey(const std::string& hex_text, bytes32& out);

error bad_now();
error bad_random();
error disposed();

}  // namespace nostr::bindings
