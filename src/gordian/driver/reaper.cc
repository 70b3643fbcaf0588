// The reaper process (reaper.h).
//
// The reaper is forked from a process that may have threads: between the
// fork and its exit it calls only async-signal-safe functions (read, kill,
// nanosleep, sigaction, close, _exit) and uses only its stack and static
// storage.
#include "gordian/driver/reaper.h"
#include "gordian/driver/signal_handler.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>

namespace gordian::driver {
namespace {

// One message on the pipe: a group started (op 'w') or ended (op 'f').
struct Message {
  int32_t op;
  int32_t pgid;
};
static_assert(sizeof(Message) == 8);

std::mutex g_mu;
int g_fd = -1;          // our end of the pipe (write), -1 before the reaper
bool g_tried = false;   // the reaper was started (or failed to start)

void Sleep(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
  }
}

// The reaper's life: fd is the pipe's read end, moved to descriptor 3.
[[noreturn]] void Reap() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU}) {
    SetSignalHandler(sig, SIG_IGN);
  }
  // Hold nothing of gordian's: a write end of another pipe held here would
  // keep gordian from seeing its child's output end, and gordian's own
  // stdout would keep `$(gordian ...)` waiting for the reaper.
  for (int fd = 0; fd < 3; fd++) close(fd);
  if (syscall(SYS_close_range, 4u, ~0u, 0u) != 0) {
    for (int fd = 4; fd < 4096; fd++) close(fd);
  }
  constexpr int kMax = 4096;
  static pid_t groups[kMax];
  int n = 0;
  Message m;
  for (;;) {
    ssize_t got = read(3, &m, sizeof m);
    if (got == sizeof m) {
      if (m.op == 'w') {
        if (n < kMax) groups[n++] = m.pgid;
      } else {
        for (int i = 0; i < n; i++) {
          if (groups[i] == m.pgid) {
            groups[i] = groups[--n];
            break;
          }
        }
      }
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    break;  // end of file: gordian is gone
  }
  if (n == 0) _exit(0);
  for (int i = 0; i < n; i++) kill(-groups[i], SIGTERM);
  Sleep(1000);
  for (int i = 0; i < n; i++) kill(-groups[i], SIGKILL);
  _exit(0);
}

// Under g_mu: starts the reaper once.
void Start() {
  g_tried = true;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return;
  }
  if (pid == 0) {
    // dup2 clears close-on-exec; the reaper never execs anyway.
    if (fds[0] != 3 && dup2(fds[0], 3) < 0) _exit(1);
    if (fds[1] == 3) _exit(1);  // cannot happen: 3 was just taken by the read end
    close(fds[1]);
    Reap();
  }
  close(fds[0]);
  g_fd = fds[1];
}

void Send(char op, pid_t pgid) {
  std::lock_guard<std::mutex> l(g_mu);
  if (!g_tried && op == 'w') Start();
  if (g_fd < 0) return;
  Message m{op, static_cast<int32_t>(pgid)};
  ssize_t n;
  do {
    n = write(g_fd, &m, sizeof m);
  } while (n < 0 && errno == EINTR);
}

}  // namespace

void ReaperWatch(pid_t pgid) { Send('w', pgid); }
void ReaperForget(pid_t pgid) { Send('f', pgid); }

}  // namespace gordian::driver
