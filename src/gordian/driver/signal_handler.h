// This file owns setting a signal's disposition in a way that is safe in a
// signal handler and in a child forked from a threaded process (sigaction
// only): process.cc's interrupt forwarding and the reaper (reaper.cc) both
// need it.
#pragma once

#include <signal.h>

#include <cstring>

namespace gordian::driver {

// Sets sig's handler (a function, SIG_IGN or SIG_DFL), with no flags and
// no signals blocked while it runs; *old, when given, receives the
// previous action.
inline void SetSignalHandler(int sig, void (*handler)(int), struct sigaction* old = nullptr) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, old);
}

}  // namespace gordian::driver
