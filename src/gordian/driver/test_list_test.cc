// Tests of the -run pattern that ListTests gives go test -list: the part
// that selects top-level tests, as go test splits it (by '/' outside
// brackets and parentheses). ListTests itself runs go: the fuzz command's
// end-to-end tests (tests/fuzzcmd) cover it.
#include "gordian/driver/test_list.h"

#include <gtest/gtest.h>

namespace gordian::driver {
namespace {

TEST(TopLevelPattern, UpToTheFirstSlashOutsideBrackets) {
  EXPECT_EQ(TopLevelPattern("TestA"), "TestA");
  EXPECT_EQ(TopLevelPattern("TestA/sub/deeper"), "TestA");
  EXPECT_EQ(TopLevelPattern("^Test(A|B/c)$/x"), "^Test(A|B/c)$");
  EXPECT_EQ(TopLevelPattern("Test[/]A/x"), "Test[/]A");
  EXPECT_EQ(TopLevelPattern("Test\\/A/x"), "Test\\/A");
  EXPECT_EQ(TopLevelPattern("/sub"), "");
  EXPECT_EQ(TopLevelPattern(""), "");
}

}  // namespace
}  // namespace gordian::driver
