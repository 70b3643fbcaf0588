// This file implements want parsing and checking (wants.h).
#include "wants.h"

#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

namespace gordian::corpus {

using report::Finding;
using report::FindingKind;
using report::Status;

std::string Want::String() const {
  if (absent) return fmt::format("{}:{} nowant {}", file, line, report::KindName(kind));
  std::string s = fmt::format("{}:{} {} {}", file, line, report::KindName(kind),
                              report::StatusName(status));
  if (kind == FindingKind::GoroutineLeak) s += fmt::format(" {}", report::PrimitiveName(primitive));
  return s;
}

void ParseWants(const std::string& name, const std::string& text, std::vector<Want>* out,
                std::vector<std::string>* problems) {
  static const std::regex kWant(R"(//\s*want:(.*)$)");
  static const std::regex kNoWant(R"(//\s*nowant:(.*)$)");
  std::istringstream in(text);
  std::string line;
  for (uint32_t n = 1; std::getline(in, line); n++) {
    std::smatch m;
    if (std::regex_search(line, m, kNoWant)) {
      std::string rest = m[1].str();
      for (size_t start = 0; start <= rest.size();) {
        size_t semi = rest.find(" ; ", start);
        std::istringstream fields(rest.substr(start, semi == std::string::npos ? std::string::npos
                                                                             : semi - start));
        start = semi == std::string::npos ? rest.size() + 1 : semi + 3;
        std::string kind, extra;
        Want w;
        w.file = name;
        w.line = n;
        w.absent = true;
        if (!(fields >> kind) || (fields >> extra) || !report::ParseKind(kind, &w.kind)) {
          problems->push_back(fmt::format("{}:{}: malformed nowant {:?}", name, n, rest));
          continue;
        }
        out->push_back(w);
      }
      continue;
    }
    if (!std::regex_search(line, m, kWant)) continue;
    std::string at = fmt::format("{}:{}", name, n);
    size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 2, "//") == 0) {
      problems->push_back(at + ": want on a comment-only line");
      continue;
    }
    std::string rest = m[1].str();
    size_t start = 0;
    while (start <= rest.size()) {
      size_t semi = rest.find(" ; ", start);
      std::string item = rest.substr(start, semi == std::string::npos ? std::string::npos
                                                                       : semi - start);
      start = semi == std::string::npos ? rest.size() + 1 : semi + 3;
      std::istringstream fields(item);
      std::vector<std::string> f;
      for (std::string w; fields >> w;) f.push_back(w);
      Want w;
      w.file = name;
      w.line = n;
      if (f.size() < 2 || f.size() > 3 || !report::ParseKind(f[0], &w.kind) ||
          !report::ParseStatus(f[1], &w.status) ||
          (w.status != Status::Occurred && w.status != Status::Predicted)) {
        problems->push_back(fmt::format("{}: malformed want {:?}", at, item));
        continue;
      }
      bool leak = w.kind == FindingKind::GoroutineLeak;
      if (leak != (f.size() == 3) || (leak && !report::ParsePrimitive(f[2], &w.primitive))) {
        problems->push_back(fmt::format("{}: primitive only (and always) for goroutine-leak: {:?}",
                                        at, item));
        continue;
      }
      out->push_back(w);
    }
  }
}

namespace {

// The want's file as a report path suffix: "<prog_dir base>/<file>".
bool SameFile(const std::string& report_file, const std::string& prog, const std::string& file) {
  std::string suffix = prog + "/" + file;
  if (report_file == suffix) return true;
  return report_file.size() > suffix.size() &&
         report_file.compare(report_file.size() - suffix.size(), suffix.size(), suffix) == 0 &&
         report_file[report_file.size() - suffix.size() - 1] == '/';
}

bool StatusCompatible(Status want, Status got) {
  if (want == Status::Occurred) return got == Status::Occurred;
  return got == Status::Predicted || got == Status::Confirmed;
}

bool AtWantLine(const Finding& f, const std::string& prog, const Want& w) {
  for (const report::Location& l : f.locations) {
    if (l.line == w.line && SameFile(l.file, prog, w.file)) return true;
  }
  return false;
}

bool Covering(FindingKind k) {
  return k == FindingKind::DoubleLock || k == FindingKind::LockOrderDeadlock ||
         k == FindingKind::MixedDeadlock;
}

}  // namespace

std::string DescribeFinding(const Finding& f) {
  std::string s = fmt::format("{} {}", report::KindName(f.kind), report::StatusName(f.status));
  if (f.kind == FindingKind::GoroutineLeak) s += fmt::format(" {}", report::PrimitiveName(f.primitive));
  if (!f.locations.empty()) {
    s += fmt::format(" at {}:{}", f.locations[0].file, f.locations[0].line);
    if (f.locations.size() > 1) {
      s += " (also";
      for (size_t i = 1; i < f.locations.size() && i < 5; i++) {
        s += fmt::format(" {}:{}", f.locations[i].file, f.locations[i].line);
      }
      s += ")";
    }
  }
  return s;
}

CheckResult Check(const std::string& prog_dir, const std::vector<Want>& wants,
                  const std::vector<Finding>& findings,
                  const std::function<bool(FindingKind)>& must_confirm) {
  std::string prog = prog_dir;
  while (!prog.empty() && prog.back() == '/') prog.pop_back();
  if (size_t slash = prog.rfind('/'); slash != std::string::npos) prog = prog.substr(slash + 1);

  CheckResult r;
  for (const Want& w : wants) {
    if (w.absent) {
      for (const Finding& f : findings) {
        if (f.kind != w.kind || f.locations.empty()) continue;
        const report::Location& l = f.locations[0];
        if (l.line == w.line && SameFile(l.file, prog, w.file)) {
          r.unexpected.push_back(DescribeFinding(f) + " on a nowant line");
        }
      }
      continue;
    }
    bool hit = false;
    for (const Finding& f : findings) {
      if (f.kind != w.kind || !StatusCompatible(w.status, f.status)) continue;
      if (w.status == Status::Predicted && f.status != Status::Confirmed && must_confirm &&
          must_confirm(w.kind)) {
        continue;
      }
      if (w.kind == FindingKind::GoroutineLeak && f.primitive != w.primitive) continue;
      if (AtWantLine(f, prog, w)) {
        hit = true;
        break;
      }
    }
    (hit ? r.matched : r.missed).push_back(w);
  }
  for (const Finding& f : findings) {
    // A bug kind is a bug here whatever the report made of it: a prediction
    // no replay confirmed is shown as a warning (report::SettleUnconfirmed),
    // but a correct program must not get it either.
    if (!ClaimsABug(f)) continue;
    bool accounted = false;
    for (const Want& w : wants) {
      if (w.absent) continue;
      bool kind_ok = w.kind == f.kind ||
                     ((f.kind == FindingKind::GoroutineLeak ||
                       f.kind == FindingKind::GlobalDeadlock) &&
                      Covering(w.kind));
      if (kind_ok && AtWantLine(f, prog, w)) {
        accounted = true;
        break;
      }
    }
    if (!accounted) r.unexpected.push_back(DescribeFinding(f));
  }
  return r;
}

bool ClaimsABug(const report::Finding& f) {
  if (f.severity == report::Severity::Bug) return true;
  return f.status == Status::Predicted && report::DefaultSeverity(f.kind) == report::Severity::Bug;
}

}  // namespace gordian::corpus
