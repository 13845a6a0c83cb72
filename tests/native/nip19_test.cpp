// NIP-19 and bech32: the spec's examples and nostr-tools' strings (tests/vectors), BIP-173's
// own examples for the generic layer, and every error code on malformed input.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "nips/bech32.hpp"
#include "nips/nip19.hpp"
#include "test_support.hpp"
#include "util/hex.hpp"

namespace nostr {
namespace {

bytes32 hex32(const std::string& s) {
  auto r = hex::decode32(s);
  EXPECT_TRUE(r.ok()) << s;
  return r.ok() ? *r : bytes32{};
}

bytes32 filled(std::uint8_t b) {
  bytes32 a{};
  a.fill(b);
  return a;
}

// A bech32 string around a hand-made payload, for TLV edge cases.
std::string wrap(const char* hrp, const bytes& payload) {
  auto r = bech32::encode(hrp, payload);
  EXPECT_TRUE(r.ok());
  return r.ok() ? *r : std::string();
}

bytes tlv(std::uint8_t type, const bytes& v) {
  bytes out(v.size() + 2);
  out[0] = type;
  out[1] = static_cast<std::uint8_t>(v.size());
  std::copy(v.begin(), v.end(), out.begin() + 2);
  return out;
}

bytes cat(std::initializer_list<bytes> parts) {
  bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

bytes b32(std::uint8_t fill) { return bytes(32, fill); }
bytes text(const std::string& s) { return bytes(s.begin(), s.end()); }

// ---- bech32 (BIP-173)

TEST(bech32_test, bip173_valid_strings_decode) {
  // BIP-173, "Test vectors": valid bech32 strings (hrp and data length checked here).
  struct c {
    const char* s;
    const char* hrp;
    std::size_t bytes;
  } cases[] = {
      {"A12UEL5L", "a", 0},
      {"a12uel5l", "a", 0},
      {"an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
       "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio", 0},
      {"abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw", "abcdef", 20},
      {"split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w", "split", 30},
      {"?1ezyfcl", "?", 0},
  };
  for (const auto& k : cases) {
    auto d = bech32::decode(k.s);
    ASSERT_TRUE(d.ok()) << k.s << ": " << d.err().detail;
    EXPECT_EQ(d->hrp, k.hrp);
    EXPECT_EQ(d->data.size(), k.bytes) << k.s;
  }
  // "abcdef": the data part is the whole alphabet in order, i.e. the words 0..31.
  auto d = bech32::decode("abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(hex::encode(d->data), "00443214c74254b635cf84653a56d7c675be77df");
}

TEST(bech32_test, bip173_invalid_strings_are_rejected_with_the_right_code) {
  struct c {
    std::string s;
    errc code;
  } cases[] = {
      {"pzry9x0s0muk", errc::bech32_invalid},    // no separator
      {"1pzry9x0s0muk", errc::bech32_invalid},   // empty hrp
      {"x1b4n0q5v", errc::bech32_invalid},       // 'b' is not in the alphabet
      {"li1dgmt3", errc::bech32_invalid},        // checksum shorter than 6
      {"A1G7SGD8", errc::bech32_checksum},       // checksum made with the uppercase hrp
      {"10a06t8", errc::bech32_invalid},         // empty hrp (and too short)
      {"1qzzfhee", errc::bech32_invalid},        // empty hrp
      {"de1lg7wt\xff", errc::bech32_invalid},    // byte outside ASCII
      {std::string("a1\x00uel5l", 8), errc::bech32_invalid},
      {"a 12uel5l", errc::bech32_invalid},       // space is below '!'
  };
  for (const auto& k : cases) {
    auto d = bech32::decode(k.s);
    ASSERT_FALSE(d.ok()) << k.s;
    EXPECT_EQ(d.code(), k.code) << k.s << ": " << d.err().detail;
  }
}

TEST(bech32_test, round_trips_every_length_and_both_cases) {
  std::mt19937 rng(7);
  for (std::size_t n = 0; n < 300; ++n) {
    bytes data(n);
    for (auto& b : data) b = static_cast<std::uint8_t>(rng());
    auto s = bech32::encode("test", data);
    ASSERT_TRUE(s.ok()) << n;
    auto d = bech32::decode(*s);
    ASSERT_TRUE(d.ok()) << n << ": " << d.err().detail;
    EXPECT_EQ(d->hrp, "test");
    EXPECT_EQ(d->data, data);
    std::string upper = *s;
    for (auto& ch : upper)
      if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
    auto du = bech32::decode(upper);
    ASSERT_TRUE(du.ok()) << upper;
    EXPECT_EQ(du->hrp, "test");  // the hrp comes back lowercase
    EXPECT_EQ(du->data, data);
  }
}

TEST(bech32_test, mixed_case_is_rejected) {
  const std::string s = nip19::encode_npub(filled(0x11));
  std::string t = s;
  t[0] = 'N';  // uppercase prefix, lowercase data
  EXPECT_EQ(bech32::decode(t).code(), errc::bech32_invalid);
  t = s;
  std::size_t i = t.find_first_of("acdefghjklmnpqrstuvwxyz", 5);
  ASSERT_NE(i, std::string::npos);
  t[i] = static_cast<char>(t[i] - 'a' + 'A');  // one uppercase data character
  EXPECT_EQ(bech32::decode(t).code(), errc::bech32_invalid);
}

TEST(bech32_test, any_single_character_change_breaks_the_checksum) {
  const std::string s = nip19::encode_note(filled(0x5a));
  const std::string alphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
  for (std::size_t i = 5; i < s.size(); ++i) {
    std::string t = s;
    t[i] = alphabet[(alphabet.find(s[i]) + 1) % 32];
    EXPECT_EQ(bech32::decode(t).code(), errc::bech32_checksum) << i;
  }
}

TEST(bech32_test, padding_bits_must_be_zero_and_short) {
  // Made with @scure/base from 52 words of 32 bytes 0xab: the last word's low padding bit set,
  // and two extra zero words (6 padding bits). Both carry valid checksums.
  auto nonzero = bech32::decode("npub14w46h2at4w46h2at4w46h2at4w46h2at4w46h2at4w46h2at4w439lwhkz");
  EXPECT_EQ(nonzero.code(), errc::bech32_invalid);
  auto excess = bech32::decode("npub14w46h2at4w46h2at4w46h2at4w46h2at4w46h2at4w46h2at4w4sqqut7eav");
  EXPECT_EQ(excess.code(), errc::bech32_invalid);
  // The same bytes with correct padding decode.
  auto good = bech32::decode(nip19::encode_npub(filled(0xab)));
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good->data, bytes(32, 0xab));
}

TEST(bech32_test, length_limit_is_5000_characters) {
  // 5000 characters: hrp "x" (1) + '1' + 4992 words + 6 checksum; 4992 words = 3120 bytes.
  bytes data(3120, 0x42);
  auto s = bech32::encode("x", data);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->size(), 5000u);
  auto d = bech32::decode(*s);
  ASSERT_TRUE(d.ok()) << d.err().detail;
  EXPECT_EQ(d->data, data);
  data.push_back(0);
  EXPECT_EQ(bech32::encode("x", data).code(), errc::bech32_length);
  EXPECT_EQ(bech32::decode(*s + "q").code(), errc::bech32_length);
  EXPECT_EQ(bech32::decode(std::string(10000, 'q')).code(), errc::bech32_length);
  EXPECT_EQ(bech32::decode(std::string(5000, 'q')).code(), errc::bech32_invalid);  // no separator
}

TEST(bech32_test, encode_rejects_bad_prefixes) {
  bytes data(4, 1);
  EXPECT_EQ(bech32::encode("", data).code(), errc::bech32_prefix);
  EXPECT_EQ(bech32::encode("Npub", data).code(), errc::bech32_prefix);
  EXPECT_EQ(bech32::encode("n pub", data).code(), errc::bech32_prefix);
  EXPECT_EQ(bech32::encode("n\x80", data).code(), errc::bech32_prefix);
  EXPECT_TRUE(bech32::encode("n1", data).ok());  // '1' in the hrp is fine: the last '1' separates
  auto d = bech32::decode(*bech32::encode("n1", data));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->hrp, "n1");
}

// ---- NIP-19 vectors

TEST(nip19_test, spec_examples_encode_and_decode_exactly) {
  auto v = test::load_vector_json("nips-spec-examples.json");
  ASSERT_FALSE(v.is_discarded());
  ASSERT_TRUE(v.contains("nip19") && v["nip19"].is_array());
  int n = 0;
  for (const auto& c : v["nip19"]) {
    const std::string type = c["type"].get<std::string>();
    const std::string s = c["bech32"].get<std::string>();
    auto d = nip19::decode(s);
    ASSERT_TRUE(d.ok()) << s << ": " << d.err().detail;
    EXPECT_STREQ(nip19::prefix_of(*d), type.c_str());
    if (type == "npub") {
      EXPECT_EQ(hex::encode(std::get<nip19::npub>(*d).pubkey), c["hex"].get<std::string>());
      EXPECT_EQ(nip19::encode_npub(hex32(c["hex"].get<std::string>())), s);
    } else if (type == "nsec") {
      EXPECT_EQ(hex::encode(std::get<nip19::nsec>(*d).secret_key.b), c["hex"].get<std::string>());
      EXPECT_EQ(nip19::encode_nsec(hex32(c["hex"].get<std::string>())), s);
    } else if (type == "nprofile") {
      const auto& p = std::get<nip19::nprofile>(*d);
      EXPECT_EQ(hex::encode(p.pubkey), c["pubkey"].get<std::string>());
      EXPECT_EQ(p.relays, c["relays"].get<std::vector<std::string>>());
      // Our encoder writes the spec's order, so the spec's string comes back byte for byte.
      auto e = nip19::encode_nprofile(p);
      ASSERT_TRUE(e.ok());
      EXPECT_EQ(*e, s);
    } else {
      ADD_FAILURE() << "unexpected type " << type;
    }
    ++n;
  }
  EXPECT_EQ(n, 4);
}

TEST(nip19_test, nostr_tools_naddr_decodes_with_expected_fields) {
  auto v = test::load_vector_json("nip19-nostr-tools.json");
  ASSERT_FALSE(v.is_discarded());
  ASSERT_EQ(v["decode"].size(), 2u);
  for (const auto& c : v["decode"]) {
    auto a = nip19::decode_naddr(c["bech32"].get<std::string>());
    ASSERT_TRUE(a.ok()) << c["name"] << ": " << a.err().detail;
    const auto& ex = c["expect"];
    EXPECT_EQ(hex::encode(a->pubkey), ex["pubkey"].get<std::string>());
    EXPECT_EQ(a->kind, ex["kind"].get<std::uint32_t>());
    EXPECT_EQ(a->identifier, ex["identifier"].get<std::string>());
    if (ex.contains("relays_contain"))
      for (const auto& r : ex["relays_contain"])
        EXPECT_NE(std::find(a->relays.begin(), a->relays.end(), r.get<std::string>()), a->relays.end()) << r;
    // Re-encoding in the spec's order decodes to the same values.
    auto again = nip19::encode_naddr(*a);
    ASSERT_TRUE(again.ok());
    auto b = nip19::decode_naddr(*again);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->identifier, a->identifier);
    EXPECT_EQ(b->pubkey, a->pubkey);
    EXPECT_EQ(b->kind, a->kind);
    EXPECT_EQ(b->relays, a->relays);
  }
}

