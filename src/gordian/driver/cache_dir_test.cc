// Tests of where the cache goes (CacheDir): a relative XDG_CACHE_HOME or
// HOME is skipped as Go skips it (it used to create the cache inside the
// directory gordian ran in), GORDIAN_CACHE is made absolute.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>

#include "gordian/driver/work_dir.h"

namespace gordian::driver {
namespace {

namespace fs = std::filesystem;

// Sets variables for one test and restores them after.
class EnvGuard {
 public:
  void Set(const char* k, const char* v) {
    if (!saved_.count(k)) {
      const char* old = getenv(k);
      saved_[k] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    if (v) setenv(k, v, 1);
    else unsetenv(k);
  }
  ~EnvGuard() {
    for (const auto& [k, v] : saved_) {
      if (v) setenv(k.c_str(), v->c_str(), 1);
      else unsetenv(k.c_str());
    }
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

TEST(CacheDir, RelativeXdgAndHomeAreSkipped) {
  fs::path base = fs::temp_directory_path() / ("gordian_cache_dir_" + std::to_string(getpid()));
  fs::create_directories(base / "cwd");
  fs::path old_cwd = fs::current_path();
  fs::current_path(base / "cwd");
  {
    EnvGuard env;
    env.Set("GORDIAN_CACHE", nullptr);
    env.Set("XDG_CACHE_HOME", "relative-cache");
    env.Set("HOME", (base / "home").c_str());
    std::string dir, err;
    ASSERT_TRUE(CacheDir(&dir, &err)) << err;
    EXPECT_EQ(dir, (base / "home/.cache/gordian").string());
    EXPECT_FALSE(fs::exists(base / "cwd/relative-cache"));
    env.Set("HOME", "also-relative");
    ASSERT_TRUE(CacheDir(&dir, &err)) << err;
    EXPECT_EQ(dir.rfind("/tmp/gordian-", 0), 0u) << dir;
    env.Set("GORDIAN_CACHE", "mine");
    ASSERT_TRUE(CacheDir(&dir, &err)) << err;
    EXPECT_EQ(dir, (base / "cwd/mine").string());
  }
  fs::current_path(old_cwd);
  fs::remove_all(base);
}

// Schedules of old runs were never removed (110 run directories in one
// cache): only the newest kScheduleRuns younger than kScheduleDays stay.
TEST(CacheDir, OldSchedulesArePruned) {
  fs::path cache = fs::temp_directory_path() / ("gordian_prune_" + std::to_string(getpid()));
  auto now = fs::file_time_type::clock::now();
  for (size_t i = 0; i < kScheduleRuns + 5; i++) {
    fs::path d = cache / "schedules" / ("run-" + std::to_string(i));
    fs::create_directories(d);
    // run-0 is the newest.
    fs::last_write_time(d, now - std::chrono::minutes(i));
  }
  fs::path old = cache / "schedules" / "run-old";
  fs::create_directories(old);
  fs::last_write_time(old, now - std::chrono::hours(24 * (kScheduleDays + 1)));
  fs::create_directories(cache / "schedules" / "mine");  // not a run directory
  PruneSchedules(cache.string());
  EXPECT_TRUE(fs::exists(cache / "schedules" / "run-0"));
  EXPECT_TRUE(fs::exists(cache / "schedules" / ("run-" + std::to_string(kScheduleRuns - 1))));
  EXPECT_FALSE(fs::exists(cache / "schedules" / ("run-" + std::to_string(kScheduleRuns))));
  EXPECT_FALSE(fs::exists(old));
  EXPECT_TRUE(fs::exists(cache / "schedules" / "mine"));
  fs::remove_all(cache);
}

}  // namespace
}  // namespace gordian::driver
