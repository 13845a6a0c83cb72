// NIP-XX glue shared by both sides: an outgoing event as a {kind, tags, plaintext} object, and
// filters as the pool takes them.
#pragma once
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "event/filter.hpp"
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

inline emscripten::val string_array(const std::vector<std::string>& v) {
  emscripten::val a = emscripten::val::array();
  for (const auto& s : v) a.call<void>("push", s);
  return a;
}

// A filter as the pool takes it (a plain object).
inline emscripten::val filter_val(const filter& f) {
  emscripten::val o = emscripten::val::object();
  if (f.kinds) {
    emscripten::val kinds = emscripten::val::array();
    for (auto k : *f.kinds) kinds.call<void>("push", static_cast<double>(k));
    o.set("kinds", kinds);
  }
  if (f.authors) o.set("authors", string_array(*f.authors));
  for (const auto& [letter, values] : f.tags) o.set("#" + letter, string_array(values));
  if (f.since) o.set("since", static_cast<double>(*f.since));
  return o;
}

inline emscripten::val filters_val(const std::vector<filter>& fs) {
  emscripten::val a = emscripten::val::array();
  for (const auto& f : fs) a.call<void>("push", filter_val(f));
  return a;
}

}  // namespace nostr::bindings