TEST(nip19_test, nostr_tools_valid_strings_decode_and_round_trip) {
  auto v = test::load_vector_json("nip19-nostr-tools.json");
  ASSERT_EQ(v["valid"].size(), 6u);
  for (const auto& c : v["valid"]) {
    const std::string s = c["bech32"].get<std::string>();
    auto d = nip19::decode(s);
    ASSERT_TRUE(d.ok()) << s << ": " << d.err().detail;
    EXPECT_EQ(nip19::prefix_of(*d), c["type"].get<std::string>());
    auto again = nip19::encode(*d);
    ASSERT_TRUE(again.ok());
    auto d2 = nip19::decode(*again);
    ASSERT_TRUE(d2.ok());
    // Same alternative and same bytes once re-encoded: the encoding is canonical for our order.
    EXPECT_EQ(d2->index(), d->index());
    auto again2 = nip19::encode(*d2);
    ASSERT_TRUE(again2.ok());
    EXPECT_EQ(*again2, *again);
    if (s.rfind("npub", 0) == 0 || s.rfind("nsec", 0) == 0 || s.rfind("note", 0) == 0) EXPECT_EQ(*again, s);
  }
}

TEST(nip19_test, nostr_tools_invalid_strings_are_bech32_invalid) {
  auto v = test::load_vector_json("nip19-nostr-tools.json");
  ASSERT_EQ(v["invalid"].size(), 5u);
  for (const auto& c : v["invalid"]) {
    auto d = nip19::decode(c["bech32"].get<std::string>());
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.code(), errc::bech32_invalid) << c["bech32"] << ": " << d.err().detail;
  }
}

