// NIP-49 through the secret slot and the scratch buffer: the password (UTF-8, already NFKC) is
// written by JS at scratch offset 0 and wiped here after use; encrypt takes the secret key from
// the secret slot (js/core.js putSecret) and returns the ncryptsec (public text) as a string;
// decrypt writes the secret key to scratch [0,32) for JS to copy out and wipe, and returns
// log_n | key_security_byte << 8, or -errc. Salt and nonce come from the platform CSPRNG.
#include <emscripten/bind.h>

#include <algorithm>
#include <cstring>

#include "nips/nip49.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

// The password's bytes in scratch, wiped when the call ends (on every path).
struct scratch_password {
  std::uint8_t* p;
  std::size_t n;
  ~scratch_password() { secure_zero(p, n); }
  std::string_view view() const { return as_chars(p, n); }
};

val encrypt_scratch(std::size_t password_len, unsigned log_n, unsigned key_security_byte) {
  stack_wipe wipe;
  secret32 sk = take_secret();
  scratch_password pw{scratch(password_len), password_len};
  if (key_security_byte > 0xff)
    return fail(make_error(errc::nip49_invalid_key_security, "key security byte must be 0, 1 or 2"));
  nip49::salt16 salt;
  nip49::nonce24 nonce;
  random_fill(salt.data(), salt.size());
  random_fill(nonce.data(), nonce.size());
  auto out = nip49::encrypt(sk.b, pw.view(), log_n, static_cast<std::uint8_t>(key_security_byte), salt, nonce);
  if (!out) return fail(out.err());
  return val(*out);
}

int decrypt_scratch(const std::string& ncryptsec, std::size_t password_len, unsigned max_log_n) {
  stack_wipe wipe;
  auto d = [&] {
    scratch_password pw{scratch(std::max<std::size_t>(password_len, 32)), password_len};
    return nip49::decrypt(ncryptsec, pw.view(), max_log_n);
  }();
  if (!d) return -fail_code(d.err());
  std::memcpy(scratch(32), d->secret_key.data(), 32);
  return static_cast<int>(d->log_n | (unsigned{d->key_security_byte} << 8));
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip49) {
  emscripten::function("nip49EncryptScratch", &encrypt_scratch);
  emscripten::function("nip49DecryptScratch", &decrypt_scratch);
}

}  // namespace nostr::bindings
