// Tests of the GORACE value and the race log files (gorace.h).
#include "gordian/race/gorace.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace gordian::race {
namespace {

TEST(Gorace, LogPathIsAppendedToTheUsersOptions) {
  EXPECT_EQ(GoraceWithLogPath("", "/t/pkg"), "log_path=/t/pkg/race");
  EXPECT_EQ(GoraceWithLogPath("halt_on_error=1", "/t/pkg"),
            "halt_on_error=1 log_path=/t/pkg/race");
  // The user's own log_path stays in the value but ours comes last and wins.
  EXPECT_EQ(GoraceWithLogPath("log_path=/tmp/mine ", "/t/pkg"),
            "log_path=/tmp/mine log_path=/t/pkg/race");
  // GORACE cannot quote a space: such a directory is not named at all.
  EXPECT_EQ(GoraceWithLogPath("strip_path_prefix=/x", "/t/my pkg"), "strip_path_prefix=/x");
}

TEST(Gorace, ReadsOnlyTheRecordedProcesssLog) {
  std::string dir = (std::filesystem::temp_directory_path() /
                     ("gordian-gorace-" + std::to_string(getpid())))
                        .string();
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/race.100") << "WARNING: DATA RACE\n";
  std::ofstream(dir + "/race.200") << "a child's report\n";
  EXPECT_EQ(ReadRaceLog(dir, "100"), "WARNING: DATA RACE\n");
  EXPECT_EQ(ReadRaceLog(dir, "300"), "");
  EXPECT_EQ(ReadRaceLog(dir, ""), "");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gordian::race
