#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "util/base64.hpp"

using namespace nostr;

namespace {

std::string enc(const std::string& s) { return base64::encode(as_bytes(s), s.size()); }

std::string dec(const std::string& s) {
  auto r = base64::decode(s);
  if (!r) return "<error>";
  return std::string(r->begin(), r->end());
}

}  // namespace

TEST(base64_test, rfc4648_section10_vectors) {
  const std::pair<const char*, const char*> cases[] = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},         {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, b64] : cases) {
    EXPECT_EQ(enc(plain), b64);
    EXPECT_EQ(dec(b64), plain);
    EXPECT_EQ(base64::encoded_len(std::strlen(plain)), std::strlen(b64));
    EXPECT_EQ(base64::decoded_len(b64), std::strlen(plain));
  }
}

TEST(base64_test, all_byte_values_round_trip_at_every_length) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(255 - i));
  for (std::size_t n = 0; n <= all.size(); ++n) {
    std::string part = all.substr(0, n);
    std::string e = enc(part);
    ASSERT_EQ(e.size() % 4, 0u);
    EXPECT_EQ(dec(e), part) << n;
  }
  EXPECT_EQ(enc(std::string("\xfb\xff\xbf", 3)), "+/+/");  // the two non-alphanumeric digits
}

TEST(base64_test, decodes_in_place) {
  std::string text = "Zm9vYmFyIGJheiBxdXV4IQ==";  // "foobar baz quux!"
  auto* p = reinterpret_cast<std::uint8_t*>(text.data());
  auto n = base64::decode_to(text, p);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(std::string(text.data(), *n), "foobar baz quux!");
}

TEST(base64_test, rejects_non_canonical_and_foreign_input) {
  const char* bad[] = {
      "Zg",          // padding missing
      "Zg=",         // length not a multiple of 4
      "Zm9v\n",      // whitespace
      " Zm9v",       // leading space
      "Zm 9",        // inner space
      "Zm9v-_==",    // URL-safe alphabet
      "Zh==",        // non-zero bits hidden by the padding
      "Zm9=",        // non-zero bits hidden by the padding
      "Z===",        // too much padding
      "====",        // nothing but padding
      "Zg==Zm9v",    // padding in the middle
      "Zm=v",        // '=' before a digit
      "Zm9v\xc3\xa9\xc3\xa9",  // non-ASCII
  };
  for (const char* s : bad) {
    auto r = base64::decode(s);
    EXPECT_FALSE(r.ok()) << s;
    if (!r.ok()) EXPECT_EQ(r.code(), errc::invalid_base64) << s;
  }
  auto nul = base64::decode(std::string_view("Zm\0v", 4));
  EXPECT_EQ(nul.code(), errc::invalid_base64);
}

TEST(base64_test, decoded_len_counts_padding) {
  EXPECT_EQ(base64::decoded_len("Zm9vYg=="), 4u);
  EXPECT_EQ(base64::decoded_len("Zm9vYmE="), 5u);
  EXPECT_EQ(base64::decoded_len("abc"), 0u);  // not a multiple of 4
}
