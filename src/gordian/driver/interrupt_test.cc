// Tests of interrupts (process.h): with gordian's handler installed, a
// SIGTERM that arrives while no child runs (gordian busy analysing) ends
// the process at once, as before the handler existed; a memory guard's
// SIGTERMs were ignored during a long analysis.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "gordian/driver/process.h"

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

}  // namespace
}  // namespace gordian::driver
