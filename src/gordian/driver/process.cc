// This file implements RunProcess (process.h) with posix_spawn, two pipes
// and a poll loop. The child leads a new process group so that the limit,
// a forwarded Ctrl-C and the final cleanup reach everything it started.
//
// Exit is detected with waitid(WNOWAIT): the exited leader stays a zombie,
// so its pid (and the group id) cannot be reused while we kill what is left
// of the group; only then is it reaped.
#include "gordian/driver/process.h"

#include "gordian/driver/deadline.h"
#include "gordian/driver/reaper.h"
#include "gordian/driver/scratch_dirs.h"
#include "gordian/driver/signal_handler.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iterator>
#include <mutex>

#include <fmt/format.h>

extern char** environ;

namespace gordian::driver {
namespace {

using Clock = std::chrono::steady_clock;

// The process groups of the children that run now, one slot each, so an
// interrupt reaches every one of them (a campaign runs -j children at
// once from its worker threads). A slot holds the group id from just after
// the spawn until the leader is reaped; 0 is a free slot. More children
// than slots at once still run, but an interrupt reaches only those in a
// slot (the others end at their own limits).
constexpr size_t kMaxGroups = 256;
std::atomic<pid_t> g_groups[kMaxGroups];
std::atomic<bool> g_group_forwarded[kMaxGroups];
// Children being started or running (a spawned child is in a slot only
// once posix_spawn returns; the handler must not end gordian meanwhile).
std::atomic<int> g_children{0};
// The last interrupt signal (for a child that gets its slot after it came).
std::atomic<int> g_signal{0};
// Set by the first SIGINT, SIGTERM or SIGHUP gordian receives (Interrupted).
std::atomic<bool> g_interrupted{false};

// The signals that interrupt gordian (forwarded to a running child).
constexpr int kInterruptSignals[] = {SIGINT, SIGTERM, SIGHUP};

void ForwardSignal(int sig) {
  g_signal.store(sig);
  g_interrupted.store(true);
  bool any = false;
  for (size_t i = 0; i < kMaxGroups; i++) {
    pid_t pg = g_groups[i].load();
    if (pg > 0) {
      kill(-pg, sig);
      g_group_forwarded[i].store(true);
      any = true;
    }
  }
  // A child about to get its slot is told by RunProcess (g_signal).
  if (any || g_children.load() > 0) return;
  // No child runs: gordian itself is busy (analysing a trace, which can
  // take minutes and checks for interrupts only between steps). Stop at
  // once, with the signal's default action, after removing the run
  // directories (nothing unwinds).
  RemoveScratchDirsNow();
  SetSignalHandler(sig, SIG_DFL);
  raise(sig);
}

// Counts a child as running for its lifetime, and installs the forwarding
// handlers (and ignores SIGPIPE) while any child runs: the first child in
// saves the previous actions, the last one out restores them. (After
// InstallInterruptHandler the previous action is ForwardSignal itself.)
class ChildCount {
 public:
  ChildCount() {
    std::lock_guard<std::mutex> l(Mu());
    if (g_children.load() == 0) {
      for (size_t i = 0; i < kCount; i++) {
        SetSignalHandler(kInterruptSignals[i], ForwardSignal, &old_[i]);
      }
      SetSignalHandler(SIGPIPE, SIG_IGN, &old_pipe_);
    }
    g_children.fetch_add(1);
  }
  ~ChildCount() {
    std::lock_guard<std::mutex> l(Mu());
    if (g_children.fetch_sub(1) == 1) {
      for (size_t i = 0; i < kCount; i++) sigaction(kInterruptSignals[i], &old_[i], nullptr);
      sigaction(SIGPIPE, &old_pipe_, nullptr);
    }
  }

