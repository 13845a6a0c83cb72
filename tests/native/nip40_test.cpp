#include "nips/nip40.hpp"

#include <gtest/gtest.h>

using namespace nostr;

namespace {

event with_tags(tag_list tags) {
  event e;
  e.tags = std::move(tags);
  return e;
}

}  // namespace

TEST(nip40_test, reads_the_first_expiration_tag) {
  auto r = nip40::get_expiration({{"e", "x"}, {"expiration", "1600000000"}, {"expiration", "5"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, std::optional<std::int64_t>(1600000000));
  auto none = nip40::get_expiration({{"e", "x"}, {"expirationx", "1"}, {}});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_EQ(*nip40::get_expiration({{"expiration", "0"}}), std::optional<std::int64_t>(0));
  EXPECT_EQ(*nip40::get_expiration({{"expiration", "007", "extra"}}), std::optional<std::int64_t>(7));
  EXPECT_EQ(*nip40::get_expiration({{"expiration", "9007199254740991"}}),
            std::optional<std::int64_t>(nip40::kMaxTimestamp));
}

TEST(nip40_test, malformed_values_are_invalid_expiration) {
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "1.5", "1e9", "0x10", "abc", "１", "9007199254740992",
                          "99999999999999999999999"}) {
    auto r = nip40::get_expiration({{"expiration", bad}});
    EXPECT_EQ(r.code(), errc::invalid_expiration) << bad;
    EXPECT_EQ(nip40::is_expired(with_tags({{"expiration", bad}}), 0).code(), errc::invalid_expiration) << bad;
  }
  EXPECT_EQ(nip40::get_expiration({{"expiration"}}).code(), errc::invalid_expiration);
  // Only the first tag is read, so a bad first one is an error even when a later one is fine.
  EXPECT_EQ(nip40::get_expiration({{"expiration", "x"}, {"expiration", "5"}}).code(), errc::invalid_expiration);
}

TEST(nip40_test, expired_from_the_expiration_second_on) {
  event e = with_tags({{"expiration", "1600000000"}});
  EXPECT_FALSE(*nip40::is_expired(e, 1599999999));
  EXPECT_TRUE(*nip40::is_expired(e, 1600000000));  // the boundary: NIP-40's "time at which" it expires
  EXPECT_TRUE(*nip40::is_expired(e, 1600000001));
  EXPECT_FALSE(*nip40::is_expired(with_tags({}), INT64_MAX));
  EXPECT_FALSE(*nip40::is_expired(with_tags({{"expiration", "9007199254740991"}}), 9007199254740990));
  EXPECT_TRUE(*nip40::is_expired(with_tags({{"expiration", "0"}}), 0));
  EXPECT_FALSE(nip40::is_expired(5, 4));
  EXPECT_TRUE(nip40::is_expired(5, 5));
}

TEST(nip40_test, set_expiration_replaces_the_first_and_drops_the_rest) {
  tag_list tags = {{"p", "a"}, {"expiration", "1"}, {"e", "b"}, {"expiration", "2"}, {"expiration"}};
  ASSERT_TRUE(nip40::set_expiration(tags, 1700000000).ok());
  EXPECT_EQ(tags, (tag_list{{"p", "a"}, {"expiration", "1700000000"}, {"e", "b"}}));
  tag_list fresh = {{"p", "a"}};
  ASSERT_TRUE(nip40::set_expiration(fresh, 0).ok());
  EXPECT_EQ(fresh, (tag_list{{"p", "a"}, {"expiration", "0"}}));
  EXPECT_EQ(*nip40::get_expiration(fresh), std::optional<std::int64_t>(0));
  for (std::int64_t bad : {std::int64_t{-1}, nip40::kMaxTimestamp + 1, INT64_MIN, INT64_MAX}) {
    tag_list t = {{"expiration", "5"}};
    EXPECT_EQ(nip40::set_expiration(t, bad).code(), errc::invalid_expiration) << bad;
    EXPECT_EQ(t, (tag_list{{"expiration", "5"}}));  // untouched on failure
  }
}
