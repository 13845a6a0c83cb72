// NIP-27 content from the network (any note's text): the scan ends, and its blocks are ordered, do
// not overlap, lie inside the text and are what they say: a reference is "nostr:" and an entity that
// decodes (never an nsec), a hashtag '#' and word characters, an emoji ":shortcode:" of a given tag.
#include "nips/nip19.hpp"
#include "nips/nip27.hpp"
#include "fuzz_support.hpp"

using namespace nostr;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in = fuzz::text(data, size);
  const std::vector<nip27::emoji> emojis = {{"x", "u"}, {"a_b", "v"}};
  std::size_t prev = 0;
  for (const auto& b : nip27::scan(in, emojis)) {
    FUZZ_CHECK(prev <= b.start && b.start < b.end && b.end <= in.size());
    prev = b.end;
    std::string_view s = in.substr(b.start, b.end - b.start);
    switch (b.kind) {
      case nip27::block_kind::reference: {
        FUZZ_CHECK(s.substr(0, 6) == "nostr:");
        auto e = nip19::decode(s.substr(6));
        FUZZ_CHECK(e.ok() && !std::holds_alternative<nip19::nsec>(*e));
        break;
      }
      case nip27::block_kind::hashtag:
        FUZZ_CHECK(s.size() >= 2 && s[0] == '#');
        break;
      case nip27::block_kind::emoji:
        FUZZ_CHECK(b.emoji < emojis.size() && s == ":" + emojis[b.emoji].shortcode + ":");
        break;
      default:
        FUZZ_CHECK(s.find("://") != std::string_view::npos || s.find(':') != std::string_view::npos);
    }
  }
  return 0;
}
