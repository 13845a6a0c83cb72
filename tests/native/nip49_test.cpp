// NIP-49 private key encryption against the published vectors (tests/vectors/nip49.json: 49.md's
// own and nostr-tools' table), scrypt against RFC 7914, and every refusal with its code.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "crypto/scrypt.hpp"
#include "nips/bech32.hpp"
#include "nips/nip49.hpp"
#include "test_support.hpp"
#include "util/hex.hpp"

using namespace nostr;
using json = nlohmann::json;

namespace {

const json& vectors() {
  static const json v =
      json::parse(test::read_file(std::string(NOSTR_TESTS_DIR) + "/vectors/nip49.json"), nullptr, false);
  return v;
}

bytes32 h32(const std::string& s) {
  auto r = hex::decode32(s);
  EXPECT_TRUE(r.ok()) << s;
  return r.ok() ? *r : bytes32{};
}

// The salt and nonce an ncryptsec carries, to re-encrypt with them (the output is then fixed).
void salt_and_nonce(const std::string& ncryptsec, nip49::salt16& salt, nip49::nonce24& nonce) {
  auto d = bech32::decode(ncryptsec);
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->data.size(), nip49::kPayloadLen);
  std::memcpy(salt.data(), d->data.data() + 2, 16);
  std::memcpy(nonce.data(), d->data.data() + 18, 24);
}

std::string with_byte(const std::string& ncryptsec, std::size_t at, std::uint8_t value) {
  auto d = bech32::decode(ncryptsec);
  EXPECT_TRUE(d.ok());
  d->data[at] = value;
  return *bech32::encode("ncryptsec", d->data);
}

}  // namespace

TEST(nip49_test, spec_vector_decrypts) {
  ASSERT_FALSE(vectors().is_discarded());
  for (const auto& v : vectors()["nip49_md"]["decrypt"]) {
    auto d = nip49::decrypt(v["ncryptsec"].get<std::string>(), v["password"].get<std::string>());
    ASSERT_TRUE(d.ok()) << d.err().detail;
    EXPECT_EQ(hex::encode(d->secret_key.b), v["secret_key"].get<std::string>());
    EXPECT_EQ(d->log_n, v["log_n"].get<unsigned>());
  }
}

TEST(nip49_test, vectors_decrypt_and_reencrypt_to_the_same_string) {
  const auto& list = vectors()["nostr_tools"];
  ASSERT_EQ(list.size(), 11u);
  // The core takes the password as NFKC bytes (the JS API normalizes): the one vector whose
  // password is not NFKC yet gets its normalized form from 49.md's example.
  const auto& n = vectors()["nip49_md"]["password_nfkc"][0];
  const bytes raw = *hex::decode(n["input_utf8"].get<std::string>());
  const bytes nfkc = *hex::decode(n["nfkc_utf8"].get<std::string>());
  for (const auto& v : list) {
    const std::string nc = v["ncryptsec"];
    std::string pw = v["password"];
    if (pw == std::string(raw.begin(), raw.end())) pw.assign(nfkc.begin(), nfkc.end());
    auto d = nip49::decrypt(nc, pw);
    ASSERT_TRUE(d.ok()) << nc << ": " << d.err().detail;
    EXPECT_EQ(hex::encode(d->secret_key.b), v["secret_key"].get<std::string>());
    EXPECT_EQ(d->log_n, v["log_n"].get<unsigned>());
    EXPECT_EQ(d->key_security_byte, v["key_security"].get<unsigned>());
    nip49::salt16 salt;
    nip49::nonce24 nonce;
    salt_and_nonce(nc, salt, nonce);
    auto again = nip49::encrypt(h32(v["secret_key"]), pw, v["log_n"], v["key_security"].get<std::uint8_t>(), salt, nonce);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, nc);
  }
  // The spec's vector too: fixed salt and nonce give back its exact string.
  const auto& spec = vectors()["nip49_md"]["decrypt"][0];
  nip49::salt16 salt;
  nip49::nonce24 nonce;
  salt_and_nonce(spec["ncryptsec"], salt, nonce);
  auto d = nip49::decrypt(spec["ncryptsec"].get<std::string>(), "nostr");
  ASSERT_TRUE(d.ok());
  auto again = nip49::encrypt(h32(spec["secret_key"]), "nostr", 16, d->key_security_byte, salt, nonce);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, spec["ncryptsec"].get<std::string>());
}

TEST(nip49_test, the_core_takes_the_password_bytes_as_given) {
  // The caller normalizes (49.md: NFKC); given the unnormalized bytes, the core derives another
  // key. nostr-tools' table has the same key under both forms of the password, and both decrypt
  // with the NFKC form only.
  const auto& n = vectors()["nip49_md"]["password_nfkc"][0];
  bytes raw = *hex::decode(n["input_utf8"].get<std::string>());
  bytes nfkc = *hex::decode(n["nfkc_utf8"].get<std::string>());
  const std::string raw_pw(raw.begin(), raw.end());
  const std::string nfkc_pw(nfkc.begin(), nfkc.end());
  for (const auto& v : vectors()["nostr_tools"]) {
    if (v["password"] != raw_pw && v["password"] != nfkc_pw) continue;
    EXPECT_TRUE(nip49::decrypt(v["ncryptsec"].get<std::string>(), nfkc_pw).ok());
    auto bad = nip49::decrypt(v["ncryptsec"].get<std::string>(), raw_pw);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.err().code, errc::nip49_decrypt_failed);
  }
}

