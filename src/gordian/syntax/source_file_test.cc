// Tests that SourceSet::ReadFile refuses special files before reading them:
// a trace can name any path as a site's file, and a FIFO would block the
// analysis for ever and /dev/zero would be read until memory runs out.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gordian/syntax/source.h"

namespace gordian::syntax {
namespace {

namespace fs = std::filesystem;

TEST(SourceFile, SpecialFilesAreRefusedUnread) {
  SourceSet set;
  std::string err;
  EXPECT_EQ(set.ReadFile("/dev/zero", &err), nullptr);
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
  fs::path dir = fs::temp_directory_path() / ("gordian_source_file_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string fifo = (dir / "events.go").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  err.clear();
  EXPECT_EQ(set.ReadFile(fifo, &err), nullptr) << "must not block on a FIFO";
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
  // Through a symlink too.
  fs::create_symlink("/dev/zero", dir / "zero.go");
  err.clear();
  EXPECT_EQ(set.ReadFile((dir / "zero.go").string(), &err), nullptr);
  // A regular file is read.
  std::ofstream(dir / "ok.go") << "package ok\n";
  err.clear();
  EXPECT_NE(set.ReadFile((dir / "ok.go").string(), &err), nullptr) << err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gordian::syntax
