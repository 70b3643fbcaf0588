// Tests of paths.h: module roots and relative report paths.
#include "gordian/report/paths.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gordian/report/report_test_util.h"

namespace gordian::report {
namespace {

namespace fs = std::filesystem;

TEST(Paths, RelativeToTheNearestModuleRoot) {
  fs::path root = fs::temp_directory_path() / ("gordian_paths_" + std::to_string(getpid()));
  fs::create_directories(root / "pkg" / "sub");
  std::ofstream(root / "go.mod") << "module example.com/m\n";
  EXPECT_EQ(FindModuleRoot((root / "pkg" / "sub").string()), root.string());

  Finding f = testing::SendOnClosed((root / "pkg" / "sub").string() + "/");
  f.locations[1].file = "/usr/lib/go/src/runtime/chan.go";
  std::vector<Finding> fs = {f};
  RelativizePaths(&fs);
  EXPECT_EQ(fs[0].locations[0].file, "pkg/sub/hub.go");
  EXPECT_EQ(fs[0].locations[0].path, (root / "pkg/sub/hub.go").string());
  EXPECT_EQ(fs[0].locations[1].file, "/usr/lib/go/src/runtime/chan.go");  // outside any module
  EXPECT_EQ(fs[0].interleaving[0].loc.file, "pkg/sub/hub.go");
  EXPECT_EQ(fs[0].goroutines[1].spawn_file, "pkg/sub/hub.go");

  // An explicit root wins.
  std::vector<Finding> fs2 = {testing::SendOnClosed((root / "pkg").string() + "/")};
  RelativizePaths(&fs2, (root / "pkg").string());
  EXPECT_EQ(fs2[0].locations[0].file, "hub.go");
  fs::remove_all(root);
}

// With the report's root set: a sibling module of a go.work workspace is
// named from the root ("../lib/l.go", not its own module's "l.go"), a
// dependency in the module cache by module@version, the standard library
// by its absolute path.
TEST(Paths, FilesOutsideTheRootSayWhereTheyAre) {
  fs::path ws = fs::temp_directory_path() / ("gordian_ws_" + std::to_string(getpid()));
  fs::create_directories(ws / "app");
  fs::create_directories(ws / "lib");
  std::ofstream(ws / "go.work") << "go 1.23\nuse (./app ./lib)\n";
  std::ofstream(ws / "app" / "go.mod") << "module example.com/app\n";
  std::ofstream(ws / "lib" / "go.mod") << "module example.com/lib\n";
  Finding f = testing::SendOnClosed((ws / "lib").string() + "/");
  f.locations[1].file = "/root/go/pkg/mod/example.com/dep@v1.2.0/dep.go";
  f.interleaving[0].loc.file = "/usr/local/go/src/runtime/chan.go";
  std::vector<Finding> fs = {f};
  RelativizePaths(&fs, (ws / "app").string());
  EXPECT_EQ(fs[0].locations[0].file, "../lib/hub.go");
  EXPECT_EQ(fs[0].locations[1].file, "example.com/dep@v1.2.0/dep.go");
  EXPECT_EQ(fs[0].interleaving[0].loc.file, "/usr/local/go/src/runtime/chan.go");
  fs::remove_all(ws);
}

}  // namespace
}  // namespace gordian::report
