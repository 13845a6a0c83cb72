#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "crypto/chacha20.hpp"
#include "crypto/hash.hpp"
#include "crypto/secp256k1.hpp"
#include "nips/nip44.hpp"
#include "test_support.hpp"
#include "util/base64.hpp"
#include "util/hex.hpp"

using namespace nostr;
using json = nlohmann::json;

namespace {

const json& v2() {
  static const json v = test::load_vector_json("nip44.vectors.json");
  return v["v2"];
}

bytes32 h32(const json& j) {
  auto r = hex::decode32(j.get<std::string>());
  EXPECT_TRUE(r.ok()) << j;
  return r.ok() ? *r : bytes32{};
}

std::string sha256_hex(std::string_view s) { return hex::encode(crypto::sha256(as_bytes(s), s.size())); }

std::string repeat(const std::string& pattern, std::size_t times) {
  std::string s;
  s.reserve(pattern.size() * times);
  for (std::size_t i = 0; i < times; ++i) s += pattern;
  return s;
}

const bytes32 kKey = *hex::decode32("c41c775356fd92eadc63ff5a0dc1da211b268cbea22316767095b2871ea1412d");
const bytes32 kNonce = *hex::decode32("0000000000000000000000000000000000000000000000000000000000000001");

// A payload whose MAC is right but whose padded plaintext is `padded` as given (44.md steps 5-7
// done by hand), to reach the padding checks.
std::string craft(const bytes& padded) {
  bytes raw(1 + 32 + padded.size() + 32);
  raw[0] = 2;
  std::memcpy(raw.data() + 1, kNonce.data(), 32);
  std::memcpy(raw.data() + 33, padded.data(), padded.size());
  nip44::message_keys k = nip44::get_message_keys(kKey, kNonce);
  crypto::chacha20_xor(raw.data() + 33, raw.data() + 33, padded.size(), k.chacha_nonce.data(), 0,
                       k.chacha_key.data());
  bytes32 mac = crypto::hmac_sha256(k.hmac_key.data(), 32, raw.data() + 1, 32 + padded.size());
  std::memcpy(raw.data() + 33 + padded.size(), mac.data(), 32);
  return base64::encode(raw.data(), raw.size());
}

errc decrypt_code(const std::string& payload) { return nip44::decrypt(payload, kKey).code(); }

}  // namespace

TEST(nip44_test, vector_file_is_the_published_one) {
  std::string text = test::read_file(test::vector_path("nip44.vectors.json"));
  // 44.md, "Tests and code": the sha256 of the vector file.
  EXPECT_EQ(sha256_hex(text), "269ed0f69e4c192512cc779e78c555090cebc7c785b609e338a62afc3ce25040");
}

TEST(nip44_test, valid_get_conversation_key) {
  const auto& cases = v2()["valid"]["get_conversation_key"];
  ASSERT_EQ(cases.size(), 35u);
  for (const auto& c : cases) {
    auto ck = nip44::get_conversation_key(h32(c["sec1"]), h32(c["pub2"]));
    ASSERT_TRUE(ck.ok()) << c;
    EXPECT_EQ(hex::encode(*ck), c["conversation_key"].get<std::string>()) << c;
  }
}

TEST(nip44_test, valid_get_message_keys) {
  const auto& mk = v2()["valid"]["get_message_keys"];
  bytes32 ck = h32(mk["conversation_key"]);
  ASSERT_EQ(mk["keys"].size(), 32u);
  for (const auto& c : mk["keys"]) {
    nip44::message_keys k = nip44::get_message_keys(ck, h32(c["nonce"]));
    EXPECT_EQ(hex::encode(k.chacha_key), c["chacha_key"].get<std::string>());
    EXPECT_EQ(hex::encode(k.chacha_nonce), c["chacha_nonce"].get<std::string>());
    EXPECT_EQ(hex::encode(k.hmac_key), c["hmac_key"].get<std::string>());
  }
}

