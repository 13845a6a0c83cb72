#include "keys.hpp"

#include <emscripten/bind.h>

#include <map>
#include <memory>

#include "support.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {
namespace {

std::map<int, std::unique_ptr<crypto::keypair>> g_keys;
int g_next_handle = 1;

val generate_secret_key() {
  for (;;) {
    secret32 sk(random32());
    if (crypto::secret_key_valid(sk.b)) return to_uint8array(sk.b);
  }
}

val get_public_key(const std::string& sk_bytes) {
  secret32 sk;
  if (!read32(sk_bytes, sk.b)) return fail(make_error(errc::invalid_secret_key, "secret key must be 32 bytes"));
  auto pub = crypto::xonly_public_key(sk.b);
  if (!pub) return fail(pub.err());
  return val(hex::encode(*pub));
}

bool is_valid_public_key(const std::string& pub_hex) {
  bytes32 pub{};
  return hex::is_lower_hex(pub_hex, 32) && hex::decode_to(pub_hex, pub.data(), 32) &&
         crypto::xonly_public_key_valid(pub);
}

int key_create(const std::string& sk_bytes) {
  secret32 sk;
  if (!read32(sk_bytes, sk.b)) return -fail_code(make_error(errc::invalid_secret_key, "secret key must be 32 bytes"));
  auto kp = crypto::keypair::from_secret(sk.b);
  if (!kp) return -fail_code(kp.err());
  int h = g_next_handle++;
  g_keys.emplace(h, std::make_unique<crypto::keypair>(*kp));
  return h;
}

int key_generate() {
  for (;;) {
    secret32 sk(random32());
    auto kp = crypto::keypair::from_secret(sk.b);
    if (!kp) continue;
    int h = g_next_handle++;
    g_keys.emplace(h, std::make_unique<crypto::keypair>(*kp));
    return h;
  }
}

void key_dispose(int handle) { g_keys.erase(handle); }  // ~keypair wipes the secret

val key_public(int handle) {
  const auto* kp = key_for_handle(handle);
  if (!kp) return fail(make_error(errc::invalid_argument, "signer was disposed"));
  return val(hex::encode(kp->public_key()));
}

}  // namespace

const crypto::keypair* key_for_handle(int handle) {
  auto it = g_keys.find(handle);
  return it == g_keys.end() ? nullptr : it->second.get();
}

EMSCRIPTEN_BINDINGS(keys) {
  emscripten::function("generateSecretKey", &generate_secret_key);
  emscripten::function("getPublicKey", &get_public_key);
  emscripten::function("isValidPublicKey", &is_valid_public_key);
  emscripten::function("keyCreate", &key_create);
  emscripten::function("keyGenerate", &key_generate);
  emscripten::function("keyDispose", &key_dispose);
  emscripten::function("keyPublic", &key_public);
}

}  // namespace nostr::bindings