TEST(nip49_test, refusals_have_their_codes) {
  const std::string nc = vectors()["nostr_tools"][2]["ncryptsec"];  // log_n 3, "777z7z7z7z7z7z7z"
  const std::string pw = "777z7z7z7z7z7z7z";
  auto code = [](const result<nip49::decrypted>& r) { return r.ok() ? errc::ok : r.err().code; };
  EXPECT_EQ(code(nip49::decrypt(nc, "777z7z7z7z7z7z7Z")), errc::nip49_decrypt_failed);
  EXPECT_EQ(code(nip49::decrypt(nc, "")), errc::nip49_decrypt_failed);
  // Every authenticated byte: salt, nonce, key security byte, ciphertext, tag.
  for (std::size_t at : {2u, 17u, 18u, 41u, 42u, 43u, 74u, 75u, 90u})
    EXPECT_EQ(code(nip49::decrypt(with_byte(nc, at, static_cast<std::uint8_t>(bech32::decode(nc)->data[at] ^ 1)), pw)),
              errc::nip49_decrypt_failed)
        << at;
  EXPECT_EQ(code(nip49::decrypt(with_byte(nc, 0, 1), pw)), errc::nip49_unknown_version);
  EXPECT_EQ(code(nip49::decrypt(with_byte(nc, 1, 0), pw)), errc::nip49_invalid_log_n);
  EXPECT_EQ(code(nip49::decrypt(with_byte(nc, 1, 21), pw)), errc::nip49_invalid_log_n);
  EXPECT_EQ(code(nip49::decrypt(with_byte(nc, 1, 255), pw)), errc::nip49_invalid_log_n);
  EXPECT_EQ(code(nip49::decrypt(nc, pw, 2)), errc::nip49_invalid_log_n);  // the caller's own cap
  auto d = bech32::decode(nc);
  bytes shorter(d->data.begin(), d->data.end() - 1);
  EXPECT_EQ(code(nip49::decrypt(*bech32::encode("ncryptsec", shorter), pw)), errc::nip49_invalid_payload);
  EXPECT_EQ(code(nip49::decrypt(*bech32::encode("nsec", d->data), pw)), errc::bech32_prefix);
  EXPECT_EQ(code(nip49::decrypt(nc.substr(0, nc.size() - 1) + (nc.back() == 'q' ? 'p' : 'q'), pw)), errc::bech32_checksum);
  EXPECT_EQ(code(nip49::decrypt("not bech32", pw)), errc::bech32_invalid);

  const bytes32 sk = h32("3501454135014541350145413501453fefb02227e449e57cf4d3a3ce05378683");
  nip49::salt16 salt{};
  nip49::nonce24 nonce{};
  auto enc_code = [](const result<std::string>& r) { return r.ok() ? errc::ok : r.err().code; };
  EXPECT_EQ(enc_code(nip49::encrypt(sk, "pw", 0, 2, salt, nonce)), errc::nip49_invalid_log_n);
  EXPECT_EQ(enc_code(nip49::encrypt(sk, "pw", 21, 2, salt, nonce)), errc::nip49_invalid_log_n);
  EXPECT_EQ(enc_code(nip49::encrypt(sk, "pw", 4, 3, salt, nonce)), errc::nip49_invalid_key_security);
  auto ok = nip49::encrypt(sk, "pw", 4, 1, salt, nonce);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->size(), 162u);
  EXPECT_EQ(ok->rfind("ncryptsec1", 0), 0u);
  auto back = nip49::decrypt(*ok, "pw");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->secret_key.b, sk);
  EXPECT_EQ(back->key_security_byte, 1);
  EXPECT_EQ(back->log_n, 4u);
}

// RFC 7914, section 12: the first two scrypt test vectors.
TEST(nip49_test, scrypt_rfc7914_vectors) {
  std::uint8_t out[64];
  ASSERT_TRUE(crypto::scrypt(nullptr, 0, nullptr, 0, 4, 1, 1, out, sizeof out).ok());
  EXPECT_EQ(hex::encode(out, sizeof out),
            "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
            "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906");
  const std::string pw = "password";
  const std::string salt = "NaCl";
  ASSERT_TRUE(crypto::scrypt(as_bytes(pw), pw.size(), as_bytes(salt), salt.size(), 10, 8, 16, out, sizeof out).ok());
  EXPECT_EQ(hex::encode(out, sizeof out),
            "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
            "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640");
  EXPECT_FALSE(crypto::scrypt(as_bytes(pw), pw.size(), nullptr, 0, 0, 8, 1, out, 32).ok());
}