TEST(nip44_test, valid_calc_padded_len) {
  const auto& cases = v2()["valid"]["calc_padded_len"];
  ASSERT_EQ(cases.size(), 24u);
  for (const auto& c : cases) {
    auto p = nip44::calc_padded_len(c[0].get<std::size_t>());
    ASSERT_TRUE(p.ok()) << c;
    EXPECT_EQ(*p, c[1].get<std::size_t>()) << c;
  }
}

TEST(nip44_test, calc_padded_len_bounds) {
  EXPECT_EQ(nip44::calc_padded_len(0).code(), errc::nip44_invalid_plaintext_length);
  EXPECT_EQ(*nip44::calc_padded_len(1), 32u);
  EXPECT_EQ(*nip44::calc_padded_len(65537), 81920u);  // nip44-extended-length.json
  if constexpr (sizeof(std::size_t) == 8) {
    EXPECT_EQ(*nip44::calc_padded_len(nip44::kMaxPlaintext), std::size_t{1} << 32);
    EXPECT_EQ(nip44::calc_padded_len(std::size_t{nip44::kMaxPlaintext} + 1).code(),
              errc::nip44_invalid_plaintext_length);
  }
}

TEST(nip44_test, valid_encrypt_decrypt) {
  const auto& cases = v2()["valid"]["encrypt_decrypt"];
  ASSERT_EQ(cases.size(), 10u);
  for (const auto& c : cases) {
    bytes32 sec1 = h32(c["sec1"]), sec2 = h32(c["sec2"]), ck = h32(c["conversation_key"]);
    auto pub1 = crypto::xonly_public_key(sec1);
    auto pub2 = crypto::xonly_public_key(sec2);
    ASSERT_TRUE(pub1.ok() && pub2.ok());
    auto ck12 = nip44::get_conversation_key(sec1, *pub2);
    auto ck21 = nip44::get_conversation_key(sec2, *pub1);
    ASSERT_TRUE(ck12.ok() && ck21.ok());
    EXPECT_EQ(*ck12, ck);
    EXPECT_EQ(*ck21, ck);
    const std::string plaintext = c["plaintext"].get<std::string>();
    auto payload = nip44::encrypt(plaintext, ck, h32(c["nonce"]));
    ASSERT_TRUE(payload.ok()) << c;
    EXPECT_EQ(*payload, c["payload"].get<std::string>());
    auto back = nip44::decrypt(c["payload"].get<std::string>(), ck);
    ASSERT_TRUE(back.ok()) << c << back.err().detail;
    EXPECT_EQ(*back, plaintext);
  }
}

TEST(nip44_test, valid_encrypt_decrypt_long_msg) {
  const auto& cases = v2()["valid"]["encrypt_decrypt_long_msg"];
  ASSERT_EQ(cases.size(), 3u);
  for (const auto& c : cases) {
    std::string plaintext = repeat(c["pattern"].get<std::string>(), c["repeat"].get<std::size_t>());
    EXPECT_EQ(sha256_hex(plaintext), c["plaintext_sha256"].get<std::string>());
    bytes32 ck = h32(c["conversation_key"]);
    auto payload = nip44::encrypt(plaintext, ck, h32(c["nonce"]));
    ASSERT_TRUE(payload.ok());
    EXPECT_EQ(sha256_hex(*payload), c["payload_sha256"].get<std::string>());
    auto back = nip44::decrypt(*payload, ck);
    ASSERT_TRUE(back.ok());
    EXPECT_TRUE(*back == plaintext);
  }
}