// ---- NIP-19 encoder

TEST(nip19_test, encoders_write_tlvs_in_spec_order) {
  nip19::nevent e{filled(1), {"wss://a", "wss://b"}, filled(2), 30023};
  auto s = nip19::encode_nevent(e);
  ASSERT_TRUE(s.ok());
  auto raw = bech32::decode(*s);
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw->hrp, "nevent");
  bytes expect = cat({tlv(0, b32(1)), tlv(1, text("wss://a")), tlv(1, text("wss://b")), tlv(2, b32(2)),
                      tlv(3, {0x00, 0x00, 0x75, 0x47})});
  EXPECT_EQ(raw->data, expect);

  nip19::naddr a{"d-tag", filled(3), 0x01020304, {"wss://r"}};
  auto sa = nip19::encode_naddr(a);
  ASSERT_TRUE(sa.ok());
  raw = bech32::decode(*sa);
  ASSERT_TRUE(raw.ok());
  expect = cat({tlv(0, text("d-tag")), tlv(1, text("wss://r")), tlv(2, b32(3)), tlv(3, {1, 2, 3, 4})});
  EXPECT_EQ(raw->data, expect);

  // Optional nevent fields absent: only TLV 0.
  auto bare = nip19::encode_nevent(nip19::nevent{filled(9), {}, std::nullopt, std::nullopt});
  ASSERT_TRUE(bare.ok());
  raw = bech32::decode(*bare);
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw->data, tlv(0, b32(9)));
}