 private:
  static constexpr size_t kCount = std::size(kInterruptSignals);
  static std::mutex& Mu() {
    static std::mutex mu;
    return mu;
  }
  // Shared by all children: what was installed before the first one.
  static inline struct sigaction old_[kCount];
  static inline struct sigaction old_pipe_;
};

// A running child's slot in g_groups, from the spawn until just before the
// leader is reaped (while it is a zombie its group id cannot be reused).
class GroupSlot {
 public:
  explicit GroupSlot(pid_t pgid) : pgid_(pgid) {
    ReaperWatch(pgid);  // ends with gordian, even on SIGKILL (reaper.h)
    for (size_t i = 0; i < kMaxGroups; i++) {
      pid_t free = 0;
      if (g_groups[i].compare_exchange_strong(free, pgid)) {
        slot_ = static_cast<int>(i);
        break;
      }
    }
    // An interrupt that came between the spawn and now found no slot.
    if (int sig = g_signal.load(); g_interrupted.load() && sig != 0) {
      kill(-pgid, sig);
      forwarded_early_ = true;
    }
  }
  ~GroupSlot() { Release(); }
  void Release() {
    if (slot_ >= 0) {
      forwarded_ = g_group_forwarded[slot_].exchange(false);  // free slots read false
      g_groups[slot_].store(0);
      slot_ = -1;
    }
    if (pgid_ > 0) {
      ReaperForget(pgid_);
      pgid_ = 0;
    }
  }
  // Whether an interrupt was sent to the group.
  bool Forwarded() const {
    return forwarded_early_ || forwarded_ ||
           (slot_ >= 0 && g_group_forwarded[slot_].load());
  }

 private:
  pid_t pgid_ = 0;
  int slot_ = -1;
  bool forwarded_ = false;
  bool forwarded_early_ = false;
};

bool WriteAll(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

std::vector<std::string> BuildEnv(const ProcessSpec& spec) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; e++) {
    std::string_view kv = *e;
    std::string_view key = kv.substr(0, kv.find('='));
    bool drop = spec.set_env.count(std::string(key)) > 0;
    for (const std::string& u : spec.unset_env) drop = drop || key == u;
    if (!drop) env.emplace_back(kv);
  }
  for (const auto& [k, v] : spec.set_env) env.push_back(k + "=" + v);
  return env;
}

const char* SignalName(int sig) {
  switch (sig) {
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGABRT: return "SIGABRT";
    case SIGSEGV: return "SIGSEGV";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    default: return "";
  }
}

}  // namespace

std::string ProcessResult::Describe() const {
  std::string how;
  if (signal != 0) {
    const char* name = SignalName(signal);
    how = *name ? fmt::format("signal {} ({})", signal, name) : fmt::format("signal {}", signal);
  } else {
    how = fmt::format("exit status {}", exit_code);
  }
  if (timed_out) return fmt::format("killed at the {:.0f}s wall-clock limit ({})", seconds, how);
  if (interrupted) return fmt::format("interrupted ({})", how);
  return signal != 0 ? "killed by " + how : how;
}

std::string LookPath(const std::string& name) {
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = getenv("PATH");
  std::string_view rest = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    size_t c = rest.find(':');
    std::string_view dir = rest.substr(0, c);
    std::string cand = fmt::format("{}/{}", dir.empty() ? std::string_view(".") : dir, name);
    struct stat st;
    if (stat(cand.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(cand.c_str(), X_OK) == 0) {
      return cand;
    }
    if (c == std::string_view::npos) break;
    rest.remove_prefix(c + 1);
  }
  return "";
}

