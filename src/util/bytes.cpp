#include "util/bytes.hpp"

namespace nostr {

void secure_zero(void* p, std::size_t n) {
  volatile std::uint8_t* v = static_cast<volatile std::uint8_t*>(p);
  while (n--) *v++ = 0;
}

}  // namespace nostr
