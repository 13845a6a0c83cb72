// NIP-10 glue: the core reads the tags; the result has nostr-tools' nip10.parse shape.
#include <emscripten/bind.h>

#include "event/event_reader.hpp"
#include "nips/nip10.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

val strings(const std::vector<std::string>& v) {
  val a = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) a.set(i, v[i]);
  return a;
}

// {id, relays, author} with author present as a key even when absent (as nostr-tools has it).
val event_pointer(const nip10::event_pointer& p) {
  val o = val::object();
  o.set("id", p.id);
  o.set("relays", strings(p.relays));
  o.set("author", p.author ? val(*p.author) : val::undefined());
  return o;
}

// An event quote is {id, relays} (author only when the tag names one); an address quote
// {identifier, pubkey, kind, relays}, as nip19 decodes an naddr.
val quote(const nip10::quote& q) {
  val o = val::object();
  if (q.event) {
    o.set("id", q.event->id);
    o.set("relays", strings(q.event->relays));
    if (q.event->author) o.set("author", *q.event->author);
  } else {
    o.set("identifier", q.address->identifier);
    o.set("pubkey", q.address->pubkey);
    o.set("kind", q.address->kind);
    o.set("relays", strings(q.address->relays));
  }
  return o;
}

// tags: JSON text of the event's tags. {reply, root, mentions, profiles, quotes}.
val parse(const std::string& tags_json) {
  auto tags = read_tag_list(tags_json);
  if (!tags) return fail(tags.err());
  nip10::thread t = nip10::parse(*tags);
  val mentions = val::array(), profiles = val::array(), quotes = val::array();
  for (std::size_t i = 0; i < t.mentions.size(); ++i) mentions.set(i, event_pointer(t.mentions[i]));
  for (std::size_t i = 0; i < t.profiles.size(); ++i) {
    val p = val::object();
    p.set("pubkey", t.profiles[i].pubkey);
    p.set("relays", strings(t.profiles[i].relays));
    profiles.set(i, p);
  }
  for (std::size_t i = 0; i < t.quotes.size(); ++i) quotes.set(i, quote(t.quotes[i]));
  val o = val::object();
  o.set("reply", t.reply ? event_pointer(*t.reply) : val::undefined());
  o.set("root", t.root ? event_pointer(*t.root) : val::undefined());
  o.set("mentions", mentions);
  o.set("profiles", profiles);
  o.set("quotes", quotes);
  return o;
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip10) { emscripten::function("nip10Parse", &parse); }

}  // namespace nostr::bindings