bool RunProcess(const ProcessSpec& spec, ProcessResult* result, std::string* err) {
  // After an interrupt nothing new starts: the command is winding down.
  if (g_interrupted.load()) {
    *err = "interrupted";
    return false;
  }
  *result = ProcessResult();
  if (spec.argv.empty()) {
    *err = "internal error: RunProcess without a program";
    return false;
  }
  std::string prog = LookPath(spec.argv[0]);
  if (prog.empty()) {
    *err = fmt::format("cannot run {}: not found in PATH or not executable", spec.argv[0]);
    return false;
  }
  if (!spec.cwd.empty()) {
    struct stat st;
    if (stat(spec.cwd.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      *err = fmt::format("cannot run {} in {}: no such directory", spec.argv[0], spec.cwd);
      return false;
    }
  }

  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    *err = fmt::format("pipe: {}", strerror(errno));
    return false;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    *err = fmt::format("pipe: {}", strerror(errno));
    close(out_pipe[0]);
    close(out_pipe[1]);
    return false;
  }

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  bool stdin_inherit = spec.inherit_stdin && !isatty(0);
  if (!stdin_inherit) posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, spec.cwd.c_str());

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t empty, defaults;
  sigemptyset(&empty);
  sigemptyset(&defaults);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD}) sigaddset(&defaults, s);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);

  std::vector<std::string> env = BuildEnv(spec);
  std::vector<char*> envp, argv;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = spec.argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  ChildCount running;  // before the spawn: an interrupt meanwhile does not end gordian
  auto start = Clock::now();
  pid_t pid = 0;
  int rc = posix_spawn(&pid, prog.c_str(), &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    *err = fmt::format("cannot run {}: {}", prog, strerror(rc));
    return false;
  }

  GroupSlot slot(pid);
  int fds[2] = {out_pipe[0], err_pipe[0]};
  std::string* sinks[2] = {&result->out, &result->err};
  bool pass[2] = {spec.pass_through, spec.pass_through};
  // The command's deadline (deadline.h) bounds every child too.
  double limit = spec.timeout_seconds;
  double left = SecondsLeft();
  if (std::isfinite(left)) {
    left = std::max(left, 1e-3);  // passed already: at once, not "no limit"
    limit = limit > 0 ? std::min(limit, left) : left;
  }
  auto deadline = limit > 0 ? start + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(limit))
                            : Clock::time_point::max();
  Clock::time_point kill_at = Clock::time_point::max();
  Clock::time_point drain_until = Clock::time_point::max();
  bool exited = false, killed_rest = false;
  char buf[1 << 16];

  while (true) {
    auto now = Clock::now();
    if (!exited) {
      siginfo_t si;
      memset(&si, 0, sizeof si);
      if (waitid(P_PID, static_cast<id_t>(pid), &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
          si.si_pid == pid) {
        exited = true;
        drain_until = now + std::chrono::milliseconds(500);
      }
    }
    if (!exited && now >= deadline && kill_at == Clock::time_point::max()) {
      result->timed_out = true;
      kill(-pid, SIGTERM);
      kill_at = now + std::chrono::duration_cast<Clock::duration>(
                          std::chrono::duration<double>(spec.kill_grace_seconds));
    }
    if (!exited && now >= kill_at) kill(-pid, SIGKILL);
    if (exited && !killed_rest && (now >= drain_until || (fds[0] < 0 && fds[1] < 0))) {
      // Whatever the child left in its group (holding our pipes or not).
      kill(-pid, SIGKILL);
      killed_rest = true;
    }
    if (exited && fds[0] < 0 && fds[1] < 0) break;

    struct pollfd pfd[2];
    int n = 0;
    int idx[2];
    for (int i = 0; i < 2; i++) {
      if (fds[i] >= 0) {
        pfd[n] = {fds[i], POLLIN, 0};
        idx[n++] = i;
      }
    }
    if (spec.observe) spec.observe(0, {});
    int wait_ms = exited ? 20 : 50;
    if (n == 0) {
      usleep(static_cast<useconds_t>(exited ? 1000 : 5000));
      continue;
    }
    int pr = poll(pfd, static_cast<nfds_t>(n), wait_ms);
    if (pr < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int k = 0; k < n; k++) {
      if (pfd[k].revents == 0) continue;
      int i = idx[k];
      ssize_t got = read(fds[i], buf, sizeof buf);
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (got <= 0) {
        close(fds[i]);
        fds[i] = -1;
        continue;
      }
      size_t g = static_cast<size_t>(got);
      if (spec.observe) spec.observe(i + 1, std::string_view(buf, g));
      if (pass[i] && !WriteAll(i == 0 && !spec.stdout_to_stderr ? 1 : 2, buf, g)) {
        pass[i] = false;
      }
      if (spec.capture) {
        size_t room = spec.capture_limit - std::min(spec.capture_limit, sinks[i]->size());
        size_t keep = std::min(room, g);
        sinks[i]->append(buf, keep);
        result->dropped += g - keep;
      }
    }
  }
  for (int fd : fds) {
    if (fd >= 0) close(fd);
  }
  bool interrupted = slot.Forwarded();
  slot.Release();  // the group id may be reused once the leader is reaped
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result->signal = WTERMSIG(status);
  }
  result->interrupted = interrupted;
  result->seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return true;
}

void InstallInterruptHandler() {
  for (int sig : kInterruptSignals) SetSignalHandler(sig, ForwardSignal);
}

bool Interrupted() { return g_interrupted.load(); }

bool ChildRunning() { return g_children.load() > 0; }

}  // namespace gordian::driver
