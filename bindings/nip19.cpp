// NIP-19 glue: decode builds the result object in nostr-tools' shape ({type, data}) so
// js/nip19.js only validates arguments; npub and nsec encoders here, the others (note, nprofile,
// nevent, naddr, raw bech32) in nip19_encode.cpp.
#include <emscripten/bind.h>

#include "nip19_val.hpp"
#include "nips/nip19.hpp"
#include "support.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {
namespace {

val hex_val(const bytes32& b) { return val(hex::encode(b)); }

val strings_val(const std::vector<std::string>& v) {
  val a = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) a.set(i, val(v[i]));
  return a;
}

val encode_npub(const std::string& pub_hex) {
  auto pub = hex::decode32(pub_hex);
  if (!pub) return fail(pub.err());
  return val(nip19::encode_npub(*pub));
}

// The secret key is in the secret slot (js/core.js putSecret).
val encode_nsec() {
  secret32 sk = take_secret();
  std::string s = nip19::encode_nsec(sk.b);
  val out(s);
  secure_zero(s);
  return out;
}

// {type, data} exactly as nostr-tools' decode returns it.
val decode(std::string s) {
  auto d = nip19::decode(s);
  secure_zero(s);  // it may be an nsec
  if (!d) return fail(d.err());
  val out = val::object();
  out.set("type", val(nip19::prefix_of(*d)));
  out.set("data", nip19_data(*d));
  return out;
}

}  // namespace

val nip19_data(const nip19::entity& e) {
  struct visitor {
    val operator()(const nip19::npub& v) const { return hex_val(v.pubkey); }
    val operator()(const nip19::nsec& v) const { return to_uint8array(v.secret_key.b); }
    val operator()(const nip19::note& v) const { return hex_val(v.id); }
    val operator()(const nip19::nprofile& v) const {
      val o = val::object();
      o.set("pubkey", hex_val(v.pubkey));
      o.set("relays", strings_val(v.relays));
      return o;
    }
    val operator()(const nip19::nevent& v) const {
      // author and kind are present as keys even when absent, like nostr-tools.
      val o = val::object();
      o.set("id", hex_val(v.id));
      o.set("relays", strings_val(v.relays));
      o.set("author", v.author ? hex_val(*v.author) : val::undefined());
      o.set("kind", v.kind ? val(*v.kind) : val::undefined());
      return o;
    }
    val operator()(const nip19::naddr& v) const {
      val o = val::object();
      o.set("identifier", val(v.identifier));
      o.set("pubkey", hex_val(v.pubkey));
      o.set("kind", val(v.kind));
      o.set("relays", strings_val(v.relays));
      return o;
    }
  };
  return std::visit(visitor{}, e);
}

EMSCRIPTEN_BINDINGS(nip19) {
  emscripten::function("nip19Decode", &decode);
  emscripten::function("nip19EncodeNpub", &encode_npub);
  emscripten::function("nip19EncodeNsec", &encode_nsec);
}

}  // namespace nostr::bindings
