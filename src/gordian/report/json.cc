// This file implements the JSON report (json.h).
#include "gordian/report/json.h"
#include "gordian/report/location_json.h"
#include "gordian/report/output_file.h"
#include "gordian/util/version.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gordian::report {
namespace {

using ojson = nlohmann::ordered_json;

}  // namespace

std::string ToJson(const std::vector<Finding>& findings, const Verdict* verdict,
                   const std::vector<std::string>& degraded, const FuzzReport* fuzz) {
  ojson doc;
  doc["version"] = kJsonVersion;
  doc["tool"] = "gordian";
  doc["tool_version"] = util::Version();
  doc["findings"] = ojson::array();
  for (const Finding& f : findings) {
    ojson j;
    j["kind"] = KindName(f.kind);
    j["status"] = StatusName(f.status);
    j["severity"] = SeverityName(f.severity);
    if (f.kind == FindingKind::GoroutineLeak) j["primitive"] = PrimitiveName(f.primitive);
    j["test"] = f.test;
    j["message"] = f.message;
    j["locations"] = ojson::array();
    for (const Location& l : f.locations) j["locations"].push_back(LocationJson(l));
    j["reproduce"] = f.reproduce;
    if (!f.note.empty()) j["note"] = f.note;
    if (!f.also.empty()) j["also"] = f.also;
    if (!f.other_tests.empty()) j["other_tests"] = f.other_tests;
    if (!f.found_under.empty()) j["found_under"] = f.found_under;
    if (f.score) {
      j["score"] = {{"failing", f.score->failing},
                    {"checked", f.score->checked},
                    {"share", f.score->checked ? double(f.score->failing) / f.score->checked : 0.0},
                    {"untracked_data", f.score->untracked_data}};
    }
    doc["findings"].push_back(std::move(j));
  }
  if (verdict != nullptr) {
    doc["tests"] = ojson::array();
    for (const TestVerdict& t : verdict->tests) {
      ojson tj;
      tj["package"] = t.package;
      tj["name"] = t.name;
      tj["result"] = TestResultName(t.result);
      if (t.passes_without_recording) tj["passes_without_recording"] = true;
      doc["tests"].push_back(std::move(tj));
    }
    doc["packages"] = ojson::array();
    for (const PackageVerdict& p : verdict->packages) {
      ojson pj;
      pj["package"] = p.package;
      pj["ok"] = p.ok;
      pj["how"] = p.how;
      doc["packages"].push_back(std::move(pj));
    }
    if (verdict->build_failed) doc["build_failed"] = true;
    if (!verdict->go_failure.empty()) doc["go_failure"] = verdict->go_failure;
  }
  // A report with fewer predictions than the trace holds says so: a tool
  // must not mistake it for a complete one.
  if (!degraded.empty()) doc["degraded"] = degraded;
  if (fuzz != nullptr) {
    ojson fj;
    fj["seed"] = fuzz->seed;
    fj["test_failures"] = ojson::array();
    for (const FuzzTestFailure& tf : fuzz->test_failures) {
      fj["test_failures"].push_back({{"package", tf.package},
                                     {"test", tf.test},
                                     {"runs", tf.runs},
                                     {"of", tf.of},
                                     {"first_by", tf.first_by},
                                     {"output", tf.output}});
    }
    doc["fuzz"] = std::move(fj);
  }
  // Invalid UTF-8 (a panic message with arbitrary bytes) is replaced, not
  // thrown on.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

// A number of a location that must be a whole number from 0 up: a
// negative or fractional one is refused, not wrapped around to 4294967291.
uint32_t Unsigned(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_number_unsigned() || v.get<uint64_t>() > UINT32_MAX) {
    throw std::invalid_argument(fmt::format("{} {} is not a whole number from 0 to {}", key,
                                            v.dump(), UINT32_MAX));
  }
  return v.get<uint32_t>();
}

}  // namespace

bool IsReplayCommand(std::string_view c) {
  auto plain = [](char ch) {
    return !(std::isspace(static_cast<unsigned char>(ch)) || std::iscntrl(static_cast<unsigned char>(ch)) ||
             std::strchr(";&|<>`$'\"\\(){}*?[]#~!", ch) != nullptr);
  };
  size_t sp = c.find(" replay ");
  if (sp == std::string_view::npos) return false;
  std::string_view bin = c.substr(0, sp), path = c.substr(sp + 8);
  if (bin.empty() || !std::all_of(bin.begin(), bin.end(), plain)) return false;
  std::string_view base = bin.substr(bin.rfind('/') == std::string_view::npos ? 0 : bin.rfind('/') + 1);
  if (base != "gordian") return false;
  if (path.size() >= 2 && path.front() == '\'' ) {
    // 'quoted', with ' written as '\''
    std::string_view in = path.substr(1);
    while (!in.empty()) {
      size_t q = in.find('\'');
      if (q == std::string_view::npos) return false;
      for (char ch : in.substr(0, q)) {
        if (std::iscntrl(static_cast<unsigned char>(ch))) return false;
      }
      in.remove_prefix(q + 1);
      if (in.empty()) return true;
      if (!in.starts_with("\\''")) return false;
      in.remove_prefix(3);
    }
    return false;
  }
  return !path.empty() && std::all_of(path.begin(), path.end(), plain);
}

