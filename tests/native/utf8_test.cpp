#include <gtest/gtest.h>

#include <string>

#include "util/utf8.hpp"

using namespace nostr;

TEST(utf8_test, accepts_well_formed_text) {
  EXPECT_TRUE(utf8::valid(""));
  EXPECT_TRUE(utf8::valid("plain ascii \x01\x7f"));
  EXPECT_TRUE(utf8::valid("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\x9c"));        // é € 💜
  EXPECT_TRUE(utf8::valid("\xef\xbf\xbf \xf4\x8f\xbf\xbf \xed\x9f\xbf"));   // U+FFFF, U+10FFFF, U+D7FF
}

TEST(utf8_test, refuses_ill_formed_text) {
  EXPECT_FALSE(utf8::valid("\x80"));                  // lone continuation byte
  EXPECT_FALSE(utf8::valid("\xc3"));                  // truncated
  EXPECT_FALSE(utf8::valid("\xe2\x82"));              // truncated
  EXPECT_FALSE(utf8::valid("\xc0\xaf"));              // overlong '/'
  EXPECT_FALSE(utf8::valid("\xe0\x80\xaf"));          // overlong
  EXPECT_FALSE(utf8::valid("\xed\xa0\x80"));          // surrogate U+D800
  EXPECT_FALSE(utf8::valid("\xf4\x90\x80\x80"));      // past U+10FFFF
  EXPECT_FALSE(utf8::valid("\xf5\x80\x80\x80"));      // invalid lead byte
  EXPECT_FALSE(utf8::valid("ok\xc3\x28"));            // bad continuation
}
