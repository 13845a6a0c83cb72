#include "keys.hpp"

#include <emscripten/bind.h>

#include <map>
#include <memory>

#include "nips/nip44.hpp"
#include "support.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {
namespace {

// What a handle owns: its keypair, its secret (ECDH needs the scalar) and the NIP-44
// conversation keys derived from it. secret32 and ~keypair wipe themselves on disposal.
struct key_entry {
  explicit key_entry(const crypto::keypair& k, const bytes32& s) : kp(k), sk(s) {}
  crypto::keypair kp;
  secret32 sk;
  std::map<bytes32, secret32> conversations;
};

// Bound on cached conversation keys per handle; past it, one entry is dropped (and wiped).
constexpr std::size_t kMaxConversations = 1024;

std::map<int, std::unique_ptr<key_entry>> g_keys;
int g_next_handle = 1;

int add_key(const crypto::keypair& kp, const bytes32& sk) {
  int h = g_next_handle++;
  g_keys.emplace(h, std::make_unique<key_entry>(kp, sk));
  return h;
}

// The random bytes go straight into the wiped secret32: a bytes32 returned by value would leave a
// copy of the key in this frame of the wasm stack after the call.
val generate_secret_key() {
  stack_wipe wipe;
  secret32 sk;
  for (;;) {
    random_fill(sk.data(), 32);
    if (crypto::secret_key_valid(sk.b)) return to_uint8array(sk.b);
  }
}

// The secret key is in the secret slot (js/core.js putSecret).
val get_public_key() {
  stack_wipe wipe;
  secret32 sk = take_secret();
  auto pub = crypto::xonly_public_key(sk.b);
  if (!pub) return fail(pub.err());
  return val(hex::encode(*pub));
}

bool is_valid_public_key(const std::string& pub_hex) {
  bytes32 pub{};
  return hex::is_lower_hex(pub_hex, 32) && hex::decode_to(pub_hex, pub.data(), 32) &&
         crypto::xonly_public_key_valid(pub);
}

// The secret key is in the secret slot (js/core.js putSecret).
int key_create() {
  stack_wipe wipe;
  secret32 sk = take_secret();
  auto kp = crypto::keypair::from_secret(sk.b);
  if (!kp) return -fail_code(kp.err());
  return add_key(*kp, sk.b);
}

int key_generate() {
  stack_wipe wipe;
  secret32 sk;
  for (;;) {
    random_fill(sk.data(), 32);
    auto kp = crypto::keypair::from_secret(sk.b);
    if (!kp) continue;
    return add_key(*kp, sk.b);
  }
}

// Called once by init(): blinds the signing context with fresh randomness. On WASM the curve
// tables are built by the first verify and the first signature instead (src/crypto), which keeps
// them out of init(); natively they are all built with the context. (Here, not in support.cpp:
// a module without keys, the demo page's NIP-49 one, then links no curve code.)
void prepare() {
  stack_wipe wipe;
  secret32 seed;
  random_fill(seed.data(), 32);
  crypto::seed_context(seed.b);
}

// ~key_entry wipes the keypair, the secret and every cached conversation key.
void key_dispose(int handle) { g_keys.erase(handle); }

val key_public(int handle) {
  const auto* kp = key_for_handle(handle);
  if (!kp) return fail(make_error(errc::invalid_argument, "signer was disposed"));
  return val(hex::encode(kp->public_key()));
}

}  // namespace

const crypto::keypair* key_for_handle(int handle) {
  auto it = g_keys.find(handle);
  return it == g_keys.end() ? nullptr : &it->second->kp;
}

result<const bytes32*> conversation_key_for_handle(int handle, const bytes32& peer) {
  auto it = g_keys.find(handle);
  if (it == g_keys.end()) return make_error(errc::invalid_argument, "signer was disposed");
  key_entry& e = *it->second;
  if (auto c = e.conversations.find(peer); c != e.conversations.end()) return &c->second.b;
  stack_wipe wipe;  // a miss: the ECDH and HKDF below leave the key's traces on the stack
  auto ck = nip44::get_conversation_key(e.sk.b, peer);
  if (!ck) return ck.err();
  if (e.conversations.size() >= kMaxConversations) e.conversations.erase(e.conversations.begin());
  auto& slot = e.conversations[peer];
  slot.b = *ck;
  secure_zero(*ck);
  return &slot.b;
}

result<bytes32> conversation_key_uncached(int handle, const bytes32& peer) {
  auto it = g_keys.find(handle);
  if (it == g_keys.end()) return make_error(errc::invalid_argument, "signer was disposed");
  stack_wipe wipe;
  return nip44::get_conversation_key(it->second->sk.b, peer);
}

EMSCRIPTEN_BINDINGS(keys) {
  emscripten::function("generateSecretKey", &generate_secret_key);
  emscripten::function("getPublicKey", &get_public_key);
  emscripten::function("isValidPublicKey", &is_valid_public_key);
  emscripten::function("keyCreate", &key_create);
  emscripten::function("keyGenerate", &key_generate);
  emscripten::function("keyDispose", &key_dispose);
  emscripten::function("keyPublic", &key_public);
  emscripten::function("prepare", &prepare);
}

}  // namespace nostr::bindings
