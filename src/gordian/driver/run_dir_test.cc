// Tests of run directories (work_dir.h: MakeRunDir, RunDirInUse): a
// gordian starting beside another must not lose its directory to the
// other's sweep of abandoned ones.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "gordian/driver/work_dir.h"

namespace gordian::driver {
namespace {

namespace fs = std::filesystem;

class RunDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = fs::temp_directory_path() / ("gordian_run_dir_" + std::to_string(getpid()));
    fs::remove_all(cache_);
    fs::create_directories(cache_ / "runs");
  }
  void TearDown() override { fs::remove_all(cache_); }
  // A run directory as another gordian left it: owner text (none: no owner
  // file), last written `age` ago.
  fs::path Other(const std::string& name, const char* owner, std::chrono::hours age) {
    fs::path d = cache_ / "runs" / name;
    fs::create_directories(d);
    if (owner != nullptr) std::ofstream(d / "owner") << owner;
    fs::last_write_time(d, fs::file_time_type::clock::now() - age);
    return d;
  }
  fs::path cache_;
};

TEST_F(RunDirTest, ASweepKeepsRunsJustStartedAndRemovesAbandonedOnes) {
  // Just made, its owner file not written yet, or being written (empty):
  // a gordian starting.
  fs::path starting = Other("run-starting", nullptr, std::chrono::hours(0));
  fs::path writing = Other("run-writing", "", std::chrono::hours(0));
  // Its owner still runs (this process), however old.
  fs::path live = Other("run-live", std::to_string(getpid()).c_str(), std::chrono::hours(48));
  // Its owner is gone: a pid above the highest Linux gives out.
  fs::path dead = Other("run-dead", "4194305\n", std::chrono::hours(0));
  // No owner for more than a day.
  fs::path stale = Other("run-stale", nullptr, std::chrono::hours(25));
  std::string dir, err;
  ASSERT_TRUE(MakeRunDir(cache_.string(), &dir, &err)) << err;
  EXPECT_TRUE(fs::exists(starting));
  EXPECT_TRUE(fs::exists(writing));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(stale));
  // Its own directory names this process, all written.
  std::ifstream in(fs::path(dir) / "owner");
  long pid = 0;
  ASSERT_TRUE(in >> pid);
  EXPECT_EQ(pid, getpid());
  EXPECT_FALSE(fs::exists(fs::path(dir) / "owner.tmp"));
  EXPECT_TRUE(RunDirInUse(dir));
  RemoveTree(dir);
}

}  // namespace
}  // namespace gordian::driver
