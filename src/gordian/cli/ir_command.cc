// This file implements `gordian ir`: the concurrency IR of Go packages, the
// first layer of static verification (docs/ir-format.md, docs/verify.md).
//   gordian ir dump [-C DIR] [--no-tests] [-tags T] [-o FILE] PKG...
//   gordian ir dump --file IR
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/cli/ir_input.h"
#include "gordian/ir/writer.h"
#include "gordian/util/flags.h"

namespace gordian::cli {
namespace {

constexpr const char* kIrUsage =
    "usage: gordian ir dump [-C DIR] [--no-tests] [-tags T] [-o FILE] PKG...\n"
    "       gordian ir dump --file IR\n\n"
    "dump prints the concurrency IR (docs/ir-format.md) of the packages: their\n"
    "functions, blocks, goroutine spawns, calls (interface and function-value calls\n"
    "resolved by a VTA call graph), channel, sync, context and timer operations,\n"
    "loops with their bounds, and where primitives flow, each with its source\n"
    "position. Types, SSA and the call graph come from Go's own packages\n"
    "(golang.org/x/tools): gordian builds its generator (tools/irgen) with your Go\n"
    "on first use and caches it. The packages' _test.go files are included unless\n"
    "--no-tests. --file checks an IR file and prints it again.\n"
    "Exit status 2 when a package does not build (with the compiler's messages) or\n"
    "the IR is malformed.\n";

int RunDump(const std::vector<std::string>& args) {
  const std::string cmd = "gordian ir dump";
  util::FlagSet flags(cmd);
  flags.Interspersed();
  std::string dir, tags, out, file;
  bool no_tests = false;
  flags.String("C", &dir, "DIR", "resolve the packages from DIR instead of the current directory");
  flags.Bool("no-tests", &no_tests, "leave out the packages' _test.go files");
  flags.String("tags", &tags, "T", "comma-separated build tags");
  flags.String("o", &out, "FILE", "write the IR to FILE instead of stdout");
  flags.String("file", &file, "IR", "read this IR file instead of generating one");
  std::vector<std::string> pkgs;
  if (auto done = ParseCommandLine(&flags, args, &pkgs, kIrUsage)) return *done;
  if (!file.empty() && !pkgs.empty()) return UsageError(cmd + ": --file takes no packages");
  if (file.empty() && pkgs.empty()) {
    return UsageError(cmd + ": missing PKG (e.g. ./...; see 'gordian ir --help')");
  }
  ir::Program prog;
  if (!LoadIr(cmd, IrInput{file, pkgs, dir, tags, !no_tests}, nullptr, &prog)) {
    return kExitToolError;
  }
  std::string printed = ir::WriteProgram(prog);
  if (out.empty()) {
    fmt::print("{}", printed);
    return kExitOK;
  }
  std::ofstream f(out, std::ios::binary | std::ios::trunc);
  f << printed;
  f.close();
  if (!f) {
    fmt::print(stderr, "{}: cannot write {}\n", cmd, out);
    return kExitToolError;
  }
  return kExitOK;
}

}  // namespace

int RunIr(const std::vector<std::string>& args) {
  return RunSubcommand("gordian ir", kIrUsage, {{"dump", RunDump}}, args);
}

}  // namespace gordian::cli
