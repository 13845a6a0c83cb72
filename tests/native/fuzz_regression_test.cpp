// Regression tests for the findings of the fuzz targets (tests/fuzz), one per finding, each named
// after the target that found it.
#include <gtest/gtest.h>

#include "crypto/secp256k1.hpp"
#include "nips/nip59.hpp"
#include "util/hex.hpp"

using namespace nostr;

namespace {

bytes32 filled(std::uint8_t v) {
  bytes32 b{};
  b.fill(v);
  return b;
}

std::string pub_of(const bytes32& sk) { return hex::encode(crypto::xonly_public_key(sk).value()); }

result<event> wrap_text(const std::string& content, const tag_list& extra_tags = {}) {
  const bytes32 author = filled(0x01), recipient = filled(0x02);
  event_template t;
  t.kind = 14;
  t.created_at = 1700000000;
  t.content = content;
  t.tags = {{"p", pub_of(recipient)}};
  for (const auto& tg : extra_tags) t.tags.push_back(tg);
  const event rumor = nip59::create_rumor(t, pub_of(author));
  nip59::wrap_randomness rnd;
  rnd.wrap_secret = filled(0x03);
  rnd.seal_nonce = filled(0x04);
  rnd.wrap_nonce = filled(0x05);
  return nip59::wrap(rumor, author, pub_of(recipient), 1700000000, rnd);
}

}  // namespace

// fuzz/nip59_unwrap: a rumor whose content was not UTF-8 ("hef\x8eo") was sealed and wrapped, and
// the recipient's parse_rumor then refused it: a wrap nobody could open. The sender refuses now.
TEST(fuzz_regression_test, nip59_wrap_refuses_a_rumor_that_is_not_utf8) {
  auto w = wrap_text("hef\x8eo");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.code(), errc::nip59_invalid_rumor);
  // A lone UTF-16 surrogate as Embind encodes it (CESU-8 bytes), in a tag.
  auto t = wrap_text("fine", {{"subject", "\xed\xa0\x80"}});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.code(), errc::nip59_invalid_rumor);
  // Valid UTF-8 still wraps and unwraps.
  auto ok = wrap_text("h\xc3\xa9llo \xf0\x9f\x92\x9c");
  ASSERT_TRUE(ok.ok()) << ok.err().detail;
  auto u = nip59::unwrap(*ok, filled(0x02));
  ASSERT_TRUE(u.ok()) << u.err().detail;
  EXPECT_EQ(u->rumor.content, "h\xc3\xa9llo \xf0\x9f\x92\x9c");
}