TEST(nip44_test, extended_length_prefix_vectors) {
  json v = test::load_vector_json("nip44-extended-length.json");
  ASSERT_FALSE(v.is_discarded());
  bytes32 ck = h32(v["conversation_key"]), nonce = h32(v["nonce"]);
  ASSERT_EQ(v["cases"].size(), 3u);
  for (const auto& c : v["cases"]) {
    const std::size_t n = c["plaintext_len"].get<std::size_t>();
    std::string plaintext(n, 'a');
    EXPECT_EQ(sha256_hex(plaintext), c["plaintext_sha256"].get<std::string>());
    EXPECT_EQ(*nip44::calc_padded_len(n), c["padded_len"].get<std::size_t>());
    EXPECT_EQ(nip44::prefix_len(n), n >= 65536 ? 6u : 2u);
    auto payload = nip44::encrypt(plaintext, ck, nonce);
    ASSERT_TRUE(payload.ok());
    EXPECT_EQ(sha256_hex(*payload), c["payload_sha256"].get<std::string>()) << n;
    auto back = nip44::decrypt(*payload, ck);
    ASSERT_TRUE(back.ok()) << back.err().detail;
    EXPECT_TRUE(*back == plaintext);
  }
}

TEST(nip44_test, invalid_encrypt_msg_lengths_only_zero_under_current_spec) {
  // The pinned vector file lists 0, 65536, 100000 and 10000000; since 44.md's extended length
  // prefix only 0 is invalid (vectors/README.md).
  const auto& lens = v2()["invalid"]["encrypt_msg_lengths"];
  ASSERT_EQ(lens.size(), 4u);
  for (const auto& l : lens) {
    const std::size_t n = l.get<std::size_t>();
    std::string plaintext(n, 'x');
    auto payload = nip44::encrypt(plaintext, kKey, kNonce);
    if (n == 0) {
      EXPECT_EQ(payload.code(), errc::nip44_invalid_plaintext_length);
      continue;
    }
    ASSERT_TRUE(payload.ok()) << n;
    auto back = nip44::decrypt(*payload, kKey);
    ASSERT_TRUE(back.ok()) << n;
    EXPECT_EQ(back->size(), n);
    EXPECT_TRUE(*back == plaintext);
  }
}

TEST(nip44_test, invalid_get_conversation_key) {
  const auto& cases = v2()["invalid"]["get_conversation_key"];
  ASSERT_EQ(cases.size(), 8u);
  for (const auto& c : cases) {
    auto ck = nip44::get_conversation_key(h32(c["sec1"]), h32(c["pub2"]));
    ASSERT_FALSE(ck.ok()) << c;
    const std::string note = c["note"].get<std::string>();
    errc want = note.rfind("pub2", 0) == 0 ? errc::invalid_public_key : errc::invalid_secret_key;
    EXPECT_EQ(ck.code(), want) << note;
  }
}

TEST(nip44_test, invalid_decrypt_each_with_its_code) {
  const auto& cases = v2()["invalid"]["decrypt"];
  ASSERT_EQ(cases.size(), 12u);
  for (const auto& c : cases) {
    const std::string note = c["note"].get<std::string>();
    errc want = note.rfind("unknown encryption version", 0) == 0 ? errc::nip44_unknown_version
                : note == "invalid MAC"                         ? errc::nip44_invalid_mac
                : note == "invalid padding"                     ? errc::nip44_invalid_padding
                                                                : errc::nip44_invalid_payload;
    auto r = nip44::decrypt(c["payload"].get<std::string>(), h32(c["conversation_key"]));
    ASSERT_FALSE(r.ok()) << note;
    EXPECT_EQ(r.code(), want) << note << ": " << r.err().detail;
  }
}

TEST(nip44_test, empty_plaintext_is_refused) {
  EXPECT_EQ(nip44::encrypt("", kKey, kNonce).code(), errc::nip44_invalid_plaintext_length);
  EXPECT_EQ(nip44::raw_len(0).code(), errc::nip44_invalid_plaintext_length);
}

