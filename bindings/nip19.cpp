// NIP-19 glue: encoders take hex / Uint8Array / plain JS values, decode builds the result object
// in nostr-tools' shape ({type, data}) so js/nip19.js only validates arguments.
#include <emscripten/bind.h>

#include <cmath>

#include "nips/bech32.hpp"
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

// undefined/null -> empty list; otherwise an Array of strings.
result<std::vector<std::string>> read_relays(const val& relays) {
  std::vector<std::string> out;
  if (relays.isUndefined() || relays.isNull()) return out;
  if (!relays.isArray()) return make_error(errc::invalid_argument, "relays must be an array of strings");
  const auto n = relays["length"].as<unsigned>();
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    val r = relays[i];
    if (!r.isString()) return make_error(errc::invalid_argument, "relays must be an array of strings");
    out.push_back(r.as<std::string>());
  }
  return out;
}

// A kind for TLV 3: an integer number in [0, 2^32).
result<std::uint32_t> read_kind(const val& kind) {
  if (!kind.isNumber()) return make_error(errc::invalid_argument, "kind must be a number");
  const double d = kind.as<double>();
  if (!(d >= 0 && d <= 4294967295.0) || std::floor(d) != d)
    return make_error(errc::invalid_argument, "kind must be an integer from 0 to 2^32-1");
  return static_cast<std::uint32_t>(d);
}

val string_or_fail(const result<std::string>& r) { return r ? val(*r) : fail(r.err()); }

val encode_npub(const std::string& pub_hex) {
  auto pub = hex::decode32(pub_hex);
  if (!pub) return fail(pub.err());
  return val(nip19::encode_npub(*pub));
}

val encode_note(const std::string& id_hex) {
  auto id = hex::decode32(id_hex);
  if (!id) return fail(id.err());
  return val(nip19::encode_note(*id));
}

// The secret key is in the secret slot (js/core.js putSecret).
val encode_nsec() {
  secret32 sk = take_secret();
  std::string s = nip19::encode_nsec(sk.b);
  val out(s);
  secure_zero(s);
  return out;
}

val encode_nprofile(const std::string& pub_hex, const val& relays) {
  nip19::nprofile p;
  auto pub = hex::decode32(pub_hex);
  if (!pub) return fail(pub.err());
  p.pubkey = *pub;
  auto r = read_relays(relays);
  if (!r) return fail(r.err());
  p.relays = std::move(*r);
  return string_or_fail(nip19::encode_nprofile(p));
}

// author: hex string or undefined; kind: number or undefined.
val encode_nevent(const std::string& id_hex, const val& relays, const val& author, const val& kind) {
  nip19::nevent e;
  auto id = hex::decode32(id_hex);
  if (!id) return fail(id.err());
  e.id = *id;
  auto r = read_relays(relays);
  if (!r) return fail(r.err());
  e.relays = std::move(*r);
  if (!author.isUndefined()) {
    if (!author.isString()) return fail(make_error(errc::invalid_hex, "author must be a hex string"));
    auto a = hex::decode32(author.as<std::string>());
    if (!a) return fail(a.err());
    e.author = *a;
  }
  if (!kind.isUndefined()) {
    auto k = read_kind(kind);
    if (!k) return fail(k.err());
    e.kind = *k;
  }
  return string_or_fail(nip19::encode_nevent(e));
}

val encode_naddr(const std::string& identifier, const std::string& pub_hex, const val& kind, const val& relays) {
  nip19::naddr a;
  a.identifier = identifier;
  auto pub = hex::decode32(pub_hex);
  if (!pub) return fail(pub.err());
  a.pubkey = *pub;
  auto k = read_kind(kind);
  if (!k) return fail(k.err());
  a.kind = *k;
  auto r = read_relays(relays);
  if (!r) return fail(r.err());
  a.relays = std::move(*r);
  return string_or_fail(nip19::encode_naddr(a));
}

val encode_bytes(const std::string& prefix, const std::string& data) {
  return string_or_fail(bech32::encode(prefix, as_bytes(data), data.size()));
}

// {type, data} exactly as nostr-tools' decode returns it.
val decode(std::string s) {
  auto d = nip19::decode(s);
  secure_zero(s);  // it may be an nsec
  if (!d) return fail(d.err());
  val out = val::object();
  out.set("type", val(nip19::prefix_of(*d)));
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
  out.set("data", std::visit(visitor{}, *d));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip19) {
  emscripten::function("nip19Decode", &decode);
  emscripten::function("nip19EncodeNpub", &encode_npub);
  emscripten::function("nip19EncodeNsec", &encode_nsec);
  emscripten::function("nip19EncodeNote", &encode_note);
  emscripten::function("nip19EncodeNprofile", &encode_nprofile);
  emscripten::function("nip19EncodeNevent", &encode_nevent);
  emscripten::function("nip19EncodeNaddr", &encode_naddr);
  emscripten::function("nip19EncodeBytes", &encode_bytes);
}

}  // namespace nostr::bindings
