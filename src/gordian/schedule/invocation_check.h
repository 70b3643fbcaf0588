// This file decides which command lines a schedule file may ask for. A
// schedule is data that people share (a `reproduce` command names one):
// replaying it must run only the recorded test or program, with build and
// run flags from a short list whose values are checked, never a flag that
// runs a command (-toolexec, -exec), writes a file (-o, -coverprofile,
// -test.cpuprofile, ...), or changes what is built (-overlay, -modfile, -C,
// -ldflags, -gcflags). The reader (ParseSchedule) applies it to the
// cmd.arg lines of a file and names the line it refuses; arguments the
// user types after `gordian replay SCHEDULE --` are the user's own and are
// not checked.
#pragma once

#include <string>
#include <vector>

namespace gordian::schedule {

// mode is "test" or "run" (anything else is refused). For test: go test
// flags from the list, then package patterns, then after -args the test
// binary's own arguments (no -test.* flag outside the list). For run: go
// build flags from the list, then one package (a directory or import path)
// or .go files, then the program's arguments, which are the program's data.
// On failure *bad is the index of the refused argument and *why says why.
bool CheckInvocationArgs(const std::string& mode, const std::vector<std::string>& args,
                         size_t* bad, std::string* why);

// The working directory of a replay must be an absolute path to an
// existing directory that holds a Go package (a .go file) or a module
// (go.mod): a trace's index cannot point go test at an arbitrary place.
bool CheckInvocationDir(const std::string& cwd, std::string* why);

}  // namespace gordian::schedule
