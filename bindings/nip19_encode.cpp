// NIP-19 encoders of note, nprofile, nevent, naddr and raw bech32, taking hex / plain JS values.
// Apart from nip19.cpp so a module whose JS never calls them (the built demo page's,
// cmake/wasm.cmake) links without them.
#include <emscripten/bind.h>

#include <cmath>

#include "nips/bech32.hpp"
#include "nips/nip19.hpp"
#include "support.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {
namespace {

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

val encode_note(const std::string& id_hex) {
  auto id = hex::decode32(id_hex);
  if (!id) return fail(id.err());
  return val(nip19::encode_note(*id));
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

}  // namespace

EMSCRIPTEN_BINDINGS(nip19_encode) {
  emscripten::function("nip19EncodeNote", &encode_note);
  emscripten::function("nip19EncodeNprofile", &encode_nprofile);
  emscripten::function("nip19EncodeNevent", &encode_nevent);
  emscripten::function("nip19EncodeNaddr", &encode_naddr);
  emscripten::function("nip19EncodeBytes", &encode_bytes);
}

}  // namespace nostr::bindings
