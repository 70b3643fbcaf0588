// This file implements the shared analysis and report steps (analysis.h).
#include "gordian/cli/analysis.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/cli/confirm_step.h"
#include "gordian/detect/occurred.h"
#include "gordian/detect/predict.h"
#include "gordian/hb/happens_before.h"
#include "gordian/race/race_findings.h"
#include "gordian/report/columns.h"
#include "gordian/report/dedup.h"
#include "gordian/report/json.h"
#include "gordian/report/paths.h"
#include "gordian/report/sarif.h"
#include "gordian/report/terminal.h"
#include "gordian/trace/summary.h"
#include "gordian/trace/trace.h"

namespace gordian::cli {

void AddReportFlags(util::FlagSet* flags, ReportOptions* opt) {
  flags->String("json", &opt->json_path, "FILE", "also write the findings as JSON (report contract v1); - for stdout");
  flags->String("sarif", &opt->sarif_path, "FILE", "also write the findings as SARIF 2.1.0; - for stdout");
  flags->String("root", &opt->root, "DIR", "report paths relative to DIR (default: the module root)");
  flags->Bool("info", &opt->show_info, "also print info findings (alternative partners, ...)");
  flags->Bool("quiet", &opt->quiet, "no terminal report, only --json/--sarif and the exit status");
  flags->Bool("unconfirmed", &opt->show_unconfirmed,
              "also print predicted bugs that a replay refuted (the JSON always has them)");
}

bool AnalyzeTrace(const std::string& cmd, const std::string& dir, const AnalyzeOptions& opt,
                  std::vector<report::Finding>* out, std::string* err) {
  trace::Trace t;
  if (!trace::ReadTrace(dir, &t, err)) return false;
  for (const std::string& w : t.warnings) fmt::print(stderr, "{}: warning: {}: {}\n", cmd, dir, w);
  if (opt.verbose) {
    for (const std::string& n : t.notes) fmt::print(stderr, "{}: note: {}: {}\n", cmd, dir, n);
  }
  if (opt.verdict != nullptr) AddTraceVerdict(t, opt.package, opt.verdict);
  hb::HappensBefore hb;
  std::string hb_err;
  bool have_hb = hb.Build(t, &hb_err);
  if (!have_hb) {
    fmt::print(stderr, "{}: warning: {}: no happens-before analysis: {}\n", cmd, dir, hb_err);
  }
  if (opt.verbose) {
    for (const std::string& w : hb.warnings()) {
      fmt::print(stderr, "{}: note: {}: {}\n", cmd, dir, w);
    }
  }
  detect::OccurredOptions oo;
  if (have_hb) {
    oo.hb = &hb;
    oo.partners = [&hb](uint32_t rec, std::vector<uint32_t>* partners) {
      detect::FindPossiblePartners(hb, rec, partners);
    };
  }
  std::vector<report::Finding> found = detect::DetectOccurred(t, oo);
  // -race: Go's race detector reports, from the log beside the trace.
  if (size_t n = race::AddRaceFindings(dir, t, &found); n > 0) {
    fmt::print(stderr, "{}: warning: {}: {} race report(s) without a location in the program\n",
               cmd, dir, n);
  }
  if (have_hb && opt.predict) {
    size_t first = found.size();
    detect::PredictBugs(t, hb, &found);
    // The terminal report names every goroutine with its spawn site.
    detect::OccurredIndex ix(t);
    for (size_t i = first; i < found.size(); i++) detect::FillGoroutines(ix, &found[i]);
  }
  report::ResolveColumns(&found);
  if (have_hb && opt.confirm != nullptr) ConfirmFound(cmd, t, hb, dir, &found, opt.confirm);
  for (report::Finding& f : found) {
    if (f.test.empty()) f.test = opt.test;
    out->push_back(std::move(f));
  }
  return true;
}

void AddTraceVerdict(const trace::Trace& t, const std::string& package, report::Verdict* v) {
  trace::TraceSummary sum = trace::Summarize(t);
  report::PackageVerdict p;
  p.package = package;
  p.how = trace::DescribeEnd(sum);
  p.ok = sum.exited && sum.exit_status == 0;
  for (const trace::TestOutcome& o : trace::TestOutcomes(t)) {
    report::TestVerdict tv;
    tv.package = package;
    tv.name = o.name;
    tv.result = !o.finished ? report::TestResult::Unfinished
                : o.failed  ? report::TestResult::Fail
                            : report::TestResult::Pass;
    // A test binary that exits 0 ran every test to its end: a test without
    // TestEnd there is one whose end the recorder missed, not a failure.
    if (p.ok && tv.result == report::TestResult::Unfinished) tv.result = report::TestResult::Pass;
    p.ok = p.ok && tv.result == report::TestResult::Pass;
    v->tests.push_back(std::move(tv));
  }
  v->packages.push_back(std::move(p));
}

int Report(const std::string& cmd, std::vector<report::Finding> findings,
           const ReportOptions& opt, const report::Verdict* verdict) {
  std::string root = opt.root;
  if (!root.empty()) {
    std::error_code ec;
    std::filesystem::path abs = std::filesystem::absolute(root, ec);
    if (!ec) root = abs.lexically_normal().string();
    while (root.size() > 1 && root.back() == '/') root.pop_back();
  } else {
    std::error_code ec;
    root = report::FindModuleRoot(std::filesystem::current_path(ec).string());
  }
  report::RelativizePaths(&findings, root);
  report::Dedup(&findings);
  if (opt.confirm_summary && !opt.quiet) PrintConfirmSummary(cmd, findings);

  int status = kExitOK;
  for (const report::Finding& f : findings) {
    if (report::CountsAsBug(f)) status = kExitFound;
  }
  if (verdict != nullptr && verdict->Failed()) status = kExitFound;
  bool machine_on_stdout = opt.json_path == "-" || opt.sarif_path == "-";
  std::string err;
  if (opt.json_path == "-") {
    fmt::print("{}", report::ToJson(findings, verdict));
  } else if (!opt.json_path.empty() &&
             !report::WriteJsonFile(opt.json_path, findings, &err, verdict)) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    status = kExitToolError;
  }
  report::SarifOptions so;
  so.source_root = root;
  if (opt.sarif_path == "-") {
    fmt::print("{}", report::ToSarif(findings, so));
  } else if (!opt.sarif_path.empty() &&
             !report::WriteSarifFile(opt.sarif_path, findings, so, &err)) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    status = kExitToolError;
  }
  if (!opt.quiet) {
    report::TerminalOptions to;
    to.show_info = opt.show_info;
    to.show_unconfirmed = opt.show_unconfirmed;
    to.source_root = root;
    to.verdict = verdict;
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

}  // namespace gordian::cli
