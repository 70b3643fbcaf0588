// This file keeps the list of gordian's scratch directories (run
// directories) that exist right now, so that a signal or the -wall deadline
// that ends gordian while it is busy (analysing: there is no unwinding, no
// destructor runs) can still remove them. MakeRunDir adds a directory,
// RemoveTree drops it again.
#pragma once

#include <string>

namespace gordian::driver {

void AddScratchDir(const std::string& dir);
void DropScratchDir(const std::string& dir);

// Removes every listed directory and waits for that (fork and execve of
// rm -rf, which are async-signal-safe: callable from a signal handler).
void RemoveScratchDirsNow();

}  // namespace gordian::driver