TEST(nip19_test, every_entity_round_trips) {
  std::mt19937 rng(19);
  auto rand32 = [&] {
    bytes32 b;
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return b;
  };
  auto rand_text = [&](std::size_t max) {
    static const char* pool[] = {"a", "Z", "/", ":", "é", "€", "💜", "\x00", " ", "wss://"};
    std::string s;
    std::size_t n = rng() % max;
    for (std::size_t i = 0; i < n; ++i) {
      const char* p = pool[rng() % 10];
      s += *p ? std::string(p) : std::string(1, '\0');
    }
    return s.size() > 255 ? s.substr(0, 0) : s;
  };
  for (int i = 0; i < 200; ++i) {
    std::vector<std::string> relays;
    for (std::size_t k = rng() % 4; k > 0; --k) relays.push_back(rand_text(30));
    nip19::entity cases[] = {
        nip19::npub{rand32()},
        nip19::nsec{secret32(rand32())},
        nip19::note{rand32()},
        nip19::nprofile{rand32(), relays},
        nip19::nevent{rand32(), relays, i % 2 ? std::optional<bytes32>(rand32()) : std::nullopt,
                      i % 3 ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(rng())) : std::nullopt},
        nip19::naddr{rand_text(40), rand32(), static_cast<std::uint32_t>(rng()), relays},
    };
    for (const auto& e : cases) {
      auto s = nip19::encode(e);
      ASSERT_TRUE(s.ok()) << s.err().detail;
      EXPECT_EQ(s->rfind(std::string(nip19::prefix_of(e)) + "1", 0), 0u);
      auto d = nip19::decode(*s);
      ASSERT_TRUE(d.ok()) << *s << ": " << d.err().detail;
      ASSERT_EQ(d->index(), e.index());
      auto s2 = nip19::encode(*d);
      ASSERT_TRUE(s2.ok());
      EXPECT_EQ(*s2, *s);  // canonical: decoding then encoding changes nothing
    }
  }
}

