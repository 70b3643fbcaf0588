// Tests of -shard I/N (shard.h): parsing and its errors, that shards
// 0..N-1 together hold every listed test exactly once, and the -run that
// go test gets.
#include "gordian/driver/shard.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include <fmt/format.h>

namespace gordian::driver {
namespace {

TEST(ShardTest, ParsesIndexOfCount) {
  Shard s;
  std::string err;
  ASSERT_TRUE(ParseShard("3/4", &s, &err)) << err;
  EXPECT_EQ(s.index, 3u);
  EXPECT_EQ(s.count, 4u);
  ASSERT_TRUE(ParseShard("0/1", &s, &err)) << err;
  EXPECT_EQ(s.count, 1u);
}

TEST(ShardTest, RefusesBadValuesWithAHint) {
  for (const char* bad : {"4/4", "x", "1/0", "0/0", "-1/4", "1/", "/4", "1/4/2", "1 /4", "",
                          "99999999999/4"}) {
    Shard s;
    std::string err;
    EXPECT_FALSE(ParseShard(bad, &s, &err)) << bad;
    EXPECT_NE(err.find("-shard"), std::string::npos) << err;
  }
  Shard s;
  std::string err;
  ASSERT_FALSE(ParseShard("4/4", &s, &err));
  EXPECT_NE(err.find("0/4 to 3/4"), std::string::npos) << err;
}

TEST(ShardTest, EveryTestIsInExactlyOneShard) {
  std::vector<PackageTests> listed = {{"example.com/a", {}, {}, true},
                                      {"example.com/b", {}, {"ExampleHub", "FuzzParse"}, true}};
  for (int i = 0; i < 200; i++) listed[i % 2].tests.push_back(fmt::format("TestCase{}", i));
  listed[1].tests.push_back("TestCase0");  // the same name in another package
  for (uint32_t n : {1u, 2u, 4u, 7u}) {
    std::multiset<std::string> seen;
    size_t largest = 0;
    for (uint32_t i = 0; i < n; i++) {
      std::vector<std::string> names = TestsOfShard(listed, Shard{i, n});
      largest = std::max(largest, names.size());
      seen.insert(names.begin(), names.end());
    }
    EXPECT_EQ(seen.size(), 202u) << n;
    for (int i = 0; i < 200; i++) EXPECT_EQ(seen.count(fmt::format("TestCase{}", i)), 1u);
    // -run selects examples and fuzz targets' seed corpora too: they are split with the tests.
    EXPECT_EQ(seen.count("ExampleHub"), 1u);
    EXPECT_EQ(seen.count("FuzzParse"), 1u);
    // The hash spreads the names: no shard holds twice its share.
    EXPECT_LE(largest, 2 * 200 / n) << n;
  }
}

TEST(ShardTest, TheShardOfATestDoesNotDependOnTheOthers) {
  // A stable hash: adding tests does not move a test to another shard.
  uint32_t before = ShardOfTest("TestStable", 4);
  std::vector<PackageTests> listed = {{"p", {"TestStable", "TestNew1", "TestNew2"}, {}, true}};
  std::vector<std::string> names = TestsOfShard(listed, Shard{before, 4});
  EXPECT_NE(std::find(names.begin(), names.end(), "TestStable"), names.end());
  EXPECT_EQ(ShardOfTest("TestStable", 4), before);
}

TEST(ShardTest, RunSelectsExactlyTheNames) {
  std::vector<std::string> out =
      WithOnlyTests({"-C", "dir", "-run", "TestA|TestB", "-count=2", "./...", "-args", "-run=x"},
                    {"TestA", "TestAB"});
  ASSERT_EQ(out.size(), 7u);
  EXPECT_EQ(out[0], "-C");
  EXPECT_EQ(out[1], "dir");
  EXPECT_EQ(out[2], "-run=^(TestA|TestAB)$");
  EXPECT_EQ(out[3], "-count=2");
  EXPECT_EQ(out[6], "-run=x");  // the test binary's own arguments are left alone
  std::regex re(out[2].substr(5));
  EXPECT_TRUE(std::regex_search("TestA", re));
  EXPECT_TRUE(std::regex_search("TestAB", re));
  EXPECT_FALSE(std::regex_search("TestABC", re));
  EXPECT_FALSE(std::regex_search("TestB", re));
}

TEST(ShardTest, RunKeepsTheSubtestPattern) {
  std::vector<std::string> out = WithOnlyTests({"-test.run=Test(A|B)/sub[/]x", "."}, {"TestB"});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], "-run=^(TestB)$/sub[/]x");
}

TEST(ShardTest, AnEmptyShardRunsNoTest) {
  std::vector<std::string> out = WithOnlyTests({"./..."}, {});
  ASSERT_EQ(out.size(), 2u);
  std::regex re(out[0].substr(5));
  EXPECT_FALSE(std::regex_search("TestA", re));
}

}  // namespace
}  // namespace gordian::driver
