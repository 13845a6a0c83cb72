// NIP-59 sealing with a raw secret key (createSeal, for a rumor whose author's key the app holds
// as bytes), apart from nip59.cpp so a module whose JS seals only through LocalSigner key handles
// or an external signer (the built demo page's, cmake/wasm.cmake) links without it.
#include <emscripten/bind.h>

#include <cstring>

#include "crypto/secp256k1.hpp"
#include "event/event.hpp"
#include "nips/nip44.hpp"
#include "nips/nip59.hpp"
#include "support.hpp"
#include "wrap_inputs.hpp"

namespace nostr::bindings {
namespace {

// Layout of the random bytes JS passes to a seal: nonce(32) aux(32) tweak(8) (a wrap's:
// kWrapRandom in wrap_inputs.hpp).
constexpr std::size_t kSealRandom = 72;

// The author's secret key is in the secret slot.
val create_seal(const std::string& rumor_json, const std::string& recipient_hex, double now_s,
                const std::string& random) {
  secret32 sk = take_secret();
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  if (random.size() != kSealRandom) return fail(bad_random());
  auto rumor = nip59::parse_rumor(rumor_json);
  if (!rumor) return fail(rumor.err());
  bytes32 recipient{};
  if (!read_pubkey(recipient_hex, recipient))
    return fail(make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters"));
  auto author = crypto::keypair::from_secret_remembered(sk.b);
  if (!author) return fail(author.err());
  auto ck = nip44::get_conversation_key(sk.b, recipient);
  if (!ck) return fail(ck.err());
  secret32 conv(*ck);
  secure_zero(*ck);
  const auto* p = as_bytes(random);
  bytes32 nonce{}, aux{};
  std::memcpy(nonce.data(), p, 32);
  std::memcpy(aux.data(), p + 32, 32);
  auto seal = nip59::create_seal(*rumor, *author, conv.b, nonce, aux, nip59::random_past(now, read_u64(p + 64)));
  if (!seal) return fail(seal.err());
  return val(to_json(*seal));
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip59_seal) {
  emscripten::function("nip59CreateSeal", &create_seal);
}

}  // namespace nostr::bindings
