// NIP-27 content scanning: the spec's example and nostr-tools' cases (tests/vectors/nip27.json).
// The vectors' offsets are UTF-16 units; their contents are ASCII, so they are bytes too. URL
// candidates the JS side rejects (no dotted host) are here and not in the vectors' blocks.
#include "nips/nip27.hpp"

#include <gtest/gtest.h>

#include "util/hex.hpp"
#include "test_support.hpp"

using namespace nostr;
using nlohmann::json;

namespace {

nip27::block_kind kind_of(const std::string& type) {
  if (type == "reference") return nip27::block_kind::reference;
  if (type == "relay") return nip27::block_kind::ws_url;
  if (type == "hashtag") return nip27::block_kind::hashtag;
  if (type == "emoji") return nip27::block_kind::emoji;
  return nip27::block_kind::http_url;  // url, image, video, audio
}

std::string pubkey_of(const nip19::entity& e) {
  if (const auto* p = std::get_if<nip19::npub>(&e)) return hex::encode(p->pubkey);
  if (const auto* p = std::get_if<nip19::nprofile>(&e)) return hex::encode(p->pubkey);
  return "";
}

// Every non-text block the vector lists is found, in order, at the same place.
void expect_blocks(const std::string& content, const tag_list& tags, const json& want) {
  auto emojis = nip27::emojis_of(tags);
  auto got = nip27::scan(content, emojis);
  std::size_t k = 0;
  for (const auto& w : want) {
    if (w["type"] == "text") continue;
    while (k < got.size() && got[k].start < w["start"].get<std::size_t>()) {
      EXPECT_TRUE(got[k].kind == nip27::block_kind::http_url) << "unexpected block at " << got[k].start;
      ++k;
    }
    ASSERT_LT(k, got.size()) << w.dump();
    EXPECT_EQ(got[k].kind, kind_of(w["type"].get<std::string>())) << w.dump();
    EXPECT_EQ(got[k].start, w["start"].get<std::size_t>()) << w.dump();
    EXPECT_EQ(got[k].end, w["end"].get<std::size_t>()) << w.dump();
    if (w["type"] == "reference" && w["pointer"].contains("pubkey"))
      EXPECT_EQ(pubkey_of(got[k].entity), w["pointer"]["pubkey"].get<std::string>());
    if (w["type"] == "emoji") EXPECT_EQ(emojis[got[k].emoji].url, w["url"].get<std::string>());
    ++k;
  }
}

}  // namespace

TEST(nip27_test, spec_example_mention) {
  auto v = test::load_vector_json("nip27.json");
  ASSERT_FALSE(v.is_discarded());
  const auto& ex = v["example"];
  expect_blocks(ex["event"]["content"].get<std::string>(), ex["event"]["tags"].get<tag_list>(), ex["blocks"]);
  auto got = nip27::scan(ex["event"]["content"].get<std::string>(), {});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(pubkey_of(got[0].entity), ex["mentioned_pubkey"].get<std::string>());
}

TEST(nip27_test, nostr_tools_cases) {
  auto cases = test::load_vector_json("nip27.json")["nostr_tools"]["cases"];
  ASSERT_EQ(cases.size(), 4u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c["name"].get<std::string>());
    if (c.contains("event"))
      expect_blocks(c["event"]["content"].get<std::string>(), c["event"]["tags"].get<tag_list>(), c["blocks"]);
    else
      expect_blocks(c["content"].get<std::string>(), {}, c["blocks"]);
  }
}

TEST(nip27_test, where_it_reads_differently_from_nostr_tools) {
  const std::string npub = "npub1hpslpc8c5sp3e2nhm2fr7swsfqpys5vyjar5dwpn7e7decps6r8qkcln63";
  // An empty hashtag is text; a long one is one run.
  EXPECT_TRUE(nip27::scan("# x #", {}).empty());
  auto longtag = nip27::scan("#" + std::string(50, 'a') + " b", {});
  ASSERT_EQ(longtag.size(), 1u);
  EXPECT_EQ(longtag[0].end, 51u);
  // An nsec is never a reference, and what follows it is still read.
  auto nsec = nip27::scan("nostr:nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5:ok_1:", {{"ok_1", "u"}});
  ASSERT_EQ(nsec.size(), 1u);
  EXPECT_EQ(nsec[0].kind, nip27::block_kind::emoji);
  // Blocks never overlap: a scheme inside a hashtag starts nothing.
  auto tag = nip27::scan("#nostr:" + npub + " #ws://relay.example.com", {});
  ASSERT_EQ(tag.size(), 2u);
  EXPECT_EQ(tag[0].kind, nip27::block_kind::hashtag);
  EXPECT_EQ(tag[1].kind, nip27::block_kind::hashtag);
  // A ws:// URL starts at its 'w'.
  auto ws = nip27::scan("aws://relay.example.com x", {});
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0].start, 1u);
  // Emoji shortcodes are NIP-30's [A-Za-z0-9_]+: an empty or spaced one names nothing.
  auto emojis = nip27::emojis_of({{"emoji", "", "https://e/x.png"}, {"emoji", "a b", "https://e/y.png"}, {"emoji", "ok_1", "u"}, {"emoji", "short"}});
  ASSERT_EQ(emojis.size(), 1u);
  EXPECT_EQ(emojis[0].shortcode, "ok_1");
  EXPECT_TRUE(nip27::scan(":: :a b:", emojis).empty());
  // A reference ends where its word characters end; a bad checksum is text.
  auto ref = nip27::scan("x nostr:" + npub + ".", {});
  ASSERT_EQ(ref.size(), 1u);
  EXPECT_EQ(ref[0].end, 8 + npub.size());
  EXPECT_TRUE(nip27::scan("nostr:" + npub.substr(0, npub.size() - 1) + "4", {}).empty());
}

TEST(nip27_test, url_ends) {
  auto one = [](const std::string& s) {
    auto b = nip27::scan(s, {});
    return b.size() == 1 ? s.substr(b[0].start, b[0].end - b[0].start) : std::string("<") + std::to_string(b.size()) + ">";
  };
  EXPECT_EQ(one("see https://a.com/x. Next"), "https://a.com/x");
  EXPECT_EQ(one("see https://a.com/x, next"), "https://a.com/x");
  EXPECT_EQ(one("https://a.com/x?y=1!"), "https://a.com/x?y=1");
  EXPECT_EQ(one("https://a.com/x/\nmore"), "https://a.com/x/");
  EXPECT_EQ(one("https://a.com/a.b.c"), "https://a.com/a.b.c");
  EXPECT_EQ(one("(https://a.com/x) y"), "https://a.com/x");
  EXPECT_EQ(one("https://a.com/caf\xc3\xa9 x"), "https://a.com/caf");
  EXPECT_EQ(one("https://a.com/\xe2\x80\xa8x"), "https://a.com/");
  EXPECT_EQ(one("http:"), "http:");
}

TEST(nip27_test, any_bytes_scan_to_ordered_blocks_inside_the_text) {
  std::string s = "nostr:#:https://ws://wss:nostr:npub1 #a :x: \xff\xfe\xf0\x9f\x92\x9c nostr:";
  std::vector<nip27::emoji> em = {{"x", "u"}};
  for (std::size_t cut = 0; cut <= s.size(); ++cut) {
    std::string t = s.substr(0, cut);
    std::size_t prev = 0;
    for (const auto& b : nip27::scan(t, em)) {
      EXPECT_LE(prev, b.start);
      EXPECT_LT(b.start, b.end);
      EXPECT_LE(b.end, t.size());
      prev = b.end;
    }
  }
}
