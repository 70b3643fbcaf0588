// Runs one measurement in a forked child process, so that its peak resident
// memory (wait4's ru_maxrss) is its own and a crash or a limit ends only
// that measurement. The child hands back a trivially copyable result
// through a pipe. Shared by the verify benchmarks.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <type_traits>

namespace gordian::bench {

struct ChildRun {
  bool ok = false;     // the child wrote its result
  int status = 0;      // its wait status
  long max_rss_kb = 0; // its peak resident memory (includes what it held at the fork)
};

// Calls fn() in a child and stores what it returns into *out.
template <typename Result, typename Fn>
ChildRun InChild(Fn&& fn, Result* out) {
  static_assert(std::is_trivially_copyable_v<Result>, "the result crosses a pipe");
  ChildRun run;
  int fds[2];
  if (pipe(fds) != 0) return run;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const Result r = fn();
    _exit(write(fds[1], &r, sizeof r) == sizeof r ? 0 : 1);
  }
  close(fds[1]);
  run.ok = pid > 0 && read(fds[0], out, sizeof *out) == sizeof *out;
  close(fds[0]);
  rusage ru{};
  if (pid > 0) wait4(pid, &run.status, 0, &ru);
  run.max_rss_kb = ru.ru_maxrss;
  return run;
}

}  // namespace gordian::bench
