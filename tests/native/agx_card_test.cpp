#include <gtest/gtest.h>

#include "agx_test_support.hpp"
#include "nips/nip19.hpp"
#include "protocols/agx/card.hpp"
#include "protocols/agx/nip05.hpp"

using namespace nostr;
using namespace nostr::agx;
using namespace nostr::agx_test;

namespace {

card_fields alice_card() {
  card_fields f;
  f.org = "Acme Invoicing";
  f.pubkey_hex = alice().pub;
  f.nip05 = "agent@acme.example.com";
  f.relays = {"wss://relay.example.com"};
  f.capabilities = {"invoice.review", "invoice.*"};
  return f;
}

event signed_card(const std::string& content, const identity& who = alice(), std::int64_t kind = 11337) {
  event_template t;
  t.kind = kind;
  t.created_at = kNow;
  t.content = content;
  rng r{5};
  return finalize(t, who.kp(), r.next32());
}

}  // namespace

TEST(agx_card_test, build_matches_the_reference_shape) {
  auto content = card_content_json(alice_card());
  ASSERT_TRUE(content.ok()) << content.err().detail;
  EXPECT_EQ(*content, "{\"v\":1,\"org\":\"Acme Invoicing\",\"npub\":\"" + nip19::encode_npub(pub_bytes(alice().pub)) +
                          "\",\"nip05\":\"agent@acme.example.com\",\"relays\":[\"wss://relay.example.com\"],"
                          "\"capabilities\":[\"invoice.review\",\"invoice.*\"],"
                          "\"payloadTypes\":[\"application/a2a+json\",\"application/agx-task+json\"],"
                          "\"encryption\":[\"nip44\"],\"version\":\"1.0.0\"}");
  auto t = card_template(alice_card(), kNow);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->kind, 11337);
  EXPECT_EQ(t->created_at, kNow);
  EXPECT_EQ(t->tags, (tag_list{{"nip05", "agent@acme.example.com"}}));
  card_fields anon = alice_card();
  anon.nip05.reset();
  EXPECT_TRUE(card_template(anon, kNow)->tags.empty());
  EXPECT_NE(card_content_json(anon)->find("\"nip05\":null"), std::string::npos);
}

TEST(agx_card_test, build_enforces_the_caps) {
  auto code = [](card_fields f) { return card_content_json(f).code(); };
  card_fields f = alice_card();
  f.org = std::string(201, 'o');
  EXPECT_EQ(code(f), errc::agx_card_invalid);
  f = alice_card();
  f.capabilities.assign(65, "x");
  EXPECT_EQ(code(f), errc::agx_card_invalid);
  f.capabilities.assign(64, "x");
  EXPECT_TRUE(card_content_json(f).ok());
  f = alice_card();
  f.capabilities = {std::string(201, 'c')};
  EXPECT_EQ(code(f), errc::agx_card_invalid);
  f.capabilities = {""};
  EXPECT_EQ(code(f), errc::agx_card_invalid);
  f = alice_card();
  f.relays.assign(11, "wss://r.example.com");
  EXPECT_EQ(code(f), errc::agx_card_invalid);
  f.relays = {"https://not-a-relay.example.com"};
  EXPECT_EQ(code(f), errc::agx_card_invalid);
  f = alice_card();
  f.nip05 = "no-at-sign";
  EXPECT_EQ(code(f), errc::agx_card_invalid);
  f = alice_card();
  f.pubkey_hex = "abc";
  EXPECT_EQ(code(f), errc::invalid_public_key);
  f = alice_card();
  f.org = "\xc3";
  EXPECT_EQ(code(f), errc::invalid_utf8);
}

TEST(agx_card_test, parse_round_trip) {
  auto t = card_template(alice_card(), kNow);
  rng r{3};
  event e = finalize(*t, alice().kp(), r.next32());
  auto c = parse_card(e);
  ASSERT_TRUE(c.ok()) << c.err().detail;
  EXPECT_EQ(c->pubkey, alice().pub);
  EXPECT_EQ(c->created_at, kNow);
  EXPECT_EQ(*c->org, "Acme Invoicing");
  EXPECT_EQ(*c->display_name, "Acme Invoicing");
  EXPECT_EQ(*c->nip05, "agent@acme.example.com");
  EXPECT_EQ(c->capabilities, (std::vector<std::string>{"invoice.review", "invoice.*"}));
  EXPECT_EQ(c->relays, (std::vector<std::string>{"wss://relay.example.com"}));
  EXPECT_EQ(c->payload_types.size(), 2u);
}