TEST(nip19_test, encoder_rejects_bad_values) {
  const std::string long_relay = "wss://" + std::string(250, 'a');  // 256 bytes
  EXPECT_EQ(nip19::encode_nprofile({filled(1), {long_relay}}).code(), errc::tlv_invalid);
  EXPECT_TRUE(nip19::encode_nprofile({filled(1), {long_relay.substr(1)}}).ok());  // 255 is the limit
  EXPECT_EQ(nip19::encode_naddr({std::string(256, 'd'), filled(1), 1, {}}).code(), errc::tlv_invalid);
  EXPECT_EQ(nip19::encode_nevent({filled(1), {"wss://\xc3"}, std::nullopt, std::nullopt}).code(), errc::invalid_utf8);
  EXPECT_EQ(nip19::encode_naddr({"\xed\xa0\x80", filled(1), 1, {}}).code(), errc::invalid_utf8);  // surrogate
  EXPECT_EQ(nip19::encode_naddr({"\xc0\xaf", filled(1), 1, {}}).code(), errc::invalid_utf8);      // overlong
  EXPECT_EQ(nip19::encode_naddr({"\xf4\x90\x80\x80", filled(1), 1, {}}).code(), errc::invalid_utf8);  // > U+10FFFF
  EXPECT_TRUE(nip19::encode_naddr({"\xf4\x8f\xbf\xbf", filled(1), 1, {}}).ok());  // U+10FFFF
  // Too many relays for 5000 characters.
  std::vector<std::string> many(20, "wss://" + std::string(200, 'r'));
  EXPECT_EQ(nip19::encode_nprofile({filled(1), many}).code(), errc::bech32_length);
  many.resize(10);
  EXPECT_TRUE(nip19::encode_nprofile({filled(1), many}).ok());
}

// ---- NIP-19 decoder

TEST(nip19_test, decoder_accepts_any_order_and_ignores_unknown_types) {
  // go-nostr style order (kind, author, relay, id) plus unknown types 7 and 255.
  bytes payload = cat({tlv(7, text("??")), tlv(3, {0, 0, 0, 1}), tlv(2, b32(2)), tlv(1, text("wss://x")),
                       tlv(255, {}), tlv(0, b32(1)), tlv(1, text("wss://y"))});
  auto e = nip19::decode_nevent(wrap("nevent", payload));
  ASSERT_TRUE(e.ok()) << e.err().detail;
  EXPECT_EQ(e->id, filled(1));
  ASSERT_TRUE(e->author.has_value());
  EXPECT_EQ(*e->author, filled(2));
  ASSERT_TRUE(e->kind.has_value());
  EXPECT_EQ(*e->kind, 1u);
  EXPECT_EQ(e->relays, (std::vector<std::string>{"wss://x", "wss://y"}));

  // The first record of a single-valued type wins (as in nostr-tools).
  auto p = nip19::decode_nprofile(wrap("nprofile", cat({tlv(0, b32(5)), tlv(0, b32(6)), tlv(2, b32(7))})));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->pubkey, filled(5));
  EXPECT_TRUE(p->relays.empty());

  // naddr with an empty identifier (replaceable, not parameterized) and kind 0.
  auto a = nip19::decode_naddr(wrap("naddr", cat({tlv(3, {0, 0, 0, 0}), tlv(2, b32(4)), tlv(0, {})})));
  ASSERT_TRUE(a.ok()) << a.err().detail;
  EXPECT_EQ(a->identifier, "");
  EXPECT_EQ(a->kind, 0u);
  EXPECT_EQ(a->pubkey, filled(4));

  // Large kinds are unsigned 32-bit.
  auto big = nip19::decode_nevent(wrap("nevent", cat({tlv(0, b32(1)), tlv(3, {0xff, 0xff, 0xff, 0xff})})));
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(*big->kind, 0xffffffffu);
}

