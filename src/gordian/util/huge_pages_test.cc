// Tests of the huge-page advice on big arrays: the vectors keep their
// contents and capacity, and where the kernel has transparent huge pages
// the whole huge pages of an advised range are marked for them (the "hg"
// flag of their mapping in /proc/self/smaps), and nothing else is.
#include "gordian/util/huge_pages.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace gordian::util {
namespace {

// The VmFlags line of the mapping that holds address p ("" when not found).
std::string VmFlagsAt(const void* p) {
  std::ifstream in("/proc/self/smaps");
  const auto a = reinterpret_cast<uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find('-')) {
      inside = lo <= a && a < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

bool KernelHasHugePages() {
  return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good();
}

TEST(HugePages, ReserveKeepsTheVectorEmptyWithRoom) {
  std::vector<uint32_t> v;
  ReserveHuge(&v, 5'000'000);
  EXPECT_TRUE(v.empty());
  EXPECT_GE(v.capacity(), 5'000'000u);
  v.resize(5'000'000, 7);
  EXPECT_EQ(v[4'999'999], 7u);
}

TEST(HugePages, AssignFillsAndReusesRoom) {
  std::vector<uint32_t> v;
  AssignHuge(&v, 3'000'000, 9u);
  ASSERT_EQ(v.size(), 3'000'000u);
  EXPECT_EQ(v.front(), 9u);
  EXPECT_EQ(v.back(), 9u);
  const uint32_t* before = v.data();
  AssignHuge(&v, 1000, 4u);  // fits: assigned in place
  EXPECT_EQ(v.data(), before);
  ASSERT_EQ(v.size(), 1000u);
  EXPECT_EQ(v.back(), 4u);
  AssignHuge(&v, 0, 4u);
  EXPECT_TRUE(v.empty());
}

TEST(HugePages, BigVectorsAreAdvised) {
  if (!KernelHasHugePages()) GTEST_SKIP() << "no transparent huge pages in this kernel";
  std::vector<uint8_t> v;
  ReserveHuge(&v, size_t(64) << 20);  // (malloc maps so large a block apart)
  // A whole huge page inside the allocation, wherever malloc put it.
  const uint8_t* mid = v.data() + (size_t(32) << 20);
  EXPECT_NE(VmFlagsAt(mid).find(" hg"), std::string::npos) << VmFlagsAt(mid);
}

// Only whole huge pages inside the range are advised: a range that holds
// none leaves the mapping as it was.
TEST(HugePages, OnlyWholeHugePagesAreAdvised) {
  if (!KernelHasHugePages()) GTEST_SKIP() << "no transparent huge pages in this kernel";
  const size_t len = size_t(8) << 20;
  void* m = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  const auto a = reinterpret_cast<uint8_t*>(
      (reinterpret_cast<uintptr_t>(m) + kHugePageBytes - 1) & ~(kHugePageBytes - 1));
  AdviseHugePages(a + 4096, kHugePageBytes);  // straddles two huge pages, holds neither
  EXPECT_EQ(VmFlagsAt(a + (1 << 20)).find(" hg"), std::string::npos) << VmFlagsAt(a + (1 << 20));
  AdviseHugePages(a, kHugePageBytes);
  EXPECT_NE(VmFlagsAt(a + (1 << 20)).find(" hg"), std::string::npos) << VmFlagsAt(a + (1 << 20));
  munmap(m, len);
}

}  // namespace
}  // namespace gordian::util
