// This file declares the reaper: the children gordian starts end with it,
// even when gordian itself is killed with SIGKILL (an outer timeout, the
// OOM killer, `kill -9`), which no handler of gordian's can see.
//
// Every child runs in a process group of its own (process.h). Before the
// first one starts, gordian forks a small reaper process that only reads a
// pipe: gordian writes each group's id to it when the group starts and
// again when it has ended. When the pipe reaches end of file, gordian is
// gone (however it ended): the reaper sends SIGTERM to every group still
// listed, then SIGKILL a second later, and exits. The reaper ignores the
// terminal's signals (a Ctrl-C reaches gordian, which forwards it as
// before) and holds no file descriptor but its pipe.
//
// A `go test` and the test binaries it runs through gordian's exec wrapper
// share one group (the wrapper execs the binary in place), so one id covers
// a whole recording.
#pragma once

#include <sys/types.h>

namespace gordian::driver {

// The group pgid has started / has ended (its leader reaped). Thread-safe;
// a failure to start the reaper only loses this protection.
void ReaperWatch(pid_t pgid);
void ReaperForget(pid_t pgid);

}  // namespace gordian::driver