TEST(nip19_test, tlv_errors_are_typed) {
  struct c {
    const char* hrp;
    bytes payload;
    errc code;
    const char* why;
  } cases[] = {
      {"nprofile", {}, errc::tlv_invalid, "empty: missing pubkey"},
      {"nprofile", {0}, errc::tlv_invalid, "lone type byte"},
      {"nprofile", cat({tlv(0, b32(1)), {1}}), errc::tlv_invalid, "truncated header after a record"},
      {"nprofile", {0, 32, 1, 2, 3}, errc::tlv_invalid, "value shorter than its length"},
      {"nprofile", tlv(0, bytes(31, 1)), errc::tlv_invalid, "31-byte pubkey"},
      {"nprofile", tlv(0, bytes(33, 1)), errc::tlv_invalid, "33-byte pubkey"},
      {"nprofile", tlv(1, text("wss://x")), errc::tlv_invalid, "relay but no pubkey"},
      {"nprofile", cat({tlv(0, b32(1)), tlv(1, {0xff})}), errc::tlv_invalid, "relay not UTF-8"},
      {"nprofile", cat({tlv(0, b32(1)), tlv(1, {0xed, 0xb0, 0x80})}), errc::tlv_invalid, "relay is a surrogate"},
      {"nevent", tlv(2, b32(1)), errc::tlv_invalid, "missing id"},
      {"nevent", cat({tlv(0, b32(1)), tlv(2, bytes(20, 1))}), errc::tlv_invalid, "short author"},
      {"nevent", cat({tlv(0, b32(1)), tlv(3, {0, 1})}), errc::tlv_invalid, "2-byte kind"},
      {"nevent", cat({tlv(0, b32(1)), tlv(3, {0, 0, 0, 0, 1})}), errc::tlv_invalid, "5-byte kind"},
      {"naddr", cat({tlv(2, b32(1)), tlv(3, {0, 0, 0, 1})}), errc::tlv_invalid, "missing identifier"},
      {"naddr", cat({tlv(0, text("d")), tlv(3, {0, 0, 0, 1})}), errc::tlv_invalid, "missing author"},
      {"naddr", cat({tlv(0, text("d")), tlv(2, b32(1))}), errc::tlv_invalid, "missing kind"},
      {"naddr", cat({tlv(0, text("d")), tlv(2, b32(1)), tlv(3, {1})}), errc::tlv_invalid, "1-byte kind"},
      {"naddr", cat({tlv(0, {0xc3, 0x28}), tlv(2, b32(1)), tlv(3, {0, 0, 0, 1})}), errc::tlv_invalid,
       "identifier not UTF-8"},
      {"npub", bytes(31, 1), errc::bech32_length, "31-byte npub"},
      {"nsec", bytes(33, 1), errc::bech32_length, "33-byte nsec"},
      {"note", {}, errc::bech32_length, "empty note"},
      {"nrelay", text("wss://x"), errc::bech32_prefix, "nrelay is deprecated"},
      {"ncryptsec", bytes(91, 1), errc::bech32_prefix, "not a NIP-19 entity here"},
      {"lnbc", bytes(32, 1), errc::bech32_prefix, "foreign prefix"},
  };
  for (const auto& k : cases) {
    auto d = nip19::decode(wrap(k.hrp, k.payload));
    ASSERT_FALSE(d.ok()) << k.why;
    EXPECT_EQ(d.code(), k.code) << k.why << ": " << d.err().detail;
    EXPECT_FALSE(d.err().detail.empty()) << k.why;
  }
}

