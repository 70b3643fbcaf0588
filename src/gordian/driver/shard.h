// This file owns -shard I/N of gordian test and gordian fuzz: which tests
// belong to shard I of N, and the go test arguments that run only those.
// A top-level test (or example, or fuzz target's seed corpus: -run selects
// them too) belongs to the shard its name hashes to (FNV-1a 64 of
// the name, modulo N): the same on every machine and every run, and a new
// test does not move the others to another shard. The hash takes the name
// only, not the package, because one go test invocation takes one -run
// pattern for all its packages: a name in shard I is run in every package
// that has it, so each (package, test) still runs in exactly one shard.
// docs/scale.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gordian/driver/test_list.h"

namespace gordian::driver {

struct Shard {
  uint32_t index = 0, count = 1;  // shard index of count (0 <= index < count)
};

// Parses "I/N" (0 <= I < N, N >= 1); false with a one-line *err that says
// what a valid value is.
bool ParseShard(const std::string& text, Shard* out, std::string* err);

// The shard of count that the top-level test name belongs to.
uint32_t ShardOfTest(const std::string& name, uint32_t count);

// The names in shard s of the listed tests, examples and fuzz targets
// (what -run selects), sorted and without duplicates.
std::vector<std::string> TestsOfShard(const std::vector<PackageTests>& listed, Shard s);

// args (go test flags and packages, as gordian test takes them) with their
// -run replaced by one that selects exactly names at the top level; the
// part of the user's -run after its top-level pattern (a "/sub" pattern) is
// kept. With no names, a pattern that no test name matches.
std::vector<std::string> WithOnlyTests(const std::vector<std::string>& args,
                                       const std::vector<std::string>& names);

// Lists the tests of args (ListTests) and returns in *out the arguments
// that run only shard s of them (WithOnlyTests); *selected gets how many
// test names the shard holds, *total how many the listing has. False with
// *err when the tests cannot be listed.
bool ShardArgs(const std::vector<std::string>& args, const std::string& cwd,
               double wall_seconds, Shard s, std::vector<std::string>* out, size_t* selected,
               size_t* total, std::string* err);

}  // namespace gordian::driver
