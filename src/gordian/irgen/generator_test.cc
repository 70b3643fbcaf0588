// Tests of the generator's file-system side without Go: which sources
// make the cache key (HashIrgenSources), and how tools/irgen is found
// (FindIrgenDir: the environment variable is checked, this tree is found).
#include "gordian/irgen/generator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gordian/util/temp_dir_test.h"

namespace gordian::ir {
namespace {

namespace fs = std::filesystem;

class GeneratorFilesTest : public util::TempDirTest {
 protected:
  void Write(const std::string& rel, const std::string& text) {
    fs::create_directories(fs::path(dir_ / fs::path(rel)).parent_path());
    std::ofstream(fs::path(dir_) / rel) << text;
  }
  uint64_t Hash() {
    uint64_t h = 0;
    std::string err;
    EXPECT_TRUE(HashIrgenSources(dir_, &h, &err)) << err;
    return h;
  }
};

TEST_F(GeneratorFilesTest, HashFollowsSourcesButNotTestdata) {
  Write("go.mod", "module x\n");
  Write("main.go", "package main\n");
  Write("vendor/modules.txt", "# golang.org/x/tools v0.52.0\n");
  uint64_t base = Hash();
  EXPECT_EQ(Hash(), base);
  Write("testdata/p/a.go", "package p\n");
  EXPECT_EQ(Hash(), base) << "testdata changed the key";
  Write("main.go", "package main\n// changed\n");
  uint64_t changed = Hash();
  EXPECT_NE(changed, base);
  Write("vendor/golang.org/x/tools/go/ssa/ssa.go", "package ssa\n");
  EXPECT_NE(Hash(), changed) << "a vendored file did not change the key";
  // A file renamed with the same contents is another source tree.
  Write("main.go", "package main\n");
  fs::remove(fs::path(dir_) / "vendor/golang.org/x/tools/go/ssa/ssa.go");
  EXPECT_EQ(Hash(), base);
  fs::rename(fs::path(dir_) / "main.go", fs::path(dir_) / "other.go");
  EXPECT_NE(Hash(), base);
}

TEST_F(GeneratorFilesTest, MissingDirectoryIsAnError) {
  uint64_t h;
  std::string err;
  EXPECT_FALSE(HashIrgenSources(dir_ + "/absent", &h, &err));
  EXPECT_NE(err.find("absent"), std::string::npos) << err;
}

TEST_F(GeneratorFilesTest, EnvironmentVariableMustNameTheGenerator) {
  setenv("GORDIAN_IRGEN_DIR", dir_.c_str(), 1);
  std::string found, err;
  EXPECT_FALSE(FindIrgenDir(&found, &err));
  EXPECT_NE(err.find("GORDIAN_IRGEN_DIR=" + dir_), std::string::npos) << err;
  Write("go.mod", "module x\n");
  Write("main.go", "package main\n");
  Write("vendor/modules.txt", "\n");
  EXPECT_TRUE(FindIrgenDir(&found, &err)) << err;
  EXPECT_EQ(found, dir_);
  unsetenv("GORDIAN_IRGEN_DIR");
  // Without it, this tree's tools/irgen (the build tree's parents or the
  // source tree compiled in).
  ASSERT_TRUE(FindIrgenDir(&found, &err)) << err;
  EXPECT_TRUE(fs::exists(fs::path(found) / "vendor/modules.txt")) << found;
  EXPECT_EQ(fs::path(found).filename(), "irgen");
}

}  // namespace
}  // namespace gordian::ir
