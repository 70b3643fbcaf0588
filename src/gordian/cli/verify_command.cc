// This file implements `gordian verify`: static verification of Go packages
// (docs/verify.md). It generates the concurrency IR
// (irgen/generator.h), extracts one model per entry point (verify/extract.h),
// checks each model over the valuations of its parameters
// (verify/verify_model.h, verify/checker.h) and reports the violations as
// predicted findings with the renderers `gordian test` uses.
//   gordian verify [-C DIR] [--no-tests] [-tags T] [-param NAME=VALUES]...
//                  [-depth N] [-max-model-states N] [-max-model-time S]
//                  [-dump-models] [-no-confirm] [-confirm-tries N] [-confirm-time D] [--verbose]
//                  [report flags] PKG...
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gordian/cli/command.h"
#include "gordian/cli/ir_input.h"
#include "gordian/cli/progress.h"
#include "gordian/cli/promela_export.h"
#include "gordian/cli/reporting.h"
#include "gordian/driver/process.h"
#include "gordian/driver/work_dir.h"
#include "gordian/pipeline/verify_confirm.h"
#include "gordian/util/duration.h"
#include "gordian/util/flags.h"
#include "gordian/verify/extract.h"
#include "gordian/verify/verify_model.h"

namespace gordian::cli {
namespace {

constexpr const char* kVerifyUsage =
    "usage: gordian verify [-C DIR] [--no-tests] [-tags T] [-param NAME=VALUES]... [-depth N]\n"
    "                      [-max-model-states N] [-max-model-time SECONDS]\n"
    "                      [-no-liveness] [-max-liveness-states N] [-dump-models] [-promela DIR]\n"
    "                      [-no-confirm] [-confirm-tries N] [-confirm-time D] [--verbose] [--json FILE]\n"
    "                      [--sarif FILE] PKG...\n"
    "       gordian verify [flags] --file IR\n\n"
    "verify checks the concurrency of Go packages without running them: it builds a\n"
    "model of each entry point (each test, each exported function, each function\n"
    "that makes a channel, lock or WaitGroup and takes none) with its callees inlined\n"
    "and its goroutines as processes, and explores every interleaving of the model\n"
    "for global deadlocks, goroutine leaks, send on or close of a closed channel,\n"
    "negative WaitGroup counters, unlock of an unlocked mutex and double locks,\n"
    "and, where a model can run forever, for goroutines blocked forever while the\n"
    "rest runs on and messages never received (fair cycles; -no-liveness skips it).\n"
    "Integers that shape concurrency (channel capacities, Add deltas, loop bounds)\n"
    "are parameters; each is tried with 0..5 unless -param NAME=V1,V2,... says\n"
    "otherwise (e.g. -param 'len(jobs)=0,1,8'; repeatable). A model that\n"
    "needs more than -max-model-states states (or -max-model-time) stops there,\n"
    "keeps its findings and is reported as bounded. Findings are\n"
    "'predicted': a path of the model, not an observed run. Each one is then\n"
    "confirmed on the real program: its counterexample is replayed on a test that\n"
    "reaches its function: 'confirmed' with a reproduce command when the program\n"
    "shows the bug, else the next counterexample is tried, up to -confirm-tries\n"
    "replays (default 3) within 60 s a finding, then 'unconfirmed' and not shown\n"
    "(-unconfirmed shows it; --verbose says why); one that no test reaches, or\n"
    "that -confirm-time (default 5m for all) left untried, is a warning, 'possible\n"
    "(...)', with its score (docs/verify.md, Confirmation). -no-confirm\n"
    "(and --file) gives the static result alone: every finding a warning.\n"
    "Only confirmed bugs set the exit status. Exit status: 0 no confirmed bug,\n"
    "1 confirmed bugs, 2 a package (or a test that reaches a finding) does not\n"
    "build, or bad input.\n";

bool ParseValues(const std::string& text, std::vector<int64_t>* out) {
  size_t i = 0;
  while (i <= text.size()) {
    size_t j = text.find(',', i);
    if (j == std::string::npos) j = text.size();
    std::string v = text.substr(i, j - i);
    char* end = nullptr;
    if (v.empty()) return false;
    long long x = std::strtoll(v.c_str(), &end, 10);
    if (*end != '\0' || x < 0 || x > 1000) return false;
    out->push_back(x);
    i = j + 1;
  }
  return !out->empty();
}

// -confirm: replays the findings' counterexamples on the tests
// (pipeline/verify_confirm.h) and prints what happened; the findings are
// updated in place. Returns kExitOK, or kExitToolError when no scratch
// directory can be made.
int ConfirmFindings(const std::string& cmd, const ir::Program& prog, const std::vector<verify::Model>& models,
                    const std::vector<size_t>& model_of, const verify::VerifyOptions& vopt, int tries,
                    double total_seconds, bool verbose,
                    bool quiet, std::vector<report::Finding>* findings, bool* build_failed) {
  std::string cache, err;
  driver::ScopedRunDir run_dir;
  if (!driver::CacheDir(&cache, &err) || !run_dir.Make(cache, &err)) {
    fmt::print(stderr, "{}: confirm: {}\n", cmd, err);
    return kExitToolError;
  }
  const std::string& scratch = run_dir.path();
  driver::PruneSchedules(cache);
  pipeline::VerifyConfirmOptions co;
  co.tries = tries;
  co.total_seconds = total_seconds;
  co.vopt = vopt;
  co.work_dir = scratch;
  co.schedule_dir = (std::filesystem::path(cache) / "schedules" / std::filesystem::path(scratch).filename()).string();
  std::string self = driver::SelfExe();
  co.gordian = self.empty() ? "gordian" : self;
  Progress progress(cmd, quiet);
  co.progress = [&](const std::string& what) { progress.Say(what); };
  pipeline::VerifyConfirmSummary sum;
  pipeline::ConfirmVerifyFindings(prog, models, model_of, findings, co, &sum);
  progress.Clear();
  for (const std::string& e : sum.errors) fmt::print(stderr, "{}: confirm: {}\n", cmd, e);
  if (verbose) {
    for (const std::string& n : sum.notes) fmt::print(stderr, "{}: confirm: {}\n", cmd, n);
  }
  if (!quiet) {
    fmt::print(stderr,
               "{}: confirm: {} finding{}: {} confirmed ({} after a refuted counterexample), {} unconfirmed, "
               "{} without a test that reaches them, {} not tried (errors above){}; {:.1f} s\n",
               cmd, sum.looked_at, sum.looked_at == 1 ? "" : "s", sum.confirmed, sum.confirmed_later,
               sum.unconfirmed, sum.no_test, sum.failed,
               sum.out_of_time == 0 ? ""
                                    : fmt::format(", {} not tried (-confirm-time ran out)", sum.out_of_time),
               sum.seconds);
  }
  if (driver::Interrupted()) {
    fmt::print(stderr, "{}: interrupted\n", cmd);
    return kExitToolError;
  }
  *build_failed = sum.build_failed;
  return kExitOK;
}

// Says which -param names no model has (a typo, or a parameter the
// extraction did not make).
void WarnUnknownParams(const std::string& cmd, const verify::VerifyOptions& vopt,
                       const std::vector<verify::Model>& models) {
  for (const auto& [pname, _] : vopt.param_values) {
    bool known = false;
    for (const verify::Model& m : models) {
      for (const verify::Parameter& p : m.params) known = known || p.name == pname;
    }
    if (!known) fmt::print(stderr, "{}: -param {}: no model has this parameter (see -dump-models)\n", cmd, pname);
  }
}

}  // namespace

int RunVerify(const std::vector<std::string>& raw_args) {
  const std::string cmd = "gordian verify";
  verify::VerifyOptions vopt;
  // -param may repeat: take it out before the flag set (which keeps one value).
  std::vector<std::string> args;
  for (size_t i = 0; i < raw_args.size(); i++) {
    std::string a = raw_args[i];
    std::string value;
    if (a == "-param" || a == "--param") {
      if (i + 1 >= raw_args.size()) return UsageError("verify: -param needs NAME=VALUES");
      value = raw_args[++i];
    } else if (a.starts_with("-param=") || a.starts_with("--param=")) {
      value = a.substr(a.find('=') + 1);
    } else {
      args.push_back(a);
      continue;
    }
    size_t eq = value.rfind('=');
    std::vector<int64_t> vals;
    if (eq == std::string::npos || eq == 0 || !ParseValues(value.substr(eq + 1), &vals)) {
      return UsageError(fmt::format(
          "verify: -param {:?}: want NAME=VALUES with VALUES comma-separated integers 0..1000, e.g. n=0,1,2,8",
          value));
    }
    vopt.param_values[value.substr(0, eq)] = vals;
  }
  util::FlagSet flags(cmd);
  flags.Interspersed();
  std::string dir, tags, file, promela;
  bool no_tests = false, dump = false, verbose = false, no_liveness = false;
  bool confirm_flag = false, no_confirm = false;  // -confirm (the default), -no-confirm
  long confirm_tries = 3;
  std::string confirm_time = "5m";
  bool test_build_failed = false;  // -confirm: a test that reaches a finding did not build
  long depth = 3, max_valuations = 256, max_states = 2'000'000;
  long max_model_states = static_cast<long>(vopt.max_model_states);
  long max_liveness_states = static_cast<long>(vopt.max_liveness_states);
  std::string max_model_time;
  flags.String("C", &dir, "DIR", "resolve the packages from DIR instead of the current directory");
  flags.Bool("no-tests", &no_tests, "leave out the packages' _test.go files (and their tests as entry points)");
  flags.String("tags", &tags, "T", "comma-separated build tags");
  flags.String("file", &file, "IR", "verify this IR file (gordian ir dump -o) instead of generating one");
  flags.Int("depth", &depth, "N", "inline calls up to N deep (default 3)");
  flags.Int("max-valuations", &max_valuations, "N", "check at most N valuations of a model's parameters (default 256)");
  flags.Int("max-states", &max_states, "N", "explore at most N states per valuation (default 2000000)");
  flags.Int("max-model-states", &max_model_states, "N",
            "explore at most N states per model, over all its valuations (default 1000000); past it the model "
            "stops, keeps its findings and is reported as bounded");
  flags.String("max-model-time", &max_model_time, "SECONDS",
               "stop a model after SECONDS of wall time (default: no limit), reported as bounded");
  flags.Bool("no-liveness", &no_liveness,
             "skip the liveness search (partial-deadlock, undelivered-message: fair cycles of the unreduced state "
             "graph; docs/verify.md)");
  flags.Int("max-liveness-states", &max_liveness_states, "N",
            "of a model's budget, at most N states for the liveness search, after its safety check (default 200000)");
  flags.Bool("dump-models", &dump, "print each model and do not check it");
  flags.String("promela", &promela, "DIR", "write each model, per valuation, as Promela for SPIN into DIR (docs/verify.md)");
  flags.Bool("confirm", &confirm_flag,
             "replay each finding's counterexample on a test that reaches it (builds and runs the tests; the "
             "default)");
  flags.Bool("no-confirm", &no_confirm, "report the static result only: replay nothing, run no test");
  flags.Int("confirm-tries", &confirm_tries, "N", "replay at most N counterexamples per finding (default 3)");
  flags.String("confirm-time", &confirm_time, "D",
               "confirm for at most D in all (default 5m); the findings not tried by then stay warnings");
  flags.Bool("verbose", &verbose, "list each model's notes (what it does not model) and its state count");
  ReportOptions ropt;
  AddReportFlags(&flags, &ropt);
  std::vector<std::string> pkgs;
  if (auto done = ParseCommandLine(&flags, args, &pkgs, kVerifyUsage)) return *done;
  if (auto bad = CheckReportFlags(cmd, ropt)) return *bad;
  if (depth < 0 || depth > 20) return UsageError("verify: -depth must be 0..20");
  if (max_valuations < 1) return UsageError("verify: -max-valuations must be at least 1");
  if (max_states < 1) return UsageError("verify: -max-states must be at least 1");
  if (max_model_states < 1) return UsageError("verify: -max-model-states must be at least 1");
  if (max_liveness_states < 0) return UsageError("verify: -max-liveness-states must be at least 0");
  if (confirm_tries < 1 || confirm_tries > 100) return UsageError("verify: -confirm-tries must be 1..100");
  double confirm_seconds = 0;
  if (std::string derr; !util::ParseDuration(confirm_time, &confirm_seconds, &derr) || !(confirm_seconds > 0)) {
    return UsageError(fmt::format("verify: -confirm-time {:?}: {}", confirm_time,
                                  derr.empty() ? "want a duration > 0, e.g. 90s or 10m" : derr));
  }
  if (confirm_flag && no_confirm) return UsageError("verify: -confirm and -no-confirm contradict each other");
  if (confirm_flag && !file.empty()) {
    return UsageError("verify: -confirm runs the packages' tests: give packages, not --file");
  }
  // An IR file has no tests to replay on: its result is the static one.
  const bool confirm = !no_confirm && file.empty();
  if (!max_model_time.empty()) {
    char* end = nullptr;
    double secs = std::strtod(max_model_time.c_str(), &end);
    if (*end != '\0' || !(secs > 0) || secs > 1e6) {
      return UsageError(fmt::format("verify: -max-model-time {:?}: want a number of seconds > 0, e.g. 10 or 0.5",
                                    max_model_time));
    }
    vopt.max_model_seconds = secs;
  }

  if (!file.empty() && !pkgs.empty()) return UsageError("verify: --file takes no packages");
  if (file.empty() && pkgs.empty()) {
    return UsageError("verify: missing PKG (e.g. ./...; see 'gordian verify --help')");
  }
  ir::Program prog;
  {
    Progress gen_progress(cmd, ropt.quiet);
    if (!LoadIr(cmd, IrInput{file, pkgs, dir, tags, !no_tests}, &gen_progress, &prog)) {
      return kExitToolError;
    }
  }
  verify::ExtractOptions xopt;
  xopt.inline_depth = static_cast<int>(depth);
  std::vector<verify::Model> models = verify::ExtractModels(prog, xopt);
  if (dump) {
    for (const verify::Model& m : models) fmt::print("{}\n", verify::Print(m));
    return kExitOK;
  }
  vopt.root = prog.root;
  vopt.max_valuations = static_cast<size_t>(max_valuations);
  vopt.check.max_states = static_cast<uint64_t>(max_states);
  vopt.max_model_states = static_cast<uint64_t>(max_model_states);
  vopt.liveness = !no_liveness && max_liveness_states > 0;
  vopt.max_liveness_states = static_cast<uint64_t>(max_liveness_states);
  if (!promela.empty()) return ExportPromela(cmd, promela, models, vopt, ropt.quiet);
  std::vector<report::Finding> findings;
  std::vector<size_t> model_of;  // findings[i] came from models[model_of[i]]
  WarnUnknownParams(cmd, vopt, models);
  size_t capped = 0, bounded = 0, budgeted = 0;
  auto start = std::chrono::steady_clock::now();
  // One updating line on a terminal, a plain line every few seconds in a
  // log (cli/progress.h): which model, how far, findings so far.
  Progress progress(cmd, ropt.quiet);
  size_t done = 0;
  for (size_t mi = 0; mi < models.size(); mi++) {
    const verify::Model& m = models[mi];
    progress.Say(fmt::format("model {} of {}: {}; {} finding{} so far", done + 1, models.size(),
                             m.entry, findings.size(), findings.size() == 1 ? "" : "s"));
    ++done;
    std::string verr;
    if (!verify::Validate(m, &verr)) {
      progress.Clear();
      fmt::print(stderr, "{}: internal error: the model of {} is malformed ({}); it is skipped\n", cmd, m.entry,
                 verr);
      continue;
    }
    auto t0 = std::chrono::steady_clock::now();
    verify::ModelResult r = verify::VerifyModel(m, vopt);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r.all_valuations > vopt.max_valuations) capped++;
    if (r.out_of_budget) {
      budgeted++;
    } else if (r.bounded) {
      bounded++;
    }
    // Every report (terminal, JSON "degraded", SARIF, HTML) says which
    // models were not checked to the end: their lack of findings is no proof.
    if (r.bounded) ropt.degraded.push_back(fmt::format("model {}: {}", m.entry, r.bound_reason));
    if (verbose) {
      progress.Clear();
      fmt::print(stderr, "model {} ({} processes, {} parameters): {} valuations of {}, {} states, {:.4f} s, {} of "
                 "the states by the liveness search{}\n",
                 m.entry, m.templates.size(), m.params.size(), r.valuations, r.all_valuations, r.states, secs,
                 r.liveness_states,
                 r.bounded ? (r.out_of_budget ? ", " : ", bounded: ") + r.bound_reason : "");
      for (const verify::Parameter& p : m.params) {
        fmt::print(stderr, "  parameter {} ({}, {})\n", p.name, p.mandatory ? "mandatory" : "optional", p.source);
      }
      for (const std::string& n : m.notes) fmt::print(stderr, "  note: {}\n", n);
    }
    for (report::Finding& f : r.findings) {
      findings.push_back(std::move(f));
      model_of.push_back(mi);
    }
  }
  if (confirm && !findings.empty()) {
    int st = ConfirmFindings(cmd, prog, models, model_of, vopt, static_cast<int>(confirm_tries), confirm_seconds, verbose, ropt.quiet,
                             &findings, &test_build_failed);
    if (st != kExitOK) return st;
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.Clear();
  if (!ropt.quiet) {
    fmt::print(stderr, "{}: {} models checked in {:.2f} s", cmd, models.size(), total);
    if (capped) fmt::print(stderr, "; {} with more valuations than -max-valuations {} (the smallest were checked)",
                           capped, max_valuations);
    if (budgeted) {
      fmt::print(stderr, "; {} stopped by the model budget (-max-model-states/-max-model-time; no finding there is "
                 "no proof)", budgeted);
    }
    if (bounded) fmt::print(stderr, "; {} cut by a search limit such as -max-states (no finding there is no proof)",
                            bounded);
    fmt::print(stderr, "\n");
  }
  if (ropt.root.empty()) ropt.root = prog.root;
  ropt.unconfirmed_note = confirm ? "found in a model of the code; no replay confirmed it"
                                 : "found in a model of the code; not replayed (-no-confirm)";
  int status = Report(cmd, std::move(findings), ropt);
  // A test that does not build is a build failure (exit 2), reported after
  // the findings so that none is lost.
  return test_build_failed ? kExitToolError : status;
}

}  // namespace gordian::cli
