// Tests of interrupts (process.h): with gordian's handler installed, a
// SIGTERM that arrives while no child runs (gordian busy analysing) ends
// the process at once, as before the handler existed; a memory guard's
// SIGTERMs were ignored during a long analysis.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <filesystem>

#include "gordian/driver/process.h"
#include "gordian/driver/work_dir.h"

namespace gordian::driver {
namespace {

TEST(Interrupt, SignalWithoutAChildEndsTheProcess) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    InstallInterruptHandler();
    // Busy, like an analysis: never checks Interrupted().
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    volatile unsigned long x = 0;
    while (std::chrono::steady_clock::now() < until) x = x + 1;
    _exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto sent = std::chrono::steady_clock::now();
  kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_LT(secs, 5.0);
}

// The same signal removes the run directories gordian made: nothing
// unwinds, so they are listed where the handler can read them.
TEST(Interrupt, SignalWithoutAChildRemovesTheRunDirectories) {
  namespace fs = std::filesystem;
  fs::path cache = fs::temp_directory_path() / ("gordian-int-" + std::to_string(getpid()));
  fs::create_directories(cache);
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    InstallInterruptHandler();
    std::string dir, err;
    if (!MakeRunDir(cache.string(), &dir, &err)) _exit(3);
    std::ofstream(dir + "/trace-part") << "x";
    ssize_t w = write(pipefd[1], "r", 1);
    (void)w;
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    volatile unsigned long x = 0;
    while (std::chrono::steady_clock::now() < until) x = x + 1;
    _exit(0);
  }
  char c;
  ASSERT_EQ(read(pipefd[0], &c, 1), 1);
  ASSERT_FALSE(fs::is_empty(cache / "runs"));
  kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  EXPECT_TRUE(fs::is_empty(cache / "runs")) << "the run directory is gone";
  fs::remove_all(cache);
  close(pipefd[0]);
  close(pipefd[1]);
}

}  // namespace
}  // namespace gordian::driver
