// This file declares the gordian subcommands: each one is a function from its
// arguments to an exit status, listed in commands.def.
//
// Exit status contract (docs/design.md, "Exit status"): 0 every test passed
// and no bug was found; 1 a test failed, or a bug occurred or was confirmed by
// a replay (for `parse`, syntax errors); 2 the tool itself or the build
// failed (bad usage, bad input, internal error) with a message that says what
// to do, or a trace is incomplete and no bug was found. A prediction no
// replay confirmed is a warning and sets no exit status.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gordian/util/flags.h"

namespace gordian::cli {

inline constexpr int kExitOK = 0;
inline constexpr int kExitFound = 1;
inline constexpr int kExitToolError = 2;

struct Command {
  const char* name;
  const char* summary;  // one line for `gordian --help`
  int (*run)(const std::vector<std::string>& args);
};

// The registered commands, in the order `gordian --help` lists them.
const std::vector<Command>& Commands();

// Prints "gordian <cmd>: <msg>" and the hint to use --help; returns 2.
int UsageError(const std::string& msg);

// Parses a command's args with flags into *positional. Returns the exit
// status to return at once, or nullopt to go on: UsageError's after a bad
// flag; kExitOK after --help, which prints usage and then the flag table.
std::optional<int> ParseCommandLine(util::FlagSet* flags,
                                    const std::vector<std::string>& args,
                                    std::vector<std::string>* positional,
                                    const std::string& usage);

// A part of a command that has parts (`gordian trace dump`).
struct Subcommand {
  const char* name;
  int (*run)(const std::vector<std::string>& args);
};

// Runs the subcommand of cmd ("gordian trace") that args[0] names, with the
// arguments after it. A usage error when args is empty or names none of
// subs; prints usage for -h, --help, -help and help.
int RunSubcommand(const std::string& cmd, const char* usage, const std::vector<Subcommand>& subs,
                  const std::vector<std::string>& args);

// Each command's function (RunTest, ...).
#define GORDIAN_COMMAND(name, run, summary) int run(const std::vector<std::string>& args);
#include "gordian/cli/commands.def"
#undef GORDIAN_COMMAND

}  // namespace gordian::cli
