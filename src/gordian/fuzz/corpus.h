// This file declares the fuzzing corpus of one test: a directory of the
// schedules that added coverage in earlier campaigns, one file each in the
// schedule format (docs/schedule-format.md), named by a hash of its text.
// A campaign replays them first and adds the schedules of its own runs
// that add coverage (docs/fuzzing-schedules.md, "The corpus directory").
//
// A stored schedule has no invocation, a fixed origin, and the sites of
// files in the package's directory relative to it ("./a_test.go:12"): the campaign runs it
// with the test's own invocation, and the same schedule found on another
// machine or in another checkout has the same text and name. A file that
// does not parse is reported by name and skipped; it is never removed
// (the user may want to look at it).
#pragma once

#include <string>
#include <vector>

#include "gordian/schedule/schedule.h"

namespace gordian::fuzz {

struct CorpusEntry {
  std::string path;  // the file
  schedule::Schedule schedule;
};

// Reads every schedule in dir, sorted by file name (so that the order is
// the same on every run), with "./" sites made absolute under package_dir
// (when not empty). A directory that does not exist is an
// empty corpus. Files that are not schedules, and files or a directory that
// cannot be read, each add one line to *warnings ("DIR/FILE: why") and are
// skipped. Names starting with '.' (editors' and our own temporary
// files) are ignored.
std::vector<CorpusEntry> LoadCorpus(const std::string& dir, const std::string& package_dir,
                                    std::vector<std::string>* warnings);

// The file name s gets in a corpus: 16 hex digits of a hash of its stored
// text (s.cmd.cwd, when set, is the package directory).
std::string CorpusName(const schedule::Schedule& s);

// Stores s (whose cmd.cwd, when set, is the package directory) in dir
// (made when missing) unless a file of that name is there
// already; *added tells which. False with *err when it cannot be written.
// The file appears whole or not at all (written aside, then renamed).
bool AddToCorpus(const std::string& dir, const schedule::Schedule& s, bool* added,
                 std::string* err);

}  // namespace gordian::fuzz
