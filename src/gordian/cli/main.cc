// This file implements the gordian command: it dispatches to subcommands and
// answers --help and --version.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/driver/process.h"

namespace gordian::cli {

int UsageError(const std::string& msg) {
  fmt::print(stderr, "{}\n", msg);
  return kExitToolError;
}

std::optional<int> ParseCommandLine(util::FlagSet* flags, const std::vector<std::string>& args,
                                    std::vector<std::string>* positional,
                                    const std::string& usage) {
  bool help = false;
  std::string err;
  if (!flags->Parse(args, positional, &help, &err)) return UsageError(err);
  if (help) {
    fmt::print("{}{}", usage, flags->Usage());
    return kExitOK;
  }
  return std::nullopt;
}

namespace {

// The words that ask for help in the place of a command or subcommand.
bool IsHelpWord(const std::string& a) {
  return a == "-h" || a == "--help" || a == "-help" || a == "help";
}

// "dump", "dump or stats", "a, b or c".
std::string NamesOf(const std::vector<Subcommand>& subs) {
  std::string out;
  for (size_t i = 0; i < subs.size(); i++) {
    if (i > 0) out += i + 1 == subs.size() ? " or " : ", ";
    out += subs[i].name;
  }
  return out;
}

}  // namespace

int RunSubcommand(const std::string& cmd, const char* usage, const std::vector<Subcommand>& subs,
                  const std::vector<std::string>& args) {
  if (args.empty()) {
    return UsageError(fmt::format("{}: missing subcommand: {} (see '{} --help')", cmd,
                                  NamesOf(subs), cmd));
  }
  const std::string& name = args[0];
  if (IsHelpWord(name)) {
    fmt::print("{}", usage);
    return kExitOK;
  }
  for (const Subcommand& s : subs) {
    if (name == s.name) return s.run(std::vector<std::string>(args.begin() + 1, args.end()));
  }
  return UsageError(fmt::format("{}: unknown subcommand {:?}: use {} (see '{} --help')", cmd, name,
                                NamesOf(subs), cmd));
}

namespace {

void PrintHelp() {
  fmt::print(
      "gordian finds concurrency bugs in Go programs and proves them.\n\n"
      "Usage:\n  gordian <command> [arguments]\n\nCommands:\n");
  for (const Command& c : Commands()) fmt::print("  {:<10} {}\n", c.name, c.summary);
  fmt::print(
      "\nRun 'gordian <command> --help' for the flags of one command.\n"
      "Exit status: 0 no bug found, 1 bugs found, 2 gordian itself failed.\n");
}

}  // namespace
}  // namespace gordian::cli

int main(int argc, char** argv) {
  using namespace gordian::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    PrintHelp();
    return kExitToolError;
  }
  std::string name = args[0];
  if (IsHelpWord(name)) {
    if (name == "help" && args.size() > 1) {
      args = {args[1], "--help"};
      name = args[0];
    } else {
      PrintHelp();
      return kExitOK;
    }
  }
  if (name == "--version" || name == "-version") return RunVersion({});
  // Commands that run children wind down on the first Ctrl-C or SIGTERM
  // (children killed, scratch removed, "interrupted"); the others keep the
  // default and simply stop.
  if (name == "test" || name == "run" || name == "record" || name == "replay") {
    gordian::driver::InstallInterruptHandler();
  }
  for (const Command& c : Commands()) {
    if (args[0] == c.name) {
      try {
        return c.run(std::vector<std::string>(args.begin() + 1, args.end()));
      } catch (const std::exception& e) {
        fmt::print(stderr, "gordian {}: internal error: {}\n"
                   "Please report this with the command line that caused it.\n",
                   c.name, e.what());
        return kExitToolError;
      }
    }
  }
  return UsageError(fmt::format("gordian: unknown command {:?} (see 'gordian --help')",
                                args[0]));
}
