// NIP-05 glue: the core parses identifiers and reads nostr.json bodies; js/nip05.js fetches.
#include <emscripten/bind.h>

#include "nips/nip05.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

// {name, domain, url}
val parse(const std::string& identifier) {
  auto a = nip05::parse(identifier);
  if (!a) return fail(a.err());
  val o = val::object();
  o.set("name", a->name);
  o.set("domain", a->domain);
  o.set("url", nip05::url(*a));
  return o;
}

// {pubkey, relays}
val read_response(const std::string& body, const std::string& name) {
  auto p = nip05::read_response(body, name);
  if (!p) return fail(p.err());
  val relays = val::array();
  for (std::size_t i = 0; i < p->relays.size(); ++i) relays.set(i, p->relays[i]);
  val o = val::object();
  o.set("pubkey", p->pubkey);
  o.set("relays", relays);
  return o;
}

// [[name, pubkey], ...] (js/nip05.js makes the object: a name may be "__proto__")
val read_names(const std::string& body) {
  auto names = nip05::read_names(body);
  if (!names) return fail(names.err());
  val out = val::array();
  std::size_t i = 0;
  for (const auto& [name, pubkey] : *names) {
    val pair = val::array();
    pair.set(0, name);
    pair.set(1, pubkey);
    out.set(i++, pair);
  }
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip05) {
  emscripten::function("nip05Parse", &parse);
  emscripten::function("nip05ReadResponse", &read_response);
  emscripten::function("nip05ReadNames", &read_names);
}

}  // namespace nostr::bindings
