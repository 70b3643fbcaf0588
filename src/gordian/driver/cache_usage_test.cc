// Tests of the cache's size limit and cleaning (cache_usage.h): the oldest
// schedules go first, then the corpora used least recently; the run's own
// schedules and the scratch directories of live commands stay; cleaning
// touches only what gordian made.
#include "gordian/driver/cache_usage.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gordian/driver/work_dir.h"
#include "gordian/util/temp_dir_test.h"

namespace gordian::driver {
namespace {

namespace fs = std::filesystem;

class CacheUsageTest : public util::TempDirTest {
 protected:
  // A file of n bytes at rel (directories made), written `age` ago.
  fs::path Put(const std::string& rel, size_t n, std::chrono::minutes age) {
    fs::path p = fs::path(dir_) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << std::string(n, 'x');
    auto t = fs::file_time_type::clock::now() - age;
    fs::last_write_time(p, t);
    fs::last_write_time(p.parent_path(), t);
    return p;
  }
  bool Has(const std::string& rel) const { return fs::exists(fs::path(dir_) / rel); }
};

TEST_F(CacheUsageTest, EachAreaIsMeasured) {
  Put("schedules/run-a/x.sched", 1000, std::chrono::minutes(1));
  Put("fuzz-corpus/0123/TestA/s1", 300, std::chrono::minutes(1));
  Put("unrelated/file", 5000, std::chrono::minutes(1));
  std::vector<CacheArea> areas = CacheUsage(dir_);
  ASSERT_EQ(areas.size(), 2u);
  EXPECT_EQ(areas[0].name, "schedules");
  EXPECT_EQ(areas[0].bytes, 1000u);
  EXPECT_EQ(areas[1].name, "fuzz-corpus");
  EXPECT_EQ(areas[1].bytes, 300u);
}

TEST_F(CacheUsageTest, TheOldestSchedulesGoFirstThenTheLeastUsedCorpora) {
  Put("schedules/run-old/a.sched", 400, std::chrono::minutes(50));
  Put("schedules/run-mid/a.sched", 400, std::chrono::minutes(30));
  Put("schedules/run-new/a.sched", 400, std::chrono::minutes(1));
  Put("fuzz-corpus/c1/TestStale/s", 400, std::chrono::minutes(40));
  Put("fuzz-corpus/c1/TestFresh/s", 400, std::chrono::minutes(2));
  // 2000 bytes; at most 1000 kept: the newest schedules, then the corpus
  // used most recently; the rest (oldest first) removed.
  uint64_t removed = EnforceCacheLimit(dir_, 1000);
  EXPECT_EQ(removed, 1200u);
  EXPECT_TRUE(Has("schedules/run-new"));
  EXPECT_TRUE(Has("schedules/run-mid"));
  EXPECT_FALSE(Has("schedules/run-old"));
  EXPECT_FALSE(Has("fuzz-corpus/c1/TestStale"));
  EXPECT_FALSE(Has("fuzz-corpus/c1/TestFresh"));
}

TEST_F(CacheUsageTest, UnderTheLimitNothingIsRemoved) {
  Put("schedules/run-a/a.sched", 400, std::chrono::minutes(50));
  Put("fuzz-corpus/c1/TestA/s", 400, std::chrono::minutes(40));
  EXPECT_EQ(EnforceCacheLimit(dir_, 800), 0u);
  EXPECT_TRUE(Has("schedules/run-a/a.sched"));
  EXPECT_TRUE(Has("fuzz-corpus/c1/TestA/s"));
}

TEST_F(CacheUsageTest, TheRunsOwnSchedulesStayEvenWhenOld) {
  Put("schedules/run-mine/a.sched", 900, std::chrono::minutes(1));
  Put("schedules/run-other/a.sched", 900, std::chrono::minutes(2));
  EnforceCacheLimit(dir_, 100, (fs::path(dir_) / "schedules/run-mine").string());
  EXPECT_TRUE(Has("schedules/run-mine/a.sched"));
  EXPECT_FALSE(Has("schedules/run-other"));
}

TEST_F(CacheUsageTest, CleanRemovesWhatGordianMadeButLiveRunsAndOtherFiles) {
  Put("schedules/run-a/a.sched", 10, std::chrono::minutes(1));
  Put("std/go1.25/x.go", 10, std::chrono::minutes(1));
  Put("fuzz-corpus/c/T/s", 10, std::chrono::minutes(1));
  Put("runs/run-live/trace", 10, std::chrono::minutes(1));
  std::ofstream(fs::path(dir_) / "runs/run-live/owner") << getpid() << "\n";
  Put("runs/run-dead/trace", 10, std::chrono::minutes(1));
  // A pid that is not running: the highest pid Linux gives out, plus one.
  std::ofstream(fs::path(dir_) / "runs/run-dead/owner") << (1 << 22) + 1 << "\n";
  Put("notes.txt", 10, std::chrono::minutes(1));  // GORDIAN_CACHE may hold other things
  uint64_t removed = 0;
  std::string err;
  ASSERT_TRUE(CleanCache(dir_, &removed, &err)) << err;
  EXPECT_FALSE(Has("schedules"));
  EXPECT_FALSE(Has("std"));
  EXPECT_FALSE(Has("fuzz-corpus"));
  EXPECT_FALSE(Has("runs/run-dead"));
  EXPECT_TRUE(Has("runs/run-live/trace"));
  EXPECT_TRUE(Has("notes.txt"));
  EXPECT_GE(removed, 40u);
}

TEST(CacheMax, ReadsTheVariableAndFallsBackWhenItDoesNotParse) {
  const char* old = getenv("GORDIAN_CACHE_MAX");
  std::string saved = old ? old : "";
  uint64_t n = 0;
  std::string err;
  unsetenv("GORDIAN_CACHE_MAX");
  EXPECT_TRUE(CacheMaxBytes(&n, &err));
  EXPECT_EQ(n, kDefaultCacheMax);
  setenv("GORDIAN_CACHE_MAX", "500MB", 1);
  EXPECT_TRUE(CacheMaxBytes(&n, &err));
  EXPECT_EQ(n, uint64_t{500} << 20);  // binary units, as -mem
  setenv("GORDIAN_CACHE_MAX", "lots", 1);
  EXPECT_FALSE(CacheMaxBytes(&n, &err));
  EXPECT_EQ(n, kDefaultCacheMax);
  EXPECT_NE(err.find("GORDIAN_CACHE_MAX"), std::string::npos);
  if (old) setenv("GORDIAN_CACHE_MAX", saved.c_str(), 1);
  else unsetenv("GORDIAN_CACHE_MAX");
}

}  // namespace
}  // namespace gordian::driver
