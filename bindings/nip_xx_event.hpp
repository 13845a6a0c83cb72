// NIP-XX glue shared by both sides: a received event read from the JS object that already holds
// it (the pool parsed and verified it; nip59 opened a rumor), so nothing on the NIP-XX path
// serializes an event to JSON or parses it again. Structure is checked (hex ids, integer kind and
// created_at, tags of strings); the signature was checked where the event came in.
#pragma once
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <vector>

#include "event/event.hpp"
#include "util/hex.hpp"
#include "util/result.hpp"

namespace nostr::bindings {

// with_content: copy `content` and `sig` too (the client run reads only the routing fields and
// takes the decrypted plaintext apart; the agent's inbox keeps a held cancel whole).
inline result<event> event_of(const emscripten::val& o, bool with_content) {
  using emscripten::val;
  auto bad = [](const char* why) { return make_error(errc::invalid_event, why); };
  if (o.isNull() || o.typeOf().as<std::string>() != "object") return bad("the event is not an object");
  event e;
  val id = o["id"], pubkey = o["pubkey"], created = o["created_at"], kind = o["kind"], tags = o["tags"];
  if (!id.isString() || !pubkey.isString()) return bad("id and pubkey must be strings");
  e.id = id.as<std::string>();
  e.pubkey = pubkey.as<std::string>();
  if (!hex::is_lower_hex(e.id, 32) || !hex::is_lower_hex(e.pubkey, 32))
    return bad("id and pubkey must be 64 lowercase hex characters");
  if (!created.isNumber() || !kind.isNumber()) return bad("created_at and kind must be numbers");
  double c = created.as<double>(), k = kind.as<double>();
  if (!(c >= 0 && c < 9.0e15 && std::floor(c) == c)) return bad("created_at must be a non-negative integer");
  if (!(k >= 0 && k <= 65535 && std::floor(k) == k)) return bad("kind must be an integer from 0 to 65535");
  e.created_at = static_cast<std::int64_t>(c);
  e.kind = static_cast<std::int64_t>(k);
  if (!tags.isArray()) return bad("tags must be an array");
  const unsigned n = tags["length"].as<unsigned>();
  e.tags.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    val t = tags[i];
    if (!t.isArray()) return bad("each tag must be an array of strings");
    const unsigned m = t["length"].as<unsigned>();
    std::vector<std::string> tag;
    tag.reserve(m);
    for (unsigned j = 0; j < m; ++j) {
      val s = t[j];
      if (!s.isString()) return bad("each tag must be an array of strings");
      tag.push_back(s.as<std::string>());
    }
    e.tags.push_back(std::move(tag));
  }
  if (with_content) {
    val content = o["content"], sig = o["sig"];
    if (!content.isString()) return bad("content must be a string");
    e.content = content.as<std::string>();
    if (sig.isString()) e.sig = sig.as<std::string>();
  }
  return e;
}

// The event as a plain JS object (a held cancel handed back to the driver).
inline emscripten::val event_val(const event& e) {
  using emscripten::val;
  val o = val::object();
  o.set("id", e.id);
  o.set("pubkey", e.pubkey);
  o.set("created_at", static_cast<double>(e.created_at));
  o.set("kind", static_cast<double>(e.kind));
  val tags = val::array();
  for (const auto& t : e.tags) {
    val tv = val::array();
    for (const auto& s : t) tv.call<void>("push", s);
    tags.call<void>("push", tv);
  }
  o.set("tags", tags);
  o.set("content", e.content);
  o.set("sig", e.sig);
  return o;
}

}  // namespace nostr::bindings
