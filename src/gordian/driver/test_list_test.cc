// Tests of the patterns ListTests gives go test -list: -run and -skip
// split as go test splits them (alternatives at '|', levels at '/', outside
// brackets and parentheses), the part of -run that selects top-level tests,
// and which alternatives of -skip skip a top-level test. ListTests itself
// runs go: the fuzz command's end-to-end tests (tests/fuzzcmd) cover it.
#include "gordian/driver/test_list.h"

#include <utility>

#include <gtest/gtest.h>

namespace gordian::driver {
namespace {

TEST(TopLevelPattern, UpToTheFirstSlashOutsideBrackets) {
  // {-run pattern, its top-level part}
  const std::pair<const char*, const char*> cases[] = {
      {"TestA", "TestA"},
      {"TestA/sub/deeper", "TestA"},
      {"^Test(A|B/c)$/x", "^Test(A|B/c)$"},
      {"Test[/]A/x", "Test[/]A"},
      {"Test\\/A/x", "Test\\/A"},
      {"/sub", ""},
      {"", ""},
      // Each alternative's first level: "TestB" runs too, though the first
      // alternative has a subtest level.
      {"TestA/x|TestB", "(?:TestA)|(?:TestB)"},
      {"Test(A|B)/x", "Test(A|B)"},
  };
  for (const auto& [pattern, top] : cases) EXPECT_EQ(TopLevelPattern(pattern), top) << pattern;
}

TEST(SplitTestPattern, AlternativesAndLevelsOutsideBracketsAndParentheses) {
  using V = std::vector<std::vector<std::string>>;
  EXPECT_EQ(SplitTestPattern("TestA"), (V{{"TestA"}}));
  EXPECT_EQ(SplitTestPattern("TestA/sub|TestB"), (V{{"TestA", "sub"}, {"TestB"}}));
  EXPECT_EQ(SplitTestPattern("Test(A|B)/x"), (V{{"Test(A|B)", "x"}}));
  EXPECT_EQ(SplitTestPattern("Test[|/(]A|B"), (V{{"Test[|/(]A"}, {"B"}}));
  EXPECT_EQ(SplitTestPattern("Test\\|A|B"), (V{{"Test\\|A"}, {"B"}}));
  EXPECT_EQ(SplitTestPattern("]A|B"), (V{{"]A"}, {"B"}})) << "an unmatched ']' is legal";
  EXPECT_EQ(SplitTestPattern("A|"), (V{{"A"}, {""}}));
}

TEST(SkipFilterOf, OnlyOneLevelAlternativesSkipATopLevelTest) {
  SkipFilter none = SkipFilterOf("");
  EXPECT_TRUE(none.first_levels.empty()) << "no -skip skips nothing";
  SkipFilter f = SkipFilterOf("TestSlow|TestA/sub|TestB");
  EXPECT_EQ(f.first_levels, (std::vector<std::string>{"TestSlow", "TestA", "TestB"}));
  EXPECT_EQ(f.whole, (std::vector<bool>{true, false, true}));
  SkipFilter sub = SkipFilterOf("/sub");
  EXPECT_EQ(sub.first_levels, (std::vector<std::string>{""}));
  EXPECT_EQ(sub.whole, (std::vector<bool>{false})) << "every test's subtest sub, no test";
}

}  // namespace
}  // namespace gordian::driver
