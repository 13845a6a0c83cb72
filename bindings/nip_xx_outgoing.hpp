// NIP-XX glue shared by both sides: an outgoing event as a {kind, tags, plaintext} object.
#pragma once
#include <emscripten/val.h>

#include "protocols/nip_xx/outgoing.hpp"
#include "support.hpp"

namespace nostr::bindings {

// {kind, tags, plaintext}, or undefined with the error recorded.
inline emscripten::val outgoing_val(const result<nip_xx::outgoing>& r) {
  using emscripten::val;
  if (!r) return fail(r.err());
  val o = val::object();
  o.set("kind", static_cast<int>(r->k));
  val tags = val::array();
  for (const auto& t : r->tags) {
    val tv = val::array();
    for (const auto& s : t) tv.call<void>("push", s);
    tags.call<void>("push", tv);
  }
  o.set("tags", tags);
  o.set("plaintext", r->plaintext);
  return o;
}

}  // namespace nostr::bindings