TEST(nip19_test, typed_decoders_reject_other_entities) {
  const std::string npub = nip19::encode_npub(filled(1));
  const std::string note = nip19::encode_note(filled(1));
  EXPECT_TRUE(nip19::decode_npub(npub).ok());
  EXPECT_EQ(nip19::decode_npub(note).code(), errc::bech32_prefix);
  EXPECT_EQ(nip19::decode_note(npub).code(), errc::bech32_prefix);
  EXPECT_EQ(nip19::decode_nsec(npub).code(), errc::bech32_prefix);
  EXPECT_EQ(nip19::decode_nprofile(npub).code(), errc::bech32_prefix);
  EXPECT_EQ(nip19::decode_nevent(note).code(), errc::bech32_prefix);
  EXPECT_EQ(nip19::decode_naddr(note).code(), errc::bech32_prefix);
  // Errors from bech32 pass through the typed decoders unchanged.
  std::string bad = npub;
  bad.back() = bad.back() == 'q' ? 'p' : 'q';
  EXPECT_EQ(nip19::decode_npub(bad).code(), errc::bech32_checksum);
  // An uppercase string decodes.
  std::string upper = npub;
  for (auto& ch : upper)
    if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
  auto u = nip19::decode_npub(upper);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(*u, filled(1));
}

TEST(nip19_test, nsec_error_details_do_not_leak_the_key) {
  const bytes32 sk = hex32("67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa");
  std::string s = nip19::encode_nsec(sk);
  std::string broken = s;
  broken[10] = broken[10] == 'q' ? 'p' : 'q';
  auto d = nip19::decode_nsec(broken);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.err().detail.find(s.substr(5)), std::string::npos);
  EXPECT_EQ(d.err().detail.find("67dea2ed"), std::string::npos);
  auto wrong = nip19::decode_npub(s);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.code(), errc::bech32_prefix);
  EXPECT_EQ(wrong.err().detail.find(s.substr(5)), std::string::npos);
}

TEST(nip19_test, random_garbage_never_crashes) {
  std::mt19937 rng(1919);
  const std::string alphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l1QPZbio";
  const std::string prefixes[] = {"npub1", "nsec1", "note1", "nprofile1", "nevent1", "naddr1", ""};
  int rejected = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string s = prefixes[rng() % 7];
    std::size_t n = rng() % 200;
    for (std::size_t k = 0; k < n; ++k)
      s.push_back(rng() % 8 ? alphabet[rng() % alphabet.size()] : static_cast<char>(rng()));
    auto d = nip19::decode(s);
    if (!d.ok()) {
      ++rejected;
      EXPECT_NE(d.code(), errc::ok);
      EXPECT_NE(d.code(), errc::internal);
    }
  }
  EXPECT_GT(rejected, 4900);  // a random checksum passes about once in 2^30
  // Random payloads with valid checksums exercise the TLV parser itself.
  const char* tlv_hrps[] = {"nprofile", "nevent", "naddr"};
  for (int i = 0; i < 5000; ++i) {
    bytes payload(rng() % 120);
    for (auto& b : payload) b = static_cast<std::uint8_t>(rng() % 3 ? rng() % 4 : rng());
    auto d = nip19::decode(wrap(tlv_hrps[i % 3], payload));
    if (!d.ok()) EXPECT_TRUE(d.code() == errc::tlv_invalid) << d.err().detail;
  }
}

}  // namespace
}  // namespace nostr
