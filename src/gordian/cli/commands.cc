// This file holds the table of gordian subcommands.
#include "gordian/cli/command.h"

namespace gordian::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"test", "run package tests with the recorder on and report concurrency bugs", RunTest},
      {"run", "run a main package with the recorder on and report concurrency bugs", RunRun},
      {"parse", "parse Go files or directory trees and report syntax errors", RunParse},
      {"trace", "inspect a recorded trace: dump its records with their partners", RunTrace},
      {"record", "build and run a program or its tests with the recorder on; keep the trace", RunRecord},
      {"analyze", "analyse recorded traces offline and report the bugs found", RunAnalyze},
      {"fuzz", "explore schedules of each test, guided by the analysis; report every bug found", RunFuzz},
      {"merge", "merge the JSON reports of several runs (shards) into one report", RunMerge},
      {"ir", "print the concurrency IR of packages (the input of static verification)", RunIr},
      {"verify", "check a model of each entry point's concurrency for every interleaving (static)", RunVerify},
      {"replay", "re-run a recorded trace or a schedule deterministically; say where it diverged", RunReplay},
      {"cache", "show where gordian's cache is and how much it takes; clean it", RunCache},
      {"version", "print the version, commit, build type and the Go releases supported", RunVersion},
  };
  return commands;
}

}  // namespace gordian::cli
