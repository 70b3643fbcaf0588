// This file implements the scratch directory list (scratch_dirs.h): fixed
// slots of fixed size, so that the signal handler reads them without
// allocating or locking.
#include "gordian/driver/scratch_dirs.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace gordian::driver {
namespace {

constexpr int kSlots = 16;         // directories that exist at once (a few in practice)
constexpr size_t kPathMax = 4096;  // PATH_MAX
char g_path[kSlots][kPathMax];
std::atomic<bool> g_used[kSlots];

}  // namespace

void AddScratchDir(const std::string& dir) {
  if (dir.empty() || dir.size() >= kPathMax) return;
  for (int i = 0; i < kSlots; i++) {
    if (g_used[i].load()) continue;
    memcpy(g_path[i], dir.c_str(), dir.size() + 1);
    g_used[i].store(true);
    return;
  }
  // All slots taken: the directory is swept by a later run (MakeRunDir).
}

void DropScratchDir(const std::string& dir) {
  for (int i = 0; i < kSlots; i++) {
    if (g_used[i].load() && dir == g_path[i]) g_used[i].store(false);
  }
}

void RemoveScratchDirsNow() {
  char* argv[kSlots + 4];
  int n = 0;
  argv[n++] = const_cast<char*>("rm");
  argv[n++] = const_cast<char*>("-rf");
  argv[n++] = const_cast<char*>("--");
  for (int i = 0; i < kSlots; i++) {
    if (g_used[i].load()) argv[n++] = g_path[i];
  }
  if (n == 3) return;
  argv[n] = nullptr;
  char* envp[] = {nullptr};
  pid_t pid = fork();
  if (pid == 0) {
    execve("/bin/rm", argv, envp);
    _exit(127);
  }
  if (pid > 0) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

}  // namespace gordian::driver
