// NIP-21 nostr: URIs: the spec's examples and nostr-tools' cases (tests/vectors/nip21.json).
#include "nips/nip21.hpp"

#include <gtest/gtest.h>

#include "util/hex.hpp"
#include "test_support.hpp"

using namespace nostr;

TEST(nip21_test, spec_examples_decode) {
  auto v = test::load_vector_json("nip21.json");
  ASSERT_FALSE(v.is_discarded());
  ASSERT_EQ(v["examples"].size(), 4u);
  for (const auto& ex : v["examples"]) {
    std::string uri = ex["uri"];
    auto e = nip21::parse(uri);
    ASSERT_TRUE(e.ok()) << uri;
    EXPECT_EQ(nip19::prefix_of(*e), ex["decoded"]["type"].get<std::string>());
    const auto& data = ex["decoded"]["data"];
    if (const auto* p = std::get_if<nip19::npub>(&*e)) EXPECT_EQ(hex::encode(p->pubkey), data.get<std::string>());
    if (const auto* n = std::get_if<nip19::note>(&*e)) EXPECT_EQ(hex::encode(n->id), data.get<std::string>());
    if (const auto* p = std::get_if<nip19::nprofile>(&*e)) {
      EXPECT_EQ(hex::encode(p->pubkey), data["pubkey"].get<std::string>());
      EXPECT_EQ(p->relays, data["relays"].get<std::vector<std::string>>());
    }
    if (const auto* n = std::get_if<nip19::nevent>(&*e)) {
      EXPECT_EQ(hex::encode(n->id), data["id"].get<std::string>());
      EXPECT_EQ(n->relays, data["relays"].get<std::vector<std::string>>());
      EXPECT_FALSE(n->author || n->kind);
    }
    // The scheme in any case (RFC 3986).
    EXPECT_TRUE(nip21::parse("NOSTR:" + uri.substr(6)).ok());
  }
  // "except nsec": refused before it is decoded.
  EXPECT_EQ(nip21::parse(v["except_nsec"]["uri"].get<std::string>()).code(), errc::nip21_invalid);
  EXPECT_EQ(nip21::parse("nostr:NSEC1" + std::string(58, 'Q')).code(), errc::nip21_invalid);
}

TEST(nip21_test, nostr_tools_cases) {
  auto v = test::load_vector_json("nip21.json")["nostr_tools"];
  for (const auto& s : v["valid"]) EXPECT_TRUE(nip21::parse(s.get<std::string>()).ok()) << s;
  for (const auto& s : v["invalid"]) EXPECT_FALSE(nip21::parse(s.get<std::string>()).ok()) << s;
  auto e = nip21::parse(v["parse"]["uri"].get<std::string>());
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(hex::encode(std::get<nip19::note>(*e).id), v["parse"]["decoded"]["data"].get<std::string>());
}

TEST(nip21_test, errors_name_the_fault) {
  EXPECT_EQ(nip21::parse("npub1sn0wdenkukak0d9dfczzeacvhkrgz92ak56egt7vdgzn8pv2wfqqhrjdv9").code(), errc::nip21_invalid);
  EXPECT_EQ(nip21::parse("").code(), errc::nip21_invalid);
  EXPECT_EQ(nip21::parse("nostr:").code(), errc::bech32_invalid);
  EXPECT_EQ(nip21::parse("nostr:npub1sn0wdenkukak0d9dfczzeacvhkrgz92ak56egt7vdgzn8pv2wfqqhrjdv8").code(), errc::bech32_checksum);
  EXPECT_EQ(nip21::parse("web+nostr:npub1sn0wdenkukak0d9dfczzeacvhkrgz92ak56egt7vdgzn8pv2wfqqhrjdv9").code(), errc::nip21_invalid);
}