bool FromJson(const std::string& text, std::vector<Finding>* out, std::string* err) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    *err = "not a JSON object";
    return false;
  }
  if (doc.value("version", 0) != kJsonVersion || doc.value("tool", "") != "gordian") {
    *err = "not a gordian report of version 1";
    return false;
  }
  if (!doc.contains("findings") || !doc["findings"].is_array()) {
    *err = "no findings array";
    return false;
  }
  try {
    for (const auto& j : doc["findings"]) {
      Finding f;
      std::string kind = j.at("kind").get<std::string>();
      std::string status = j.at("status").get<std::string>();
      std::string severity = j.at("severity").get<std::string>();
      if (!ParseKind(kind, &f.kind) || !ParseStatus(status, &f.status) ||
          !ParseSeverity(severity, &f.severity)) {
        *err = fmt::format("finding with unknown kind/status/severity {:?}/{:?}/{:?}", kind, status,
                           severity);
        return false;
      }
      if (j.contains("primitive") &&
          !ParsePrimitive(j["primitive"].get<std::string>(), &f.primitive)) {
        *err = "unknown primitive";
        return false;
      }
      f.test = j.at("test").get<std::string>();
      f.message = j.at("message").get<std::string>();
      f.reproduce = j.value("reproduce", "");
      f.note = j.value("note", "");
      if (j.contains("also")) {
        for (const auto& a : j["also"]) {
          FindingKind k;
          std::string name = a.get<std::string>();
          if (!ParseKind(name, &k)) throw std::invalid_argument(fmt::format("also: unknown kind {:?}", name));
          f.also.push_back(name);
        }
      }
      f.found_under = j.value("found_under", "");
      if (j.contains("other_tests")) {
        for (const auto& t : j["other_tests"]) f.other_tests.push_back(t.get<std::string>());
      }
      if (j.contains("score")) {
        const auto& sj = j["score"];
        f.score = Finding::Score{Unsigned(sj, "failing"), Unsigned(sj, "checked"),
                                 sj.at("untracked_data").get<bool>()};
      }
      for (const auto& lj : j.at("locations")) {
        Location l;
        l.file = lj.at("file").get<std::string>();
        l.line = Unsigned(lj, "line");
        l.column = Unsigned(lj, "column");
        if (!ParseRole(lj.at("role").get<std::string>(), &l.role)) {
          *err = "unknown role";
          return false;
        }
        l.goroutine = lj.at("goroutine").get<std::string>();
        f.locations.push_back(std::move(l));
      }
      out->push_back(std::move(f));
    }
  } catch (const nlohmann::json::exception& e) {
    *err = fmt::format("malformed finding: {:?}", e.what());
    return false;
  } catch (const std::invalid_argument& e) {
    *err = fmt::format("malformed finding: {:?}", e.what());
    return false;
  }
  return true;
}

bool FromJsonReport(const std::string& text, JsonReport* out, std::string* err) {
  *out = JsonReport{};
  if (!FromJson(text, &out->findings, err)) return false;
  for (Finding& f : out->findings) {
    if (!f.reproduce.empty() && !IsReplayCommand(f.reproduce)) {
      out->warnings.push_back(fmt::format(
          "the reproduce command of a {} finding is not a gordian replay command; left out: {:?}",
          KindName(f.kind), f.reproduce));
      f.reproduce.clear();
    }
  }
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  try {
    if (doc.contains("tests") || doc.contains("packages")) {
      out->has_verdict = true;
      for (const auto& tj : doc.value("tests", nlohmann::json::array())) {
        TestVerdict t;
        t.package = tj.at("package").get<std::string>();
        t.name = tj.at("name").get<std::string>();
        t.passes_without_recording = tj.value("passes_without_recording", false);
        std::string result = tj.at("result").get<std::string>();
        if (!ParseTestResult(result, &t.result)) {
          *err = fmt::format("test {:?} with unknown result {:?}", t.name, result);
          return false;
        }
        out->verdict.tests.push_back(std::move(t));
      }
      for (const auto& pj : doc.value("packages", nlohmann::json::array())) {
        PackageVerdict p;
        p.package = pj.at("package").get<std::string>();
        p.ok = pj.at("ok").get<bool>();
        p.how = pj.value("how", "");
        out->verdict.packages.push_back(std::move(p));
      }
      out->verdict.build_failed = doc.value("build_failed", false);
      out->verdict.go_failure = doc.value("go_failure", "");
    }
    if (doc.contains("degraded")) {
      out->degraded = doc["degraded"].get<std::vector<std::string>>();
    }
    if (doc.contains("fuzz")) {
      out->has_fuzz = true;
      const auto& fj = doc["fuzz"];
      out->fuzz.seed = fj.value("seed", uint64_t{0});
      for (const auto& tj : fj.value("test_failures", nlohmann::json::array())) {
        FuzzTestFailure tf;
        tf.package = tj.at("package").get<std::string>();
        tf.test = tj.at("test").get<std::string>();
        tf.runs = tj.value("runs", uint64_t{0});
        tf.of = tj.value("of", uint64_t{0});
        tf.first_by = tj.value("first_by", "");
        tf.output = tj.value("output", "");
        out->fuzz.test_failures.push_back(std::move(tf));
      }
    }
  } catch (const nlohmann::json::exception& e) {
    *err = fmt::format("malformed tests, packages, degraded or fuzz: {:?}", e.what());
    return false;
  }
  return true;
}

bool WriteJsonFile(const std::string& path, const std::vector<Finding>& findings,
                   std::string* err, const Verdict* verdict,
                   const std::vector<std::string>& degraded, const FuzzReport* fuzz) {
  return WriteReportText(path, ToJson(findings, verdict, degraded, fuzz), err);
}

}  // namespace gordian::report
