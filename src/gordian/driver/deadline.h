// This file declares the command's deadline: the -wall limit on gordian's
// own work after the recorded run (analysing the traces, confirming by
// replay). The analysis of one trace checks for nothing while it runs, so
// the limit is enforced from outside it, as an interrupt is: when the
// deadline passes while no child runs, gordian prints one line and exits
// with status 2 at once, after removing its run directories
// (scratch_dirs.h), as after an interrupt. While a child runs, RunProcess kills it at
// the deadline (its limit is the smaller of its own and what is left) and
// the exit follows as soon as it returns.
#pragma once

#include <string>

namespace gordian::driver {

// Arms the deadline seconds from now (<= 0 or infinite: disarms). message is
// printed (a newline is added) when it passes.
void ArmDeadline(double seconds, const std::string& message);
void DisarmDeadline();

// Seconds until the deadline; infinity when none is armed, 0 once passed.
double SecondsLeft();

// Seconds left for work the command can do without (confirmation by
// replay): SecondsLeft() less a reserve (a fifth of the limit, at least
// 5 s) for what must still be done, the remaining analysis and the report.
double SecondsLeftForOptionalWork();

}  // namespace gordian::driver
