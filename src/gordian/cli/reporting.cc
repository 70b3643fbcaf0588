// This file implements the report step (reporting.h).
#include "gordian/cli/reporting.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/driver/work_dir.h"
#include "gordian/report/dedup.h"
#include "gordian/report/html.h"
#include "gordian/report/json.h"
#include "gordian/report/paths.h"
#include "gordian/report/replay_hits.h"
#include "gordian/report/sarif.h"
#include "gordian/report/terminal.h"
#include "gordian/util/size.h"

namespace gordian::cli {

std::optional<int> CheckReportFlags(const std::string& cmd, const ReportOptions& opt) {
  int on_stdout = (opt.json_path == "-") + (opt.sarif_path == "-") + (opt.html_path == "-");
  if (on_stdout > 1) {
    return UsageError(fmt::format("{}: only one of --json, --sarif and --html can go to standard "
                                  "output (-); write the others to files",
                                  cmd));
  }
  return std::nullopt;
}

void AddReportFlags(util::FlagSet* flags, ReportOptions* opt) {
  flags->String("json", &opt->json_path, "FILE", "also write the findings as JSON (report contract v1); - for stdout");
  flags->String("sarif", &opt->sarif_path, "FILE", "also write the findings as SARIF 2.1.0; - for stdout");
  flags->String("html", &opt->html_path, "FILE",
                "also write the findings as one self-contained HTML page with goroutine "
                "timelines; - for stdout");
  flags->String("root", &opt->root, "DIR", "report paths relative to DIR (default: the module root)");
  flags->Bool("info", &opt->show_info, "also print info findings (alternative partners, ...)");
  flags->Bool("quiet", &opt->quiet, "no terminal report, only --json/--sarif and the exit status");
  flags->Bool("unconfirmed", &opt->show_unconfirmed,
              "also print predicted bugs that a replay refuted (the JSON always has them)");
}

void AddMemFlag(util::FlagSet* flags, std::string* mem) {
  flags->String("mem", mem, "SIZE",
                "memory for analysing one trace (e.g. 500M, 2G; default half of physical "
                "memory); past it predictions are dropped and the report says so");
}

bool ParseMemFlag(const std::string& cmd, const std::string& mem, uint64_t* bytes,
                  std::string* err) {
  *bytes = 0;
  if (mem.empty()) return true;
  std::string why;
  if (util::ParseSize(mem, bytes, &why)) return true;
  *err = fmt::format("{}: -mem {:?}: {}", cmd, mem, why);
  return false;
}

namespace {

// The reproduce schedules in the cache that no finding of the report
// names any more (Dedup merged the same bug seen in two tests into one,
// which keeps one reproduce command) are removed: they would only take
// room. Schedules kept elsewhere (--keep DIR) are left alone.
void RemoveUnnamedSchedules(const std::set<std::string>& before,
                            const std::vector<report::Finding>& after) {
  std::string cache, err;
  if (before.empty() || !driver::CacheDir(&cache, &err)) return;
  std::set<std::string> named;
  for (const report::Finding& f : after) named.insert(f.reproduce_schedule);
  const std::string dir = (std::filesystem::path(cache) / "schedules").string() + "/";
  for (const std::string& p : before) {
    if (named.count(p) || !p.starts_with(dir)) continue;
    std::error_code ec;
    std::filesystem::remove(p, ec);
  }
}

std::set<std::string> SchedulesOf(const std::vector<report::Finding>& findings) {
  std::set<std::string> out;
  for (const report::Finding& f : findings) {
    if (!f.reproduce_schedule.empty()) out.insert(f.reproduce_schedule);
  }
  return out;
}

// The module root the report's paths are relative to.
std::string ReportRoot(const ReportOptions& opt) {
  std::string root = opt.root;
  std::error_code ec;
  if (!root.empty()) {
    std::filesystem::path abs = std::filesystem::absolute(root, ec);
    if (!ec) root = abs.lexically_normal().string();
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    return root;
  }
  return report::FindModuleRoot(std::filesystem::current_path(ec).string());
}

// The machine reports opt asks for (--json, --sarif, --html) of findings,
// whose paths are relative to root, in that order: each written to its
// file, or, when its path is "-", printed on standard output if
// print_stdout says so (and left out if not). False when a file could not
// be written (said on stderr; the others are still written).
bool EmitMachineReports(const std::string& cmd, const std::vector<report::Finding>& findings,
                        const ReportOptions& opt, const report::Verdict* verdict,
                        const std::string& root, bool print_stdout) {
  const report::FuzzReport* fuzz = opt.fuzz ? &*opt.fuzz : nullptr;
  std::string err;
  bool ok = true;
  // One report: render() is its text for standard output, write() writes
  // its file (false with err).
  auto emit = [&](const std::string& path, auto render, auto write) {
    if (path.empty()) return;
    if (path == "-") {
      if (print_stdout) fmt::print("{}", render());
    } else if (!write()) {
      fmt::print(stderr, "{}: {}\n", cmd, err);
      ok = false;
    }
  };
  emit(
      opt.json_path, [&] { return report::ToJson(findings, verdict, opt.degraded, fuzz); },
      [&] {
        return report::WriteJsonFile(opt.json_path, findings, &err, verdict, opt.degraded, fuzz);
      });
  report::SarifOptions so;
  so.source_root = root;
  so.degraded = opt.degraded;
  emit(
      opt.sarif_path, [&] { return report::ToSarif(findings, so); },
      [&] { return report::WriteSarifFile(opt.sarif_path, findings, so, &err); });
  report::HtmlOptions ho;
  ho.title = fmt::format("gordian report: {}", cmd);
  ho.command = cmd;
  ho.source_root = root;
  ho.verdict = verdict;
  ho.degraded = opt.degraded;
  ho.runs = &opt.runs;
  emit(
      opt.html_path, [&] { return report::RenderHtml(findings, ho); },
      [&] { return report::WriteHtmlFile(opt.html_path, findings, ho, &err); });
  return ok;
}

}  // namespace

bool WriteReportFiles(const std::string& cmd, std::vector<report::Finding> findings,
                      const ReportOptions& opt, const report::Verdict* verdict) {
  std::string root = ReportRoot(opt);
  report::RelativizePaths(&findings, root);
  report::Dedup(&findings);
  report::SettleUnconfirmed(&findings, opt.unconfirmed_note);
  return EmitMachineReports(cmd, findings, opt, verdict, root, /*print_stdout=*/false);
}

int Report(const std::string& cmd, std::vector<report::Finding> findings,
           const ReportOptions& opt, const report::Verdict* verdict) {
  std::string root = ReportRoot(opt);
  report::RelativizePaths(&findings, root);
  std::set<std::string> schedules = SchedulesOf(findings);
  report::Dedup(&findings);
  RemoveUnnamedSchedules(schedules, findings);
  if (opt.confirm_summary && !opt.quiet) PrintConfirmSummary(cmd, findings);
  report::SettleUnconfirmed(&findings, opt.unconfirmed_note);
  for (const std::string& n : opt.notes) {
    if (!opt.quiet) fmt::print(stderr, "{}: {}\n", cmd, n);
  }

  int status = kExitOK;
  for (const report::Finding& f : findings) {
    if (report::CountsAsBug(f)) status = kExitFound;
  }
  if (verdict != nullptr && verdict->Failed()) status = kExitFound;
  if (opt.incomplete && status == kExitOK) {
    if (!opt.quiet) {
      fmt::print(stderr, "{}: a trace is incomplete (see the note at the end of the report): no bug "
                 "found in what was recorded, but that is not all of the run; exit status 2\n", cmd);
    }
    status = kExitToolError;
  }
  bool machine_on_stdout =
      opt.json_path == "-" || opt.sarif_path == "-" || opt.html_path == "-";
  if (!EmitMachineReports(cmd, findings, opt, verdict, root, /*print_stdout=*/true)) {
    status = kExitToolError;
  }
  if (!opt.quiet) {
    report::TerminalOptions to;
    to.show_info = opt.show_info;
    to.show_unconfirmed = opt.show_unconfirmed;
    to.source_root = root;
    to.verdict = verdict;
    to.degraded = opt.degraded;
    FILE* stream = machine_on_stdout ? stderr : stdout;
    to.color = !machine_on_stdout && report::StdoutWantsColor();
    std::string text = report::RenderTerminal(findings, to);
    std::fwrite(text.data(), 1, text.size(), stream);
  }
  // A report that could not be written (a full disk, stdout on /dev/full,
  // a closed pipe) is gordian failing, not "no bug": say so, exit 2.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    fmt::print(stderr, "{}: cannot write the report to standard output: {}\n", cmd,
               std::strerror(errno));
    status = kExitToolError;
  }
  return status;
}

void PrintConfirmSummary(const std::string& cmd, const std::vector<report::Finding>& findings) {
  for (const std::string& line : report::ConfirmationLines(report::CountConfirmation(findings))) {
    fmt::print(stderr, "{}: {}\n", cmd, line);
  }
}

}  // namespace gordian::cli
