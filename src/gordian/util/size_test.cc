// Tests of the -mem flag's size parser and of the default memory budget:
// units, refusals with a message (0, 1e99, abc), and the share of physical
// memory capped by an address-space limit.
#include "gordian/util/size.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gordian/util/memory.h"

namespace gordian::util {
namespace {

uint64_t ParsedSize(std::string_view s) {
  uint64_t v = 0;
  std::string err;
  EXPECT_TRUE(ParseSize(s, &v, &err)) << s << ": " << err;
  return v;
}

std::string SizeRefused(std::string_view s) {
  uint64_t v = 7;
  std::string err;
  EXPECT_FALSE(ParseSize(s, &v, &err)) << s << " gave " << v;
  EXPECT_EQ(v, 7u) << "nothing is written on failure";
  EXPECT_EQ(err.find('\n'), std::string::npos) << "one line";
  return err;
}

TEST(Size, Units) {
  EXPECT_EQ(ParsedSize("2G"), 2ull << 30);
  EXPECT_EQ(ParsedSize("500M"), 500ull << 20);
  EXPECT_EQ(ParsedSize("64k"), 64ull << 10);
  EXPECT_EQ(ParsedSize("1.5G"), 3ull << 29);
  EXPECT_EQ(ParsedSize("2GB"), 2ull << 30);
  EXPECT_EQ(ParsedSize("2GiB"), 2ull << 30);
  EXPECT_EQ(ParsedSize("1048576"), 1ull << 20);
  EXPECT_EQ(ParsedSize("1T"), 1ull << 40);
  EXPECT_EQ(ParsedSize(" 3M "), 3ull << 20);
}

TEST(Size, Refusals) {
  EXPECT_NE(SizeRefused("0").find("zero"), std::string::npos);
  EXPECT_NE(SizeRefused("0M").find("zero"), std::string::npos);
  EXPECT_NE(SizeRefused("1e99").find("unknown unit"), std::string::npos);
  EXPECT_NE(SizeRefused("abc").find("not a number"), std::string::npos);
  EXPECT_NE(SizeRefused("").find("empty"), std::string::npos);
  EXPECT_NE(SizeRefused("-1G").find("negative"), std::string::npos);
  EXPECT_NE(SizeRefused("2X").find("unknown unit"), std::string::npos);
  EXPECT_NE(SizeRefused("1.G").find("not a number"), std::string::npos);
  EXPECT_NE(SizeRefused("2048P").find("larger than"), std::string::npos);
  EXPECT_NE(SizeRefused("99999999999999999999999").find("larger than"), std::string::npos);
  // The message says what a size looks like.
  EXPECT_NE(SizeRefused("abc").find("500M or 2G"), std::string::npos);
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

// A container or CI runner limits the group, not the machine: half of the
// group's limit, when it is below the machine's memory.
TEST(MemoryBudget, HalfOfTheControlGroupLimitWhenLower) {
  EXPECT_EQ(MemoryBudgetFor(24ull << 30, 0, 7ull << 30), 7ull << 29);
  EXPECT_EQ(MemoryBudgetFor(8ull << 30, 0, 16ull << 30), 4ull << 30);
  EXPECT_EQ(MemoryBudgetFor(0, 0, 2ull << 30), 1ull << 30);
  EXPECT_EQ(MemoryBudgetFor(24ull << 30, 4ull << 30, 7ull << 30), 3ull << 30);
}

// Reads /sys/fs/cgroup files from a map (nullopt for a missing file).
struct FakeCgroupFs {
  std::map<std::string, std::string> files;
  std::vector<std::string> asked;
  std::optional<std::string> operator()(const std::string& f) {
    asked.push_back(f);
    auto it = files.find(f);
    if (it == files.end()) return std::nullopt;
    return it->second;
  }
};

uint64_t LimitOf(const std::string& proc_self_cgroup, FakeCgroupFs& fs) {
  return CgroupMemoryLimitFrom(proc_self_cgroup, std::ref(fs));
}

TEST(CgroupMemoryLimit, V2TakesTheTightestLimitAlongThePath) {
  FakeCgroupFs fs;
  fs.files["/sys/fs/cgroup/ci/job/memory.max"] = "max\n";
  fs.files["/sys/fs/cgroup/ci/memory.max"] = "7516192768\n";
  EXPECT_EQ(LimitOf("0::/ci/job\n", fs), 7516192768u);
  fs.files["/sys/fs/cgroup/ci/job/memory.max"] = "1073741824\n";
  EXPECT_EQ(LimitOf("0::/ci/job\n", fs), 1073741824u);
}

TEST(CgroupMemoryLimit, V1ReadsTheMemoryHierarchy) {
  FakeCgroupFs fs;
  // Unlimited in v1 is a number near 2^63.
  fs.files["/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes"] = "9223372036854771712\n";
  EXPECT_EQ(LimitOf("4:memory:/docker/abc\n3:cpu:/\n", fs), 0u);
  fs.files["/sys/fs/cgroup/memory/docker/memory.limit_in_bytes"] = "2147483648\n";
  EXPECT_EQ(LimitOf("4:memory:/docker/abc\n", fs), 2147483648u);
  // Controllers named together ("memory,cpu") are one hierarchy.
  EXPECT_EQ(LimitOf("5:cpu,memory:/docker/abc\n", fs), 2147483648u);
}

// In a container the hierarchy's root is the container's own group: the
// path /proc/self/cgroup names does not exist, the root's file limits.
TEST(CgroupMemoryLimit, ContainerRootFileWhenThePathIsNotMounted) {
  FakeCgroupFs fs;
  fs.files["/sys/fs/cgroup/memory.max"] = "3221225472\n";
  EXPECT_EQ(LimitOf("0::/system.slice/runner.service\n", fs), 3221225472u);
}

TEST(CgroupMemoryLimit, NoneWhenNothingCanBeRead) {
  FakeCgroupFs fs;
  EXPECT_EQ(LimitOf("", fs), 0u);
  EXPECT_EQ(LimitOf("garbage\n0::/x\n", fs), 0u);
  EXPECT_FALSE(fs.asked.empty());  // it looked for the v2 group's files
}

}  // namespace
}  // namespace gordian::util
