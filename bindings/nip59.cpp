// NIP-59 glue. Events cross as JSON text: on the hot paths (wrapEvent, unwrapEvent) JS writes it
// into the scratch buffer with TextEncoder.encodeInto (Embind's own string conversion walks the
// text character by character in JS), and results come back as JSON strings for JSON.parse.
// Randomness comes from JS in one crypto.getRandomValues call: Emscripten 3.1.6's getentropy()
// makes one JS call per byte.
// Sealing with a raw secret key (createSeal) is in nip59_seal.cpp.
#include <emscripten/bind.h>

#include <cmath>
#include <cstring>

#include "event/event_reader.hpp"
#include "keys.hpp"
#include "nips/nip44.hpp"
#include "nips/nip59.hpp"
#include "support.hpp"
#include "wrap_inputs.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {
namespace {

// JSON text that JS wrote at the start of the scratch buffer.
std::string_view scratch_text(std::size_t len) { return as_chars(scratch(len), len); }

// {kind, created_at, tags, content} as JSON (JS has checked the field types already), read without
// a JSON tree (event_reader.cpp: same codes and messages as the nlohmann version it replaced).
result<event_template> template_from_json(std::string_view text) { return read_template(text); }

result<tag_list> extra_tags_from_json(const std::string& text) {
  if (text.empty()) return tag_list{};
  auto tl = read_tag_list(text);
  if (!tl) {
    if (tl.err().code == errc::invalid_json) return make_error(errc::invalid_argument, "extra tags are not JSON");
    return make_error(errc::invalid_argument, "extra tags must be an array of arrays of strings");
  }
  return tl;
}

// --- wrap with the author's secret key: template -> rumor -> seal -> wrap, one call.
// The author's secret key is in the secret slot (js/core.js putSecret), taken first so that no
// early return leaves it there.
val wrap_event(std::size_t template_len, const std::string& recipient_hex, double now_s,
               const std::string& extra_tags_json, const std::string& random) {
  secret32 sk = take_secret();
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  nip59::wrap_randomness rnd;
  if (!read_wrap_randomness(random, rnd)) return fail(bad_random());
  auto t = template_from_json(scratch_text(template_len));
  if (!t) return fail(t.err());
  auto extra = extra_tags_from_json(extra_tags_json);
  if (!extra) return fail(extra.err());
  bytes32 recipient{};
  if (!read_pubkey(recipient_hex, recipient))
    return fail(make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters"));
  // Remembered: an author who wraps again skips the point multiplication of their public key.
  auto author = crypto::keypair::from_secret_remembered(sk.b);
  if (!author) return fail(author.err());
  auto ck = nip44::get_conversation_key(sk.b, recipient);
  if (!ck) return fail(ck.err());
  secret32 conv(*ck);
  secure_zero(*ck);
  event rumor = nip59::create_rumor(*t, hex::encode(author->public_key()));
  auto w = nip59::wrap(rumor, *author, conv.b, recipient_hex, now, rnd, *extra);
  if (!w) return fail(w.err());
  return val(to_json(*w));
}

// --- unwrap with the recipient's secret key: wrap JSON -> rumor JSON, one call.
// The recipient's secret key is in the secret slot.
val unwrap_event(std::size_t wrap_len, bool require_recipient_tag, bool verify_wrap) {
  secret32 sk = take_secret();
  auto w = read_event(scratch_text(wrap_len));
  if (!w) return fail(w.err());
  auto out = nip59::unwrap(*w, sk.b, {require_recipient_tag, verify_wrap});
  if (!out) return fail(out.err());
  return val(nip59::rumor_to_json(out->rumor));
}

// --- the same two with a key handle (LocalSigner): the secret never leaves bindings/keys.cpp, and
// its conversation keys come from the handle's cache (a repeat recipient or sender costs no ECDH).

val wrap_event_with_handle(int handle, std::size_t template_len, const std::string& recipient_hex, double now_s,
                           const std::string& extra_tags_json, const std::string& random) {
  const auto* author = key_for_handle(handle);
  if (!author) return fail(disposed());
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  nip59::wrap_randomness rnd;
  if (!read_wrap_randomness(random, rnd)) return fail(bad_random());
  auto t = template_from_json(scratch_text(template_len));
  if (!t) return fail(t.err());
  auto extra = extra_tags_from_json(extra_tags_json);
  if (!extra) return fail(extra.err());
  bytes32 recipient{};
  if (!read_pubkey(recipient_hex, recipient))
    return fail(make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters"));
  auto ck = conversation_key_for_handle(handle, recipient);
  if (!ck) return fail(ck.err());
  event rumor = nip59::create_rumor(*t, hex::encode(author->public_key()));
  auto w = nip59::wrap(rumor, *author, **ck, recipient_hex, now, rnd, *extra);
  if (!w) return fail(w.err());
  return val(to_json(*w));
}

val unwrap_event_with_handle(int handle, std::size_t wrap_len, bool require_recipient_tag, bool verify_wrap) {
  const auto* me = key_for_handle(handle);
  if (!me) return fail(disposed());
  auto w = read_event(scratch_text(wrap_len));
  if (!w) return fail(w.err());
  bytes32 wrap_author{};
  (void)hex::decode_to(w->pubkey, wrap_author.data(), 32);
  // The wrap's key is used once: its conversation key is derived, not cached (it would only push
  // the sender's, which recurs, out of the cache).
  auto provider = [handle, &wrap_author](const bytes32& peer) -> result<bytes32> {
    if (peer == wrap_author) return conversation_key_uncached(handle, peer);
    auto ck = conversation_key_for_handle(handle, peer);
    if (!ck) return ck.err();
    return **ck;
  };
  auto out = nip59::unwrap(*w, provider, hex::encode(me->public_key()), {require_recipient_tag, verify_wrap});
  if (!out) return fail(out.err());
  return val(nip59::rumor_to_json(out->rumor));
}

// --- the steps, for createSeal / createWrap and for signer-driven wraps and unwraps.

val create_wrap(const std::string& seal_json, const std::string& recipient_hex, const std::string& extra_tags_json,
                double now_s, const std::string& random) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  nip59::wrap_randomness rnd;
  if (!read_wrap_randomness(random, rnd)) return fail(bad_random());
  auto seal = nip59::parse_seal(seal_json);  // verified: it may come from an outside signer
  if (!seal) return fail(seal.err());
  auto extra = extra_tags_from_json(extra_tags_json);
  if (!extra) return fail(extra.err());
  bytes32 recipient{};
  if (!read_pubkey(recipient_hex, recipient))
    return fail(make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters"));
  auto key = crypto::keypair::from_secret(rnd.wrap_secret);
  if (!key) return fail(key.err());
  auto ck = nip44::get_conversation_key(rnd.wrap_secret, recipient);
  if (!ck) return fail(ck.err());
  secret32 conv(*ck);
  secure_zero(*ck);
  auto w = nip59::create_wrap(*seal, recipient_hex, *key, conv.b, rnd.wrap_nonce, rnd.wrap_aux,
                              nip59::random_past(now, rnd.wrap_tweak), *extra);
  if (!w) return fail(w.err());
  return val(to_json(*w));
}

// A wrap as received: 0 or an errc (NIP59_NOT_GIFT_WRAP, or NIP-01's verify codes).
int check_wrap(const std::string& wrap_json, bool verify_wrap) {
  auto w = read_event(wrap_json);
  if (!w) return fail_code(w.err());
  auto r = nip59::check_wrap(*w, verify_wrap);
  return r ? 0 : fail_code(r.err());
}

// Decrypted seal JSON -> the checked seal, normalized.
val open_seal_json(const std::string& seal_json) {
  auto seal = nip59::parse_seal(seal_json);
  if (!seal) return fail(seal.err());
  return val(to_json(*seal));
}

// Decrypted rumor JSON -> the checked rumor, normalized. recipient_hex may be empty when
// require_recipient_tag is false.
val open_rumor_json(const std::string& rumor_json, const std::string& seal_pubkey_hex,
                    const std::string& recipient_hex, bool require_recipient_tag) {
  event seal;
  seal.pubkey = seal_pubkey_hex;
  auto rumor = nip59::open_rumor(rumor_json, seal, recipient_hex, {require_recipient_tag});
  if (!rumor) return fail(rumor.err());
  return val(nip59::rumor_to_json(*rumor));
}

// created_at for a seal or wrap made outside the core: now minus up to two days.
double random_past(double now_s, const std::string& random8) {
  std::int64_t now;
  if (!read_now(now_s, now) || random8.size() != 8) return -1;
  return static_cast<double>(nip59::random_past(now, read_u64(as_bytes(random8))));
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip59) {
  emscripten::function("nip59WrapEvent", &wrap_event);
  emscripten::function("nip59UnwrapEvent", &unwrap_event);
  emscripten::function("nip59WrapEventWithHandle", &wrap_event_with_handle);
  emscripten::function("nip59UnwrapEventWithHandle", &unwrap_event_with_handle);
  emscripten::function("nip59CreateWrap", &create_wrap);
  emscripten::function("nip59CheckWrap", &check_wrap);
  emscripten::function("nip59OpenSeal", &open_seal_json);
  emscripten::function("nip59OpenRumor", &open_rumor_json);
  emscripten::function("nip59RandomPast", &random_past);
}

}  // namespace nostr::bindings
