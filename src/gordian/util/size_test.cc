// Tests of the -mem flag's size parser and of the default memory budget:
// units, refusals with a message (0, 1e99, abc), and the share of physical
// memory capped by an address-space limit.
#include "gordian/util/size.h"

#include <gtest/gtest.h>

#include "gordian/util/memory.h"

namespace gordian::util {
namespace {

uint64_t Parse(std::string_view s) {
  uint64_t v = 0;
  std::string err;
  EXPECT_TRUE(ParseSize(s, &v, &err)) << s << ": " << err;
  return v;
}

std::string Refused(std::string_view s) {
  uint64_t v = 7;
  std::string err;
  EXPECT_FALSE(ParseSize(s, &v, &err)) << s << " gave " << v;
  EXPECT_EQ(v, 7u) << "nothing is written on failure";
  EXPECT_EQ(err.find('\n'), std::string::npos) << "one line";
  return err;
}

TEST(Size, Units) {
  EXPECT_EQ(Parse("2G"), 2ull << 30);
  EXPECT_EQ(Parse("500M"), 500ull << 20);
  EXPECT_EQ(Parse("64k"), 64ull << 10);
  EXPECT_EQ(Parse("1.5G"), 3ull << 29);
  EXPECT_EQ(Parse("2GB"), 2ull << 30);
  EXPECT_EQ(Parse("2GiB"), 2ull << 30);
  EXPECT_EQ(Parse("1048576"), 1ull << 20);
  EXPECT_EQ(Parse("1T"), 1ull << 40);
  EXPECT_EQ(Parse(" 3M "), 3ull << 20);
}

TEST(Size, Refusals) {
  EXPECT_NE(Refused("0").find("zero"), std::string::npos);
  EXPECT_NE(Refused("0M").find("zero"), std::string::npos);
  EXPECT_NE(Refused("1e99").find("unknown unit"), std::string::npos);
  EXPECT_NE(Refused("abc").find("not a number"), std::string::npos);
  EXPECT_NE(Refused("").find("empty"), std::string::npos);
  EXPECT_NE(Refused("-1G").find("negative"), std::string::npos);
  EXPECT_NE(Refused("2X").find("unknown unit"), std::string::npos);
  EXPECT_NE(Refused("1.G").find("not a number"), std::string::npos);
  EXPECT_NE(Refused("2048P").find("larger than"), std::string::npos);
  EXPECT_NE(Refused("99999999999999999999999").find("larger than"), std::string::npos);
  // The message says what a size looks like.
  EXPECT_NE(Refused("abc").find("500M or 2G"), std::string::npos);
}

TEST(Size, Format) {
  EXPECT_EQ(FormatSize(512), "512 B");
  EXPECT_EQ(FormatSize(64 << 10), "64.0 KB");
  EXPECT_EQ(FormatSize(3ull << 29), "1.5 GB");
}

TEST(MemoryBudget, HalfOfPhysicalCappedByAddressSpace) {
  EXPECT_EQ(MemoryBudgetFor(16ull << 30, 0), 8ull << 30);
  EXPECT_EQ(MemoryBudgetFor(16ull << 30, 4ull << 30), 3ull << 30);
  EXPECT_EQ(MemoryBudgetFor(0, 0), 4ull << 30);
  EXPECT_GT(DefaultMemoryBudget(), 0u);
}

}  // namespace
}  // namespace gordian::util
