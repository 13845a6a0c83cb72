// NIP-04 glue: the core gives js/nip04.js the AES key (ECDH) and reads and writes the content
// format; js/nip04.js runs AES-256-CBC through WebCrypto and wipes its copy of the key.
#include <emscripten/bind.h>

#include "nips/nip04.hpp"
#include "support.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {
namespace {

// The 32-byte AES key for the secret key in the secret slot and a hex public key.
val shared_key(const std::string& pub_hex) {
  secret32 sk = take_secret();
  bytes32 pub{};
  if (!hex::decode_to(pub_hex, pub.data(), 32) || pub_hex.size() != 64)
    return fail(make_error(errc::invalid_public_key, "public key must be 64 hex characters"));
  auto key = nip04::shared_key(sk.b, pub);
  if (!key) return fail(key.err());
  return to_uint8array(key->b);
}

val format_payload(const std::string& ciphertext, const std::string& iv) {
  nip04::iv16 v{};
  if (iv.size() != v.size()) return fail(make_error(errc::invalid_argument, "the NIP-04 iv is 16 bytes"));
  std::copy(iv.begin(), iv.end(), v.begin());
  auto out = nip04::format_payload(reinterpret_cast<const std::uint8_t*>(ciphertext.data()), ciphertext.size(), v);
  if (!out) return fail(out.err());
  return val(*out);
}

// {ciphertext: Uint8Array, iv: Uint8Array}
val parse_payload(const std::string& content) {
  auto p = nip04::parse_payload(content);
  if (!p) return fail(p.err());
  val o = val::object();
  o.set("ciphertext", to_uint8array(p->ciphertext.data(), p->ciphertext.size()));
  o.set("iv", to_uint8array(p->iv));
  return o;
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip04) {
  emscripten::function("nip04SharedKey", &shared_key);
  emscripten::function("nip04FormatPayload", &format_payload);
  emscripten::function("nip04ParsePayload", &parse_payload);
}

}  // namespace nostr::bindings