TEST(nip44_test, round_trips_across_padding_boundaries) {
  for (std::size_t n : {1u, 2u, 31u, 32u, 33u, 63u, 64u, 65u, 255u, 256u, 257u, 320u, 321u, 1024u, 1025u, 4096u,
                        65534u, 65535u, 65536u, 65537u, 131072u, 200000u}) {
    std::string plaintext;
    plaintext.reserve(n);
    for (std::size_t i = 0; i < n; ++i) plaintext.push_back(static_cast<char>(i * 7 + 1));
    auto payload = nip44::encrypt(plaintext, kKey, kNonce);
    ASSERT_TRUE(payload.ok()) << n;
    EXPECT_EQ(payload->size(), base64::encoded_len(*nip44::raw_len(n))) << n;
    auto back = nip44::decrypt(*payload, kKey);
    ASSERT_TRUE(back.ok()) << n << " " << back.err().detail;
    EXPECT_TRUE(*back == plaintext) << n;
  }
}

TEST(nip44_test, buffer_forms_match_the_string_forms_and_work_in_place) {
  const std::string plaintext = "in place \xf0\x9f\xa6\x84 over the scratch buffer";
  const std::size_t n = plaintext.size();
  bytes raw(*nip44::raw_len(n));
  std::memcpy(raw.data() + nip44::plaintext_offset(n), plaintext.data(), n);
  auto sealed = nip44::seal(raw.data(), n, kKey, kNonce);
  ASSERT_TRUE(sealed.ok());
  EXPECT_EQ(*sealed, raw.size());
  std::string payload = base64::encode(raw.data(), raw.size());
  EXPECT_EQ(payload, *nip44::encrypt(plaintext, kKey, kNonce));

  std::string buf = payload;  // decode in place over the text itself
  auto* p = reinterpret_cast<std::uint8_t*>(buf.data());
  auto dlen = nip44::decode_payload(buf, p);
  ASSERT_TRUE(dlen.ok());
  EXPECT_EQ(*dlen, raw.size());
  auto range = nip44::open(p, *dlen, kKey);
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(range->offset, 35u);
  EXPECT_EQ(std::string(buf.data() + range->offset, range->size), plaintext);
}

TEST(nip44_test, tampering_gives_the_mac_error) {
  const std::string payload = *nip44::encrypt("attack at dawn", kKey, kNonce);
  bytes raw = *base64::decode(payload);
  for (std::size_t i = 1; i < raw.size(); i += 7) {  // nonce, ciphertext and mac bytes
    bytes t = raw;
    t[i] ^= 0x01;
    EXPECT_EQ(decrypt_code(base64::encode(t.data(), t.size())), errc::nip44_invalid_mac) << i;
  }
  bytes32 other = kKey;
  other[31] ^= 0x80;
  EXPECT_EQ(nip44::decrypt(payload, other).code(), errc::nip44_invalid_mac);
  // Cutting 4 characters (3 bytes) keeps the base64 valid and the size plausible: the MAC fails.
  const std::string longer = *nip44::encrypt(std::string(100, 'L'), kKey, kNonce);
  EXPECT_EQ(decrypt_code(longer.substr(0, longer.size() - 4)), errc::nip44_invalid_mac);
}

TEST(nip44_test, version_and_flag_checks) {
  const std::string payload = *nip44::encrypt("versioned", kKey, kNonce);
  bytes raw = *base64::decode(payload);
  for (std::uint8_t v : {0, 1, 3, 0x80, 0xff}) {
    bytes t = raw;
    t[0] = v;
    EXPECT_EQ(decrypt_code(base64::encode(t.data(), t.size())), errc::nip44_unknown_version) << int(v);
  }
  EXPECT_EQ(decrypt_code("#" + payload), errc::nip44_unknown_version);
  EXPECT_EQ(decrypt_code("#"), errc::nip44_unknown_version);
}

