// Text for one-line messages: UTF-8 checked, control characters and odd
// bytes escaped, long text cut.

#include <gtest/gtest.h>

#include "sim/text.hpp"

using namespace drape;

TEST(Text, RecognisesUtf8) {
  EXPECT_TRUE(isValidUtf8("plain ascii"));
  EXPECT_TRUE(isValidUtf8("caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x99\x82"));
  EXPECT_FALSE(isValidUtf8("caf\xe9.obj"));       // Latin-1
  EXPECT_FALSE(isValidUtf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(isValidUtf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(isValidUtf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(isValidUtf8("\xe2\x80"));          // cut short
}

TEST(Text, PrintableIsOneLine) {
  EXPECT_EQ(printable("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(printable("caf\xe9"), "caf\\xe9");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("abcdefgh", 3), "abc...");
  EXPECT_EQ(printable("abc", 3), "abc");
}
