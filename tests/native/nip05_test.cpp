// NIP-05: identifiers, URLs and nostr.json bodies, with the spec's examples (tests/vectors/nip05.json).
#include "nips/nip05.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"

using namespace nostr;

TEST(nip05_test, spec_identifier_url_and_responses) {
  auto v = test::load_vector_json("nip05.json");
  ASSERT_FALSE(v.is_discarded());
  auto a = nip05::parse(v["identifier"].get<std::string>());
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->name, "bob");
  EXPECT_EQ(a->domain, "example.com");
  EXPECT_EQ(nip05::url(*a), v["request_url"].get<std::string>());
  ASSERT_EQ(v["responses"].size(), 2u);
  for (const auto& r : v["responses"]) {
    auto p = nip05::read_response(r["body"].dump(), "bob");
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->pubkey, v["pubkey"].get<std::string>());
    EXPECT_EQ(p->relays, r["relays"].get<std::vector<std::string>>());
    EXPECT_EQ(*nip05::read_pubkey(r["body"].dump(), "bob"), p->pubkey);
  }
  // "Root Identifiers": a bare domain is _@domain.
  auto root = nip05::parse(v["root"]["identifier"].get<std::string>());
  auto same = nip05::parse(v["root"]["same_as"].get<std::string>());
  ASSERT_TRUE(root.ok() && same.ok());
  EXPECT_EQ(root->name, "_");
  EXPECT_EQ(nip05::url(*root), nip05::url(*same));
  EXPECT_EQ(nip05::url(*root), v["root"]["request_url"].get<std::string>());
}

TEST(nip05_test, nostr_tools_regex_cases) {
  auto v = test::load_vector_json("nip05.json")["regex"];
  for (const auto& s : v["valid"]) EXPECT_TRUE(nip05::parse(s.get<std::string>()).ok()) << s;
  for (const auto& s : v["invalid"]) EXPECT_EQ(nip05::parse(s.get<std::string>()).code(), errc::nip05_invalid) << s;
  auto a = nip05::parse(v["groups"]["input"].get<std::string>());
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->name, v["groups"]["match"][1].get<std::string>());
  EXPECT_EQ(a->domain, v["groups"]["match"][2].get<std::string>());
}

TEST(nip05_test, identifiers_not_public_or_malformed_are_refused) {
  auto a = nip05::parse("Agent_1.x-y@Acme.Example.COM");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->name, "Agent_1.x-y");  // case kept
  EXPECT_EQ(a->domain, "acme.example.com");
  for (const std::string& bad : {
           std::string(""), std::string("@example.com"), std::string("a b@example.com"), std::string("a@"),
           std::string("localhost"), std::string("a@localhost"), std::string("a@intranet"), std::string("127.0.0.1"),
           std::string("a@10.0.0.1"), std::string("a@printer.local"), std::string("a@x.localhost"),
           std::string("a@db.internal"), std::string("a@router.home.arpa"), std::string("a@-bad.example.com"),
           std::string("a@bad-.example.com"), std::string("a@ex..com"), std::string("a@example.com."),
           std::string("a@exa_mple.com"), std::string("a@[::1]"), std::string("a@example.com:8443"),
           std::string("a@") + std::string(64, 'l') + ".com", "a@" + std::string(250, 'x') + ".com",
           std::string("a/b@example.com"), std::string("a?@example.com"), std::string("a+b@example.com"),
           std::string("a@b@example.com"), std::string("a@exa mple.com"), std::string("a@example.com/x"),
       })
    EXPECT_EQ(nip05::parse(bad).code(), errc::nip05_invalid) << bad;
}

TEST(nip05_test, response_errors_relays_and_names) {
  const std::string pk(64, 'a'), upper(64, 'A'), other(64, 'b');
  EXPECT_EQ(nip05::read_response("{\"names\":{\"bob\":\"" + upper + "\"}}", "bob")->pubkey, pk);  // lowercased
  EXPECT_EQ(nip05::read_response("{\"names\":{\"bob\":\"" + pk + "\"}}", "Bob").code(), errc::nip05_not_found);
  EXPECT_EQ(nip05::read_response("{\"names\":{\"alice\":\"" + pk + "\"}}", "bob").code(), errc::nip05_not_found);
  EXPECT_EQ(nip05::read_pubkey("{\"names\":{\"alice\":\"" + pk + "\"}}", "bob").code(), errc::nip05_not_found);
  for (const std::string& bad : {
           std::string("not json"), std::string("[]"), std::string("{}"), std::string("{\"names\":[]}"),
           std::string("{\"names\":{\"bob\":5}}"), std::string("{\"names\":{\"bob\":\"abc\"}}"),
           std::string("{\"names\":{\"bob\":\"") + pk + "\"},\"pad\":\"" + std::string(100000, 'p') + "\"}",
           std::string("{\"names\":{\"bob\":\"") + pk + "\"},\"deep\":" + std::string(40, '[') + std::string(40, ']') + "}",
           std::string("{\"names\":{\"bob\":\"") + pk + "\xff\"}}",
       })
  {
    EXPECT_EQ(nip05::read_response(bad, "bob").code(), errc::nip05_response_invalid) << bad.substr(0, 60);
    EXPECT_EQ(nip05::read_pubkey(bad, "bob").code(), errc::nip05_response_invalid) << bad.substr(0, 60);
  }

  // Relay hints: ws(s) URLs kept as written; anything else skipped, never a reason to refuse.
  std::string body = "{\"names\":{\"bob\":\"" + upper + "\"},\"relays\":{\"" + upper +
                     "\":[\"wss://A.example.com\",\"https://x.example.com\",5,\"ws://\",\"ws://b.example.com/p\","
                     "\"wss://c example.com\"]}}";
  auto p = nip05::read_response(body, "bob");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->relays, (std::vector<std::string>{"wss://A.example.com", "ws://b.example.com/p"}));
  auto by_lower = nip05::read_response("{\"names\":{\"bob\":\"" + upper + "\"},\"relays\":{\"" + pk + "\":[\"wss://r.example.com\"]}}", "bob");
  EXPECT_EQ(by_lower->relays, std::vector<std::string>{"wss://r.example.com"});
  EXPECT_TRUE(nip05::read_response("{\"names\":{\"bob\":\"" + pk + "\"},\"relays\":5}", "bob")->relays.empty());

  auto names = nip05::read_names("{\"names\":{\"zed\":\"" + other + "\",\"bad\":\"x\",\"amy\":\"" + upper + "\"}}");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::pair<std::string, std::string>>{{"amy", pk}, {"zed", other}}));
  EXPECT_EQ(nip05::read_names("{}").code(), errc::nip05_response_invalid);
}