TEST(nip44_test, malformed_payload_text) {
  // 40 bytes pad to 64: a raw payload of 131 bytes, so the base64 ends in one '='.
  const std::string payload = *nip44::encrypt(std::string(40, 'w'), kKey, kNonce);
  EXPECT_EQ(decrypt_code(""), errc::nip44_invalid_payload);
  EXPECT_EQ(decrypt_code(payload.substr(0, 131)), errc::nip44_invalid_payload);  // below 132 characters
  EXPECT_EQ(decrypt_code(payload.substr(0, payload.size() - 1)), errc::nip44_invalid_payload);  // not x4
  EXPECT_EQ(decrypt_code(payload + "\n"), errc::nip44_invalid_payload);
  EXPECT_EQ(decrypt_code(" " + payload.substr(1)), errc::nip44_invalid_payload);
  std::string url = payload;
  url[10] = '-';
  EXPECT_EQ(decrypt_code(url), errc::nip44_invalid_payload);
  // 132 characters that decode to 97 bytes ("==" padding): below the 99-byte minimum.
  bytes small(97, 2);
  EXPECT_EQ(decrypt_code(base64::encode(small.data(), small.size())), errc::nip44_invalid_payload);
  // Padding bits that are not zero: a second spelling of the same bytes is refused.
  std::string last = payload;
  ASSERT_EQ(last.back(), '=');
  std::size_t pos = last.find('=');
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::size_t digit = std::strchr(alphabet, last[pos - 1]) - alphabet;
  last[pos - 1] = alphabet[digit ^ 1];  // flips a bit the padding hides
  EXPECT_EQ(decrypt_code(payload), errc::ok);
  EXPECT_EQ(decrypt_code(last), errc::nip44_invalid_payload);
}

TEST(nip44_test, padding_errors_with_a_valid_mac) {
  auto padded = [](std::initializer_list<std::uint8_t> head, std::size_t size) {
    bytes p(size, 0);
    std::copy(head.begin(), head.end(), p.begin());
    return p;
  };
  // Control: a correct u16 prefix decrypts.
  auto ok = nip44::decrypt(craft(padded({0, 1, 'x'}, 34)), kKey);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, "x");
  // u16 length longer than the data; padded size wrong for the length.
  EXPECT_EQ(decrypt_code(craft(padded({0, 40}, 34))), errc::nip44_invalid_padding);
  EXPECT_EQ(decrypt_code(craft(padded({0, 1}, 66))), errc::nip44_invalid_padding);
  EXPECT_EQ(decrypt_code(craft(padded({0, 33}, 34))), errc::nip44_invalid_padding);
  // Zero length in both prefixes.
  EXPECT_EQ(decrypt_code(craft(padded({0, 0, 0, 0, 0, 0}, 34))), errc::nip44_invalid_padding);
  // Extended prefix for a length the u16 could hold: only one encoding per length.
  EXPECT_EQ(decrypt_code(craft(padded({0, 0, 0, 0, 0, 1}, 38))), errc::nip44_invalid_padding);
  EXPECT_EQ(decrypt_code(craft(padded({0, 0, 0, 0, 0xff, 0xff}, 6 + 65536))), errc::nip44_invalid_padding);
  // Extended prefix whose length needs more data than there is.
  EXPECT_EQ(decrypt_code(craft(padded({0, 0, 0, 1, 0, 0}, 34))), errc::nip44_invalid_padding);
  EXPECT_EQ(decrypt_code(craft(padded({0, 0, 0xff, 0xff, 0xff, 0xff}, 6 + 65536))), errc::nip44_invalid_padding);
  // Control: a correct extended prefix.
  bytes ext = padded({0, 0, 0, 1, 0, 0}, 6 + 65536);
  std::memset(ext.data() + 6, 'y', 65536);
  auto big = nip44::decrypt(craft(ext), kKey);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(*big, std::string(65536, 'y'));
}

TEST(nip44_test, bad_keys_are_refused) {
  bytes32 zero{};
  bytes32 pub = *crypto::xonly_public_key(kKey);
  EXPECT_EQ(nip44::get_conversation_key(zero, pub).code(), errc::invalid_secret_key);
  bytes32 ff;
  ff.fill(0xff);
  EXPECT_EQ(nip44::get_conversation_key(kKey, ff).code(), errc::invalid_public_key);
  auto a = nip44::get_conversation_key(kKey, pub);
  ASSERT_TRUE(a.ok());
  EXPECT_NE(*a, kKey);
}
