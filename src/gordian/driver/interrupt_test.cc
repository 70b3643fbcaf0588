// Tests of interrupts (process.h): with gordian's handler installed, a
// SIGTERM that arrives while no child runs (gordian busy analysing) ends
// the process at once, as before the handler existed; a memory guard's
// SIGTERMs were ignored during a long analysis. One that arrives while
// several threads each run a child reaches every child's process group
// (it used to reach only the last one started).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

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

// Makes pipefd a pipe and forks *pid: a child that installs gordian's
// interrupt handler and runs child, which ends with _exit (and may write to
// pipefd[1] to tell the parent it is ready for the signal).
template <class Child>
void ForkWithHandler(int pipefd[2], pid_t* pid, Child child) {
  ASSERT_EQ(pipe(pipefd), 0);
  *pid = fork();
  ASSERT_GE(*pid, 0);
  if (*pid == 0) {
    InstallInterruptHandler();
    child();
  }
}

// The same signal removes the run directories gordian made: nothing
// unwinds, so they are listed where the handler can read them.
TEST(Interrupt, SignalWithoutAChildRemovesTheRunDirectories) {
  namespace fs = std::filesystem;
  fs::path cache = fs::temp_directory_path() / ("gordian-int-" + std::to_string(getpid()));
  fs::create_directories(cache);
  int pipefd[2];
  pid_t pid;
  ASSERT_NO_FATAL_FAILURE(ForkWithHandler(pipefd, &pid, [&] {
    std::string dir, err;
    if (!MakeRunDir(cache.string(), &dir, &err)) _exit(3);
    std::ofstream(dir + "/trace-part") << "x";
    ssize_t w = write(pipefd[1], "r", 1);
    (void)w;
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    volatile unsigned long x = 0;
    while (std::chrono::steady_clock::now() < until) x = x + 1;
    _exit(0);
  }));
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

// Whether a process whose command line matches the regular expression
// pattern exists (pattern does not match itself: the shell that runs pgrep
// has it in its command line).
bool ProcessLeft(const std::string& pattern) {
  std::string cmd = "pgrep -f '" + pattern + "' >/dev/null";
  return std::system(cmd.c_str()) == 0;
}

TEST(Interrupt, SignalDuringParallelChildrenStopsEveryOne) {
  // The sleeps' odd length names them for pgrep. Each child is a shell
  // with a background sleep (which a non-interactive shell starts with
  // SIGINT ignored: it goes with the rest of the group once the shell has
  // exited) and a foreground one.
  const std::string marker = "sleep 97." + std::to_string(getpid());
  const std::string pattern = "sleep 97[.]" + std::to_string(getpid());
  constexpr int kChildren = 3;
  int pipefd[2];
  pid_t pid;
  ASSERT_NO_FATAL_FAILURE(ForkWithHandler(pipefd, &pid, [&] {
    std::atomic<int> interrupted{0}, quick{0};
    std::vector<std::thread> ts;
    for (int i = 0; i < kChildren; i++) {
      ts.emplace_back([&] {
        ProcessSpec spec;
        spec.argv = {"sh", "-c", marker + " & " + marker + "; wait"};
        spec.pass_through = false;
        spec.timeout_seconds = 60;
        ProcessResult r;
        std::string err;
        if (!RunProcess(spec, &r, &err)) return;
        interrupted += r.interrupted;
        quick += r.seconds < 20;
      });
    }
    // Tell the parent once every child is up (pgrep sees its sleeps).
    for (int tries = 0; tries < 100; tries++) {
      std::string cmd =
          "test $(pgrep -c -f '^" + pattern + "') -ge " + std::to_string(2 * kChildren);
      if (std::system(cmd.c_str()) == 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ssize_t w = write(pipefd[1], "r", 1);
    (void)w;
    for (std::thread& t : ts) t.join();
    _exit(interrupted.load() == kChildren && quick.load() == kChildren ? 0 : 10 + interrupted);
  }));
  char c;
  ASSERT_EQ(read(pipefd[0], &c, 1), 1);
  ASSERT_TRUE(ProcessLeft(pattern)) << "the children run";
  kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "every RunProcess ended interrupted, within seconds: " << status;
  EXPECT_FALSE(ProcessLeft(pattern)) << "a child or its background sleep is left";
  close(pipefd[0]);
  close(pipefd[1]);
}

}  // namespace
}  // namespace gordian::driver
