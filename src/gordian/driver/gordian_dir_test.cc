// Tests of where gordian finds the files it needs at run time
// (FindGordianDir, GordianDirCandidates): the installed layout relative to
// the executable first; the source tree only for a binary inside its build
// tree, never for an installed one.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gordian/driver/work_dir.h"

namespace gordian::driver {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Strings(const std::vector<fs::path>& ps) {
  std::vector<std::string> out;
  for (const fs::path& p : ps) out.push_back(p.string());
  return out;
}

TEST(GordianDir, InstalledBinaryLooksOnlyBesideItself) {
  EXPECT_EQ(Strings(GordianDirCandidates("/opt/g/bin/gordian", "irgen", "tools/irgen",
                                         "/src/gordian", "/src/gordian/build/release")),
            (std::vector<std::string>{"/opt/g/share/gordian/irgen"}));
  EXPECT_EQ(Strings(GordianDirCandidates("/usr/bin/gordian", "runtime/std", "runtime/std",
                                         "/src/gordian", "/src/gordian/build/release")),
            (std::vector<std::string>{"/usr/share/gordian/runtime/std"}));
}

TEST(GordianDir, BuildTreeBinaryFallsBackToItsSources) {
  // The gordian of the build tree, and a test binary deeper in it.
  EXPECT_EQ(Strings(GordianDirCandidates("/src/g/build/release/bin/gordian", "irgen",
                                         "tools/irgen", "/src/g", "/src/g/build/release")),
            (std::vector<std::string>{"/src/g/build/release/share/gordian/irgen",
                                      "/src/g/tools/irgen"}));
  EXPECT_EQ(Strings(GordianDirCandidates("/b/src/gordian/driver/driver_test", "runtime/std",
                                         "runtime/std", "/src/g", "/b")),
            (std::vector<std::string>{"/b/src/gordian/share/gordian/runtime/std",
                                      "/src/g/runtime/std"}));
}

TEST(GordianDir, ASiblingOfTheBuildTreeIsNotInIt) {
  // build/release-other is not under build/release; a prefix beside the
  // source tree is not in it either.
  EXPECT_EQ(GordianDirCandidates("/src/g/build/release-other/bin/gordian", "irgen", "tools/irgen",
                                 "/src/g", "/src/g/build/release")
                .size(),
            1u);
  EXPECT_EQ(GordianDirCandidates("/src/g/../prefix/bin/gordian", "irgen", "tools/irgen",
                                 "/src/g", "/src/g/build/release")
                .size(),
            1u);
}

TEST(GordianDir, NoExecutableNoCandidates) {
  EXPECT_TRUE(GordianDirCandidates("", "irgen", "tools/irgen", "/src/g", "/b").empty());
}

TEST(GordianDir, InstalledDataDirIsNormalised) {
  EXPECT_EQ(InstalledDataDirOf("/usr/local/bin/gordian"), "/usr/local/share/gordian");
  EXPECT_EQ(InstalledDataDirOf("/tmp/p/bin/../bin/gordian"), "/tmp/p/share/gordian");
}

// This test binary lies in the build tree: the hooks are found in the
// source tree it was built from (or an install inside the build tree).
TEST(GordianDir, TestBinaryFindsTheHooks) {
  std::string dir, err;
  ASSERT_TRUE(FindHooksDir(&dir, &err)) << err;
  EXPECT_TRUE(fs::exists(fs::path(dir) / "patches.txt")) << dir;
}

}  // namespace
}  // namespace gordian::driver
