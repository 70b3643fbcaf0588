// This file defines Shell, the helper of the pipeline tests that run a
// script (scripts/confirm-corpus, scripts/replay-fidelity) and read what it
// printed.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace gordian::pipeline::testing {

// Runs cmd with /bin/sh and returns its standard output; *status (if
// given) gets its exit status, -1 when it did not exit normally.
inline std::string Shell(const std::string& cmd, int* status = nullptr) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    if (status != nullptr) *status = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  if (status != nullptr) *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

}  // namespace gordian::pipeline::testing
