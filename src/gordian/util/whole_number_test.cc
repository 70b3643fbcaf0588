// Tests of ParseWholeNumber (whole_number.h): a whole decimal number that
// fits the type, and nothing else.
#include "gordian/util/whole_number.h"

#include <cstdint>

#include <gtest/gtest.h>

namespace gordian::util {
namespace {

TEST(ParseWholeNumber, TheWholeFieldAndNothingElse) {
  uint32_t v = 0;
  EXPECT_TRUE(ParseWholeNumber("0", &v));
  EXPECT_EQ(v, 0u);
  EXPECT_TRUE(ParseWholeNumber("4294967295", &v));
  EXPECT_EQ(v, 4294967295u);
  EXPECT_FALSE(ParseWholeNumber("", &v));
  EXPECT_FALSE(ParseWholeNumber("12a", &v));
  EXPECT_FALSE(ParseWholeNumber(" 12", &v));
  EXPECT_FALSE(ParseWholeNumber("-1", &v));
  EXPECT_FALSE(ParseWholeNumber("4294967296", &v)) << "too large for uint32_t";
  long n = 0;
  EXPECT_TRUE(ParseWholeNumber("-7", &n));
  EXPECT_EQ(n, -7);
}

}  // namespace
}  // namespace gordian::util
