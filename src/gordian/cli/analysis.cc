// This file implements the shared analysis and report steps (analysis.h).
#include "gordian/cli/analysis.h"

#include <cstdio>
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
#include "gordian/trace/trace.h"

namespace gordian::cli {

void AddReportFlags(util::FlagSet* flags, ReportOptions* opt) {
  flags->String("json", &opt->json_path, "FILE", "also write the findings as JSON (report contract v1); - for stdout");
  flags->String("sarif", &opt->sarif_path, "FILE", "also write the findings as SARIF 2.1.0; - for stdout");
  flags->String("root", &opt->root, "DIR", "report paths relative to DIR (default: the module root)");
  flags->Bool("info", &opt->show_info, "also print info findings (alternative partners, ...)");
  flags->Bool("quiet", &opt->quiet, "no terminal report, only --json/--sarif and the exit status");
}

bool AnalyzeTrace(const std::string& cmd, const std::string& dir, const AnalyzeOptions& opt,
                  std::vector<report::Finding>* out, std::string* err) {
  trace::Trace t;
  if (!trace::ReadTrace(dir, &t, err)) return false;
  for (const std::string& w : t.warnings) fmt::print(stderr, "{}: warning: {}: {}\n", cmd, dir, w);
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

int Report(const std::string& cmd, std::vector<report::Finding> findings,
           const ReportOptions& opt) {
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

  int status = kExitOK;
  for (const report::Finding& f : findings) {
    if (report::CountsAsBug(f)) status = kExitFound;
  }
  bool machine_on_stdout = opt.json_path == "-" || opt.sarif_path == "-";
  std::string err;
  if (opt.json_path == "-") {
    fmt::print("{}", report::ToJson(findings));
  } else if (!opt.json_path.empty() && !report::WriteJsonFile(opt.json_path, findings, &err)) {
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
    FILE* stream = machine_on_stdout ? stderr : stdout;
    to.color = !machine_on_stdout && report::StdoutWantsColor();
    std::string text = report::RenderTerminal(findings, to);
    std::fwrite(text.data(), 1, text.size(), stream);
  }
  return status;
}

}  // namespace gordian::cli
