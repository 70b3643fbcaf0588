// This file owns writing the Promela export of `gordian verify -promela
// DIR` (promela_export.h): which valuations get a file (those the checker
// would check, verify_model.h), the own checker's verdict in each header,
// and the rule that only the export's own .pml files are overwritten.
#include "gordian/cli/promela_export.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "gordian/verify/checker.h"
#include "gordian/verify/promela.h"

namespace gordian::cli {

namespace fs = std::filesystem;

namespace {

// True when path does not exist or was written by the export.
bool Ours(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return true;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  return first == verify::kPromelaMarker;
}

}  // namespace

int ExportPromela(const std::string& cmd, const std::string& dir, const std::vector<verify::Model>& models,
                  const verify::VerifyOptions& vopt, bool quiet) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    fmt::print(stderr, "{}: -promela {}: cannot make the directory ({})\n", cmd, dir,
               ec ? ec.message() : "a file of that name is in the way");
    return 2;
  }
  verify::PromelaOptions popt;
  verify::CheckOptions copt = vopt.check;
  copt.max_objects = popt.max_objects;  // the same bound as MAXOBJ in the file
  popt.unknown_values = copt.unknown_values;
  std::set<std::string> written;
  size_t files = 0, refused = 0, failed = 0;
  for (const verify::Model& m : models) {
    std::string verr;
    if (!verify::Validate(m, &verr)) {
      fmt::print(stderr, "{}: internal error: the model of {} is malformed ({}); it is skipped\n", cmd, m.entry, verr);
      continue;
    }
    size_t all = 0;
    for (const std::vector<int64_t>& vals : verify::Valuations(m, vopt, &all)) {
      copt.param_values = vals;
      const auto t0 = std::chrono::steady_clock::now();
      const verify::CheckResult r = verify::Check(m, copt);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const verify::SpinVerdict v = verify::VerdictOf(r);
      popt.verdict = &v;
      popt.states = r.states;
      popt.seconds = secs;
      const std::string base = verify::PromelaFileName(m, vals);
      std::string name = base;
      // Two models of one name (an entry seen twice): number the later ones.
      for (int k = 2; written.count(name); ++k) name = base.substr(0, base.size() - 4) + fmt::format("@@{}", k) + ".pml";
      written.insert(name);
      const fs::path path = fs::path(dir) / name;
      if (!Ours(path)) {
        fmt::print(stderr, "{}: -promela: {} exists and was not written by gordian; it is left alone\n", cmd,
                   path.string());
        ++refused;
        continue;
      }
      std::ofstream out(path, std::ios::trunc);
      out << verify::ToPromela(m, vals, popt);
      out.close();
      if (!out) {
        fmt::print(stderr, "{}: -promela: cannot write {}\n", cmd, path.string());
        ++failed;
        continue;
      }
      ++files;
    }
  }
  if (!quiet) {
    fmt::print(stderr, "{}: {} Promela files for {} models in {}{}\n", cmd, files, models.size(), dir,
               refused + failed ? fmt::format(" ({} not written)", refused + failed) : "");
  }
  return refused + failed ? 2 : 0;
}

}  // namespace gordian::cli
