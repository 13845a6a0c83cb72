// NIP-10 threads from tags: the text's tag forms and nostr-tools' cases (tests/vectors/nip10.json).
#include "nips/nip10.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"

using namespace nostr;
using nlohmann::json;

namespace {

tag_list tags_of(const json& j) { return j.get<tag_list>(); }

json id_or_null(const std::optional<nip10::event_pointer>& p) { return p ? json(p->id) : json(nullptr); }

std::vector<std::string> mention_ids(const nip10::thread& t) {
  std::vector<std::string> out;
  for (const auto& m : t.mentions) out.push_back(m.id);
  return out;
}

std::vector<std::string> profile_keys(const nip10::thread& t) {
  std::vector<std::string> out;
  for (const auto& p : t.profiles) out.push_back(p.pubkey);
  return out;
}

}  // namespace

TEST(nip10_test, the_text_tag_forms) {
  auto v = test::load_vector_json("nip10.json");
  ASSERT_FALSE(v.is_discarded());
  ASSERT_GE(v["spec"].size(), 9u);
  for (const auto& c : v["spec"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    auto t = nip10::parse(tags_of(c["tags"]));
    const auto& want = c["expected"];
    EXPECT_EQ(id_or_null(t.root), want["root"]);
    EXPECT_EQ(id_or_null(t.reply), want["reply"]);
    EXPECT_EQ(json(mention_ids(t)), want["mentions"]);
    EXPECT_EQ(json(profile_keys(t)), want["profiles"]);
    ASSERT_EQ(t.quotes.size(), want["quotes"].size());
    for (std::size_t i = 0; i < t.quotes.size(); ++i) {
      const auto& q = t.quotes[i];
      const auto& w = want["quotes"][i];
      if (w.is_string()) {
        ASSERT_TRUE(q.event.has_value());
        EXPECT_EQ(q.event->id, w.get<std::string>());
      } else if (w.contains("id")) {
        ASSERT_TRUE(q.event.has_value());
        EXPECT_EQ(q.event->id, w["id"].get<std::string>());
        EXPECT_EQ(q.event->relays, w["relays"].get<std::vector<std::string>>());
        EXPECT_EQ(q.event->author.value_or(""), w["author"].get<std::string>());
      } else {
        ASSERT_TRUE(q.address.has_value());
        EXPECT_EQ(q.address->kind, w["kind"].get<std::uint32_t>());
        EXPECT_EQ(q.address->pubkey, w["pubkey"].get<std::string>());
        EXPECT_EQ(q.address->identifier, w["identifier"].get<std::string>());
        EXPECT_EQ(q.address->relays, w["relays"].get<std::vector<std::string>>());
      }
    }
  }
}

TEST(nip10_test, nostr_tools_cases) {
  auto v = test::load_vector_json("nip10.json")["nostr_tools"]["cases"];
  ASSERT_EQ(v.size(), 5u);
  for (const auto& c : v) {
    SCOPED_TRACE(c["name"].get<std::string>());
    auto t = nip10::parse(tags_of(c["tags"]));
    const auto& want = c["expected"];
    EXPECT_EQ(id_or_null(t.root), want["root"]);
    EXPECT_EQ(id_or_null(t.reply), want["reply"]);
    EXPECT_EQ(json(mention_ids(t)), want["mentions"]);
    EXPECT_EQ(json(profile_keys(t)), want["profiles"]);
    std::vector<std::vector<std::string>> relays;
    for (const auto& p : t.profiles) relays.push_back(p.relays);
    EXPECT_EQ(json(relays), want["profile_relays"]);
    EXPECT_EQ(t.reply ? json(t.reply->relays) : json(nullptr), want["reply_relays"]);
  }
}

TEST(nip10_test, relay_hints_travel_between_an_event_and_its_author) {
  const std::string r(64, 'a'), p(64, 'b'), m(64, 'c'), a(64, 'd');
  auto t = nip10::parse({{"e", r, "wss://root", "root", a}, {"e", m, "", "mention", a}, {"p", a, "wss://author"}});
  ASSERT_TRUE(t.root && t.reply);
  EXPECT_EQ(t.root->relays, (std::vector<std::string>{"wss://root", "wss://author"}));
  EXPECT_EQ(t.reply->relays, t.root->relays);  // a direct reply to the root
  ASSERT_EQ(t.mentions.size(), 1u);
  EXPECT_EQ(t.mentions[0].relays, (std::vector<std::string>{"wss://root", "wss://author"}));
  EXPECT_EQ(t.profiles[0].relays, (std::vector<std::string>{"wss://root", "wss://author"}));
  // Without the author's p tag, nothing travels.
  auto alone = nip10::parse({{"e", r, "wss://root", "root", a}});
  EXPECT_EQ(alone.root->relays, std::vector<std::string>{"wss://root"});
  EXPECT_EQ(alone.root->author.value_or(""), a);
}

TEST(nip10_test, odd_tags_are_not_references) {
  const std::string id(64, 'a');
  auto t = nip10::parse({{}, {"e"}, {"e", ""}, {"e", id.substr(1)}, {"e", std::string(64, 'A')}, {"p", "x"},
                         {"q", "1:" + std::string(64, 'b')}, {"q", "70000:" + std::string(64, 'b') + ":d"},
                         {"q", "x:" + std::string(64, 'b') + ":d"}, {"q", "1:" + std::string(64, 'B') + ":d"},
                         {"e", id, "", "root", "not-a-pubkey"}});
  ASSERT_TRUE(t.root.has_value());
  EXPECT_EQ(t.root->id, id);
  EXPECT_FALSE(t.root->author.has_value());
  EXPECT_TRUE(t.mentions.empty());
  EXPECT_TRUE(t.quotes.empty());
  EXPECT_TRUE(t.profiles.empty());
  auto empty = nip10::parse({});
  EXPECT_FALSE(empty.root || empty.reply);
  // An address quote of a replaceable kind has an empty d; a d may hold ':'.
  auto q = nip10::parse({{"q", "0:" + std::string(64, 'b') + ":"}, {"q", "30023:" + std::string(64, 'b') + ":a:b"}});
  ASSERT_EQ(q.quotes.size(), 2u);
  EXPECT_EQ(q.quotes[0].address->identifier, "");
  EXPECT_EQ(q.quotes[1].address->identifier, "a:b");
}