TEST(agx_card_test, parse_rejects_what_the_reference_rejects) {
  // Minimal and null-filled cards are fine.
  auto min = parse_card(signed_card("{}"));
  ASSERT_TRUE(min.ok());
  EXPECT_FALSE(min->org);
  EXPECT_TRUE(min->capabilities.empty());
  EXPECT_TRUE(parse_card(signed_card("{\"org\":null,\"nip05\":null,\"capabilities\":null,\"relays\":null}")).ok());
  // A long org is accepted up to 200 and shown cut to 120.
  auto long_org = parse_card(signed_card("{\"org\":\"" + std::string(200, 'o') + "\"}"));
  ASSERT_TRUE(long_org.ok());
  EXPECT_EQ(long_org->display_name->size(), 120u);

  std::string caps65 = "[";
  for (int i = 0; i < 65; ++i) caps65 += std::string(i ? "," : "") + "\"c\"";
  caps65 += "]";
  std::string relays11 = "[";
  for (int i = 0; i < 11; ++i) relays11 += std::string(i ? "," : "") + "\"wss://r\"";
  relays11 += "]";
  for (const std::string& bad : {
           std::string("not json"), std::string("[]"), std::string("{\"org\":\"") + std::string(201, 'o') + "\"}",
           std::string("{\"org\":5}"), std::string("{\"nip05\":\"") + std::string(254, 'n') + "\"}",
           std::string("{\"capabilities\":[\"ok\",7]}"),  // non-string entries make the card invalid
           std::string("{\"capabilities\":\"invoice.*\"}"), "{\"capabilities\":" + caps65 + "}",
           std::string("{\"capabilities\":[\"") + std::string(201, 'c') + "\"]}", "{\"relays\":" + relays11 + "}",
           std::string("{\"relays\":[\"") + std::string(513, 'r') + "\"]}",
           "{\"npub\":\"" + nip19::encode_npub(pub_bytes(mallory().pub)) + "\"}",  // speaks for someone else
           std::string("{\"npub\":\"npub1garbage\"}"), std::string("{\"npub\":3}"),
       })
    EXPECT_EQ(parse_card(signed_card(bad)).code(), errc::agx_card_invalid) << bad.substr(0, 80);

  EXPECT_EQ(parse_card(signed_card("{}", alice(), 0)).code(), errc::agx_card_invalid);  // not kind 11337
  event forged = signed_card("{\"org\":\"Acme\"}");
  forged.content = "{\"org\":\"Evil\"}";
  EXPECT_EQ(parse_card(forged).code(), errc::id_mismatch);
  event bad_sig = signed_card("{}");
  bad_sig.sig[0] = bad_sig.sig[0] == 'a' ? 'b' : 'a';
  EXPECT_EQ(parse_card(bad_sig).code(), errc::invalid_signature);
}

TEST(agx_nip05_test, identifier_parsing) {
  auto a = parse_nip05("Agent_1.x-y@Acme.Example.COM");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->name, "Agent_1.x-y");  // case kept
  EXPECT_EQ(a->domain, "acme.example.com");
  EXPECT_EQ(nip05_url(*a), "https://acme.example.com/.well-known/nostr.json?name=Agent_1.x-y");
  EXPECT_TRUE(parse_nip05("_@example.com").ok());
  for (const std::string& bad : {
           std::string("example.com"), std::string("@example.com"), std::string("a b@example.com"),
           std::string("a@"), std::string("a@localhost"), std::string("a@intranet"), std::string("a@127.0.0.1"),
           std::string("a@10.0.0.1"), std::string("a@printer.local"), std::string("a@x.localhost"),
           std::string("a@db.internal"), std::string("a@router.home.arpa"), std::string("a@-bad.example.com"),
           std::string("a@bad-.example.com"), std::string("a@ex..com"), std::string("a@example.com."),
           std::string("a@exa_mple.com"), std::string("a@[::1]"), std::string("a@example.com:8443"),
           std::string("a@") + std::string(64, 'l') + ".com", "a@" + std::string(250, 'x') + ".com",
           std::string("a/b@example.com"), std::string("a?@example.com"),
       })
    EXPECT_EQ(parse_nip05(bad).code(), errc::agx_nip05_invalid) << bad;
}

TEST(agx_nip05_test, response_parsing_and_comparison) {
  auto addr = *parse_nip05("agent@acme.example.com");
  std::string upper = alice().pub;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string body = "{\"names\":{\"agent\":\"" + upper + "\",\"other\":\"" + bob().pub + "\"},\"relays\":{}}";
  EXPECT_EQ(*nip05_pubkey(body, "agent"), alice().pub);  // lowercased
  EXPECT_TRUE(nip05_verifies(body, addr, alice().pub));
  EXPECT_FALSE(nip05_verifies(body, addr, bob().pub));
  EXPECT_FALSE(nip05_verifies(body, *parse_nip05("AGENT@acme.example.com"), alice().pub));  // keys are exact
  EXPECT_FALSE(nip05_verifies(body, addr, "not-hex"));

  for (const std::string& bad : {
           std::string("not json"), std::string("[]"), std::string("{}"), std::string("{\"names\":[]}"),
           std::string("{\"names\":{}}"), std::string("{\"names\":{\"agent\":5}}"),
           std::string("{\"names\":{\"agent\":\"abc\"}}"),
           std::string("{\"names\":{\"agent\":\"") + alice().pub + "\"}," + "\"pad\":\"" + std::string(100000, 'p') +
               "\"}",  // over the byte cap
       })
    EXPECT_EQ(nip05_pubkey(bad, "agent").code(), errc::agx_nip05_response_invalid) << bad.substr(0, 60);
}

TEST(agx_card_test, retraction_template) {
  std::string id(64, 'c');
  auto t = card_retraction_template({id}, "de-listed", kNow);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->kind, 5);
  EXPECT_EQ(t->tags, (tag_list{{"e", id}, {"k", "11337"}}));
  EXPECT_EQ(t->content, "de-listed");
  EXPECT_EQ(card_retraction_template({}, "", kNow).code(), errc::invalid_argument);
  EXPECT_EQ(card_retraction_template({"xyz"}, "", kNow).code(), errc::invalid_argument);
  EXPECT_EQ(card_retraction_template({id}, "\xff", kNow).code(), errc::invalid_utf8);
}
