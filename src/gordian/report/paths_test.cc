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

}  // namespace
}  // namespace gordian::report
