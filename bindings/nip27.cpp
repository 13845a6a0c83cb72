// NIP-27 glue: the core scans content for references (and hashtags, URL candidates and emoji);
// js/nip27.js makes nostr-tools' blocks. Offsets are UTF-16 code units, as JS strings index them.
#include <emscripten/bind.h>

#include "event/event_reader.hpp"
#include "nip19_val.hpp"
#include "nips/nip27.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

// A reference's pointer as nostr-tools' nip27 gives it: {pubkey} for an npub, {id} for a note,
// the decoded data for the others.
val pointer(const nip19::entity& e) {
  if (const auto* p = std::get_if<nip19::npub>(&e)) {
    val o = val::object();
    o.set("pubkey", nip19_data(*p));
    return o;
  }
  if (const auto* n = std::get_if<nip19::note>(&e)) {
    val o = val::object();
    o.set("id", nip19_data(*n));
    return o;
  }
  return nip19_data(e);
}

// Counts UTF-16 code units from byte `from` to byte `to` of UTF-8 text (a 4-byte sequence is a
// surrogate pair; Embind writes a lone surrogate as one 3-byte sequence).
std::size_t utf16_units(const std::string& s, std::size_t from, std::size_t to) {
  std::size_t units = 0;
  for (std::size_t i = from; i < to; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xc0) != 0x80) units += c >= 0xf0 ? 2 : 1;
  }
  return units;
}

// [[kind, start, end, data], ...]: kind 0 reference (data: the pointer), 1 http(s) URL and 2 ws(s)
// URL candidates, 3 hashtag, 4 emoji (data: {shortcode, url}). Text is what lies between.
// emoji_tags: JSON text of the event's tags, or "" for none.
val scan(const std::string& content, const std::string& emoji_tags) {
  std::vector<nip27::emoji> emojis;
  if (!emoji_tags.empty()) {
    auto tags = read_tag_list(emoji_tags);
    if (!tags) return fail(tags.err());
    emojis = nip27::emojis_of(*tags);
  }
  auto blocks = nip27::scan(content, emojis);
  val out = val::array();
  std::size_t byte = 0, unit = 0;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const auto& b = blocks[i];
    std::size_t start = unit + utf16_units(content, byte, b.start);
    std::size_t end = start + utf16_units(content, b.start, b.end);
    byte = b.end;
    unit = end;
    val item = val::array();
    item.set(0, static_cast<int>(b.kind));
    item.set(1, start);
    item.set(2, end);
    if (b.kind == nip27::block_kind::reference) item.set(3, pointer(b.entity));
    if (b.kind == nip27::block_kind::emoji) {
      val e = val::object();
      e.set("shortcode", emojis[b.emoji].shortcode);
      e.set("url", emojis[b.emoji].url);
      item.set(3, e);
    }
    out.set(i, item);
  }
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip27) { emscripten::function("nip27Scan", &scan); }

}  // namespace nostr::bindings
