// NIP-21 glue: a `nostr:` URI, decoded into nip19.decode's shapes (nip19_val.hpp).
#include <emscripten/bind.h>

#include "nip19_val.hpp"
#include "nips/nip21.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

// {type, data}, as nip19.decode gives it.
val parse_uri(const std::string& uri) {
  auto e = nip21::parse(uri);
  if (!e) return fail(e.err());
  val o = val::object();
  o.set("type", val(nip19::prefix_of(*e)));
  o.set("data", nip19_data(*e));
  return o;
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip21) { emscripten::function("nip21Parse", &parse_uri); }

}  // namespace nostr::bindings
