// Tests of escaping text by a table: named characters, the other control
// bytes as they are or as \xHH, and runs of plain text left alone.
#include "gordian/util/escape.h"

#include <string>

#include <gtest/gtest.h>

namespace gordian::util {
namespace {

std::string Escaped(std::string_view s, OtherControls others = OtherControls::kAsIs) {
  std::string out = "<";
  AppendEscaped(&out, s, kStringEscapes, others);
  return out;
}

TEST(Escape, NamedCharactersTakeTheirText) {
  EXPECT_EQ(Escaped("a\"b\\c\nd\te\rf"), "<a\\\"b\\\\c\\nd\\te\\rf");
  EXPECT_EQ(Escaped(""), "<");
}

TEST(Escape, OtherControlsAsIsOrHex) {
  EXPECT_EQ(Escaped(std::string_view("\x01\x7f\x80", 3)), "<\x01\x7f\x80");
  EXPECT_EQ(Escaped(std::string_view("\x01\x7f\x80\0", 4), OtherControls::kHex), "<\\x01\\x7f\x80\\x00");
}

TEST(Escape, EscapeOfNamesOnlyTableCharacters) {
  EXPECT_EQ(EscapeOf(kStringEscapes, '\n'), "\\n");
  EXPECT_EQ(EscapeOf(kStringEscapes, 'n'), "");
  EXPECT_EQ(EscapeOf(kStringEscapes, 0x10A), "") << "a rune above 0xFF is never a table's";
}

}  // namespace
}  // namespace gordian::util
