// Fixed-size byte arrays whose names carry their size, and a helper to wipe secrets.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nostr {

using bytes = std::vector<std::uint8_t>;
using bytes32 = std::array<std::uint8_t, 32>;
using bytes64 = std::array<std::uint8_t, 64>;

// Overwrites memory in a way the optimizer may not remove.
void secure_zero(void* p, std::size_t n);

template <std::size_t N>
void secure_zero(std::array<std::uint8_t, N>& a) { secure_zero(a.data(), N); }
inline void secure_zero(bytes& b) { secure_zero(b.data(), b.size()); }
inline void secure_zero(std::string& s) { secure_zero(s.data(), s.size()); }

// A 32-byte secret that wipes itself when it goes out of scope.
struct secret32 {
  bytes32 b{};
  secret32() = default;
  explicit secret32(const bytes32& v) : b(v) {}
  secret32(const secret32&) = default;
  secret32& operator=(const secret32&) = default;
  ~secret32() { secure_zero(b); }
  const std::uint8_t* data() const { return b.data(); }
  std::uint8_t* data() { return b.data(); }
};

inline std::string_view as_chars(const std::uint8_t* p, std::size_t n) {
  return {reinterpret_cast<const char*>(p), n};
}
inline const std::uint8_t* as_bytes(std::string_view s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

}  // namespace nostr
