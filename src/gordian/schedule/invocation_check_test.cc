// Tests of the command lines a schedule file may ask for: a shared
// schedule's `cmd.arg -toolexec=sh -c ...` ran a command and `cmd.arg -o
// PATH` wrote anywhere; now the reader refuses them and names the line.
#include "gordian/schedule/invocation_check.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gordian/schedule/schedule.h"

namespace gordian::schedule {
namespace {

bool Ok(const std::string& mode, const std::vector<std::string>& args) {
  size_t bad = 99;
  std::string why;
  return CheckInvocationArgs(mode, args, &bad, &why);
}

size_t BadAt(const std::string& mode, const std::vector<std::string>& args) {
  size_t bad = 99;
  std::string why;
  EXPECT_FALSE(CheckInvocationArgs(mode, args, &bad, &why));
  return bad;
}

TEST(InvocationCheck, WhatGordianWritesIsAccepted) {
  EXPECT_TRUE(Ok("test", {"-test.run=^TestX$", "-test.count=1", "-test.timeout=30s", "."}));
  EXPECT_TRUE(Ok("test", {"-race", "-tags", "integration,linux", "-run", "TestA|TestB", "./..."}));
  EXPECT_TRUE(Ok("test", {"-test.v", "-test.short", "-test.cpu=1,2", "-test.parallel=4", "."}));
  EXPECT_TRUE(Ok("test", {".", "-args", "-myflag", "value", "-test.run=X"}));
  EXPECT_TRUE(Ok("run", {"-race", ".", "--", "-o", "/anything", "its", "data"}));
  EXPECT_TRUE(Ok("run", {"./cmd/server", "-port", "8080"}));
  EXPECT_TRUE(Ok("run", {"main.go", "util.go", "arg"}));
  EXPECT_TRUE(Ok("run", {"--", "arg"}));
}

TEST(InvocationCheck, FlagsThatRunOrWriteAreRefused) {
  EXPECT_EQ(BadAt("test", {"-toolexec=sh -c 'touch /tmp/x'", "."}), 0u);
  EXPECT_EQ(BadAt("test", {".", "-toolexec", "sh"}), 1u);
  EXPECT_EQ(BadAt("test", {"-o", "/etc/x", "."}), 0u);
  EXPECT_EQ(BadAt("test", {"-exec", "sh", "."}), 0u);
  EXPECT_EQ(BadAt("test", {"-overlay=/tmp/o.json", "."}), 0u);
  EXPECT_EQ(BadAt("test", {"-coverprofile=/tmp/c", "."}), 0u);
  EXPECT_EQ(BadAt("test", {"-C", "/", "."}), 0u);
  EXPECT_EQ(BadAt("test", {"-ldflags=-X main.a=b", "."}), 0u);
  EXPECT_EQ(BadAt("test", {".", "-args", "-test.cpuprofile=/etc/passwd"}), 2u);
  EXPECT_EQ(BadAt("test", {".", "-args", "-test.outputdir", "/"}), 2u);
  EXPECT_EQ(BadAt("test", {"-count=1;rm", "."}), 0u);
  EXPECT_EQ(BadAt("test", {"-v=maybe", "."}), 0u);
  EXPECT_EQ(BadAt("test", {"/abs/pkg"}), 0u);
  EXPECT_EQ(BadAt("test", {"../other"}), 0u);
  EXPECT_EQ(BadAt("test", {"./a/../../b"}), 0u);
  EXPECT_EQ(BadAt("run", {"-toolexec=x", "."}), 0u);
  EXPECT_EQ(BadAt("run", {"-o", "/tmp/bin", "."}), 0u);
  EXPECT_EQ(BadAt("run", {"main.go", "../evil.go"}), 1u);
  EXPECT_EQ(BadAt("exec", {"."}), 0u);
}

TEST(InvocationCheck, TheReaderNamesTheLine) {
  Schedule s;
  std::string err;
  EXPECT_FALSE(ParseSchedule("gordian-schedule 1\ncmd.mode test\ncmd.arg -toolexec=sh\n"
                             "cmd.arg .\ng 1\n",
                             &s, &err));
  EXPECT_NE(err.find("schedule line 3"), std::string::npos) << err;
  EXPECT_NE(err.find("-toolexec=sh"), std::string::npos) << err;
  EXPECT_FALSE(ParseSchedule("gordian-schedule 1\ncmd.mode test\ncmd.frobnicate x\n", &s, &err));
  EXPECT_NE(err.find("schedule line 3: unknown line"), std::string::npos) << err;
  EXPECT_FALSE(ParseSchedule("gordian-schedule 1\ncmd.mode shell\ng 1\n", &s, &err));
  EXPECT_NE(err.find("schedule line 2"), std::string::npos) << err;
  EXPECT_TRUE(ParseSchedule("gordian-schedule 1\ncmd.mode test\ncmd.arg -test.run=^TestA$\n"
                            "cmd.arg .\ng 1\n",
                            &s, &err))
      << err;
}

TEST(InvocationCheck, WorkingDirectoryMustHoldAPackage) {
  std::string why;
  EXPECT_FALSE(CheckInvocationDir("relative/dir", &why));
  EXPECT_FALSE(CheckInvocationDir("/nonexistent-gordian-dir", &why));
  EXPECT_FALSE(CheckInvocationDir("/", &why));
  EXPECT_NE(why.find("holds no Go package"), std::string::npos) << why;
  namespace fs = std::filesystem;
  fs::path d = fs::temp_directory_path() / ("gordian_invocation_" + std::to_string(getpid()));
  fs::create_directories(d);
  std::ofstream(d / "x_test.go") << "package x\n";
  EXPECT_TRUE(CheckInvocationDir(d.string(), &why)) << why;
  fs::remove_all(d);
}

}  // namespace
}  // namespace gordian::schedule
