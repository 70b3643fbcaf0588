// This file implements `gordian trace`: tools for a recorded trace directory.
//   gordian trace dump [--json | --text] [--by-goroutine] [--goroutine ID] DIR|FILE.trace
//   gordian trace stats DIR
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/driver/trace_dirs.h"
#include "gordian/trace/dump.h"
#include "gordian/trace/text.h"
#include "gordian/trace/trace.h"
#include "gordian/util/flags.h"

namespace gordian::cli {
namespace {

constexpr const char* kTraceUsage =
    "usage: gordian trace dump [--json | --text] [--by-goroutine] [--goroutine ID] DIR\n"
    "       gordian trace stats DIR\n\n"
    "dump prints one line per record of the trace in DIR (written by\n"
    "'gordian record'): goroutine stable id, stamps (tpre-tpost, 'never' for an\n"
    "operation that did not complete), kind, object, site and, for a channel\n"
    "operation, its exact partner ('<- closed' for a receive on a closed channel).\n"
    "Records are in stamp order (the interleaving) unless --by-goroutine.\n"
    "--json prints one JSON object per line instead. --text prints the whole trace\n"
    "in its text form (docs/trace-format.md, \"Text form\"), which reads back as the\n"
    "same trace; DIR may also be a FILE.trace in that form.\n"
    "stats prints counts per goroutine and per kind.\n";

// Reads DIR, printing the reader's warnings to stderr. DIR may also be the
// output of 'gordian record test' when it holds a single package's trace.
bool Load(const std::string& cmd, const std::string& dir_arg, trace::Trace* t) {
  std::string err, dir = dir_arg;
  std::vector<driver::PackageTrace> traces;
  if (driver::ListTraces(dir_arg, &traces, &err) && traces.size() != 1) {
    std::string names;
    for (const auto& p : traces) names += "\n  " + p.trace_dir;
    fmt::print(stderr, "{}: {} holds {} traces, one per test binary; pass one of them:{}\n",
               cmd, dir_arg, traces.size(), names);
    return false;
  }
  if (traces.size() == 1) dir = traces[0].trace_dir;
  bool text = dir.size() > 6 && dir.ends_with(".trace");
  if (!(text ? trace::ReadTextTrace(dir, t, &err) : trace::ReadTrace(dir, t, &err))) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    return false;
  }
  for (const std::string& w : t->warnings) fmt::print(stderr, "{}: warning: {}\n", cmd, w);
  return true;
}

int RunDump(const std::vector<std::string>& args) {
  const std::string cmd = "gordian trace dump";
  util::FlagSet flags(cmd);
  flags.Interspersed();  // flags may follow the paths
  trace::DumpOptions opts;
  flags.Bool("json", &opts.json, "one JSON object per line");
  bool text = false;
  flags.Bool("text", &text, "the text form of the whole trace, which reads back as the same trace");
  flags.Bool("by-goroutine", &opts.by_goroutine,
             "goroutine by goroutine in program order, not in stamp order");
  flags.String("goroutine", &opts.goroutine, "ID", "only the goroutine with this stable id (e.g. 1.0)");
  std::vector<std::string> pos;
  if (auto done = ParseCommandLine(&flags, args, &pos, std::string(kTraceUsage) + "\n")) return *done;
  if (pos.size() != 1) {
    return UsageError(fmt::format("{}: expected one trace directory, got {} arguments "
                                  "(see 'gordian trace --help')",
                                  cmd, pos.size()));
  }
  if (text && (opts.json || opts.by_goroutine || !opts.goroutine.empty())) {
    return UsageError(fmt::format("{}: --text prints the whole trace; it does not go with "
                                  "--json, --by-goroutine or --goroutine", cmd));
  }
  trace::Trace t;
  if (!Load(cmd, pos[0], &t)) return kExitToolError;
  if (text) {
    std::string out = trace::FormatTextTrace(t);
    fwrite(out.data(), 1, out.size(), stdout);
    return fflush(stdout) == 0 ? kExitOK : kExitToolError;
  }
  if (!opts.goroutine.empty()) {
    bool found = false;
    for (const auto& g : t.goroutines) found = found || g.stable_id == opts.goroutine;
    if (!found) {
      fmt::print(stderr, "{}: no goroutine {:?} in {} (the stable ids are printed in the "
                 "first column of the dump)\n",
                 cmd, opts.goroutine, pos[0]);
      return kExitToolError;
    }
  }
  trace::DumpTrace(t, opts, stdout);
  return fflush(stdout) == 0 ? kExitOK : kExitToolError;
}

int RunStats(const std::vector<std::string>& args) {
  const std::string cmd = "gordian trace stats";
  util::FlagSet flags(cmd);
  flags.Interspersed();  // flags may follow the paths
  std::vector<std::string> pos;
  if (auto done = ParseCommandLine(&flags, args, &pos, kTraceUsage)) return *done;
  if (pos.size() != 1) {
    return UsageError(fmt::format("{}: expected one trace directory (see 'gordian trace --help')",
                                  cmd));
  }
  trace::Trace t;
  if (!Load(cmd, pos[0], &t)) return kExitToolError;
  std::map<std::string, size_t> kinds;
  size_t blocked = 0;
  for (const trace::Record& r : t.records) {
    kinds[trace::KindName(r.kind)]++;
    if (trace::IsBlocking(r.kind) && r.tpost == 0) blocked++;
  }
  fmt::print("{} goroutines, {} records, {} sites, {} never completed{}\n",
             t.goroutines.size(), t.records.size(), t.sites.size() - 1, blocked,
             t.truncated ? ", TRUNCATED" : "");
  for (const auto& [k, n] : kinds) fmt::print("  {:<18} {}\n", k, n);
  for (const auto& [k, v] : t.meta) fmt::print("  meta {}={}\n", k, v);
  return kExitOK;
}

}  // namespace

int RunTrace(const std::vector<std::string>& args) {
  return RunSubcommand("gordian trace", kTraceUsage, {{"dump", RunDump}, {"stats", RunStats}}, args);
}

}  // namespace gordian::cli
