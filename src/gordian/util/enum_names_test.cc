// Tests of the two-way enum tables (enum_names.h).
#include "gordian/util/enum_names.h"

#include <gtest/gtest.h>

namespace gordian::util {
namespace {

enum class Color { Red, Green, Blue };

constexpr EnumName<Color> kColors[] = {
    {Color::Red, "red"},
    {Color::Green, "green"},
    {Color::Blue, "blue"},
};
static_assert(ListsEveryValue(kColors, Color::Blue));

// A table with a row out of order, or one missing, is refused.
constexpr EnumName<Color> kSwapped[] = {
    {Color::Green, "green"},
    {Color::Red, "red"},
    {Color::Blue, "blue"},
};
static_assert(!ListsEveryValue(kSwapped, Color::Blue));
constexpr EnumName<Color> kShort[] = {{Color::Red, "red"}, {Color::Green, "green"}};
static_assert(!ListsEveryValue(kShort, Color::Blue));

TEST(EnumNames, BothWays) {
  EXPECT_EQ(NameOf(kColors, Color::Green), "green");
  EXPECT_EQ(NameOf(kColors, static_cast<Color>(7)), "?");
  Color c = Color::Red;
  EXPECT_TRUE(ValueNamed(kColors, "blue", &c));
  EXPECT_EQ(c, Color::Blue);
  EXPECT_FALSE(ValueNamed(kColors, "purple", &c));
  EXPECT_EQ(c, Color::Blue) << "nothing is written when no row has the name";
}

}  // namespace
}  // namespace gordian::util
