// This file implements the SARIF report (sarif.h).
#include "gordian/report/sarif.h"

#include <fstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gordian/report/dedup.h"
#include "gordian/report/output_file.h"

namespace gordian::report {
namespace {

using ojson = nlohmann::ordered_json;

const char* Level(Severity s) {
  switch (s) {
    case Severity::Bug: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "note";
  }
  return "none";
}

// "send-on-closed" -> "SendOnClosed" (SARIF's rule name is a camel-case id).
std::string RuleName(FindingKind k) {
  std::string out;
  bool up = true;
  for (char c : KindName(k)) {
    if (c == '-') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

// Absolute paths become file:// URIs; relative ones are relative to SRCROOT.
// (A location whose file is unknown gets no physicalLocation at all: SARIF
// does not allow an empty URI.)
ojson ArtifactLocation(const std::string& file) {
  ojson a;
  if (!file.empty() && file[0] == '/') {
    a["uri"] = "file://" + file;
  } else {
    a["uri"] = file;
    a["uriBaseId"] = "SRCROOT";
  }
  return a;
}

ojson PhysicalLocation(const Location& l) {
  ojson p;
  p["artifactLocation"] = ArtifactLocation(l.file);
  if (l.line > 0) {
    ojson region;
    region["startLine"] = l.line;
    if (l.column > 0) region["startColumn"] = l.column;
    p["region"] = std::move(region);
  }
  return p;
}

std::string Describe(const Location& l) {
  // A data race's access may have no goroutine id (the race detector's
  // goroutine could not be matched to the trace's).
  if (l.goroutine.empty()) return fmt::format("{} by a goroutine", RoleName(l.role));
  return fmt::format("{} by goroutine {}", RoleName(l.role), l.goroutine);
}

}  // namespace

std::string ToSarif(const std::vector<Finding>& findings, const SarifOptions& opt) {
  ojson driver;
  driver["name"] = "gordian";
  driver["version"] = opt.tool_version;
  driver["semanticVersion"] = opt.tool_version;
  driver["rules"] = ojson::array();
  for (int i = 0; i < static_cast<int>(FindingKind::Count_); i++) {
    auto k = static_cast<FindingKind>(i);
    ojson rule;
    rule["id"] = KindName(k);
    rule["name"] = RuleName(k);
    rule["shortDescription"] = {{"text", KindTitle(k)}};
    rule["fullDescription"] = {{"text", KindDescription(k)}};
    rule["defaultConfiguration"] = {{"level", Level(DefaultSeverity(k))}};
    driver["rules"].push_back(std::move(rule));
  }

  ojson results = ojson::array();
  for (const Finding& f : findings) {
    ojson r;
    r["ruleId"] = KindName(f.kind);
    r["ruleIndex"] = static_cast<int>(f.kind);
    r["level"] = Level(f.severity);
    r["message"] = {{"text", f.message}};
    r["locations"] = ojson::array();
    if (!f.locations.empty()) {
      ojson loc;
      if (!f.locations[0].file.empty()) loc["physicalLocation"] = PhysicalLocation(f.locations[0]);
      loc["message"] = {{"text", Describe(f.locations[0])}};
      r["locations"].push_back(std::move(loc));
    }
    if (f.locations.size() > 1) {
      r["relatedLocations"] = ojson::array();
      for (size_t i = 1; i < f.locations.size(); i++) {
        ojson loc;
        loc["id"] = i;
        if (!f.locations[i].file.empty()) {
          loc["physicalLocation"] = PhysicalLocation(f.locations[i]);
        }
        loc["message"] = {{"text", Describe(f.locations[i])}};
        r["relatedLocations"].push_back(std::move(loc));
      }
    }
    if (!f.interleaving.empty()) {
      // One threadFlow per goroutine, in order of first appearance; the
      // global order of the steps is their executionOrder.
      std::vector<std::string> order;
      std::map<std::string, ojson> flows;
      int step = 0;
      for (const Step& s : f.interleaving) {
        const std::string& g = s.loc.goroutine;
        if (!flows.count(g)) {
          order.push_back(g);
          flows[g] = {{"id", fmt::format("goroutine {}", g)}, {"locations", ojson::array()}};
        }
        ojson tfl;
        ojson loc;
        if (!s.loc.file.empty()) loc["physicalLocation"] = PhysicalLocation(s.loc);
        loc["message"] = {{"text", s.what}};
        tfl["location"] = std::move(loc);
        tfl["executionOrder"] = ++step;
        flows[g]["locations"].push_back(std::move(tfl));
      }
      ojson tfs = ojson::array();
      for (const std::string& g : order) tfs.push_back(std::move(flows[g]));
      ojson flow;
      flow["message"] = {{"text", "the interleaving that leads to the bug"}};
      flow["threadFlows"] = std::move(tfs);
      r["codeFlows"] = ojson::array();
      r["codeFlows"].push_back(std::move(flow));
    }
    r["partialFingerprints"] = {{"gordianFinding/v1", DedupKey(f)}};
    ojson props;
    props["status"] = StatusName(f.status);
    if (!f.test.empty()) props["test"] = f.test;
    if (f.kind == FindingKind::GoroutineLeak) props["primitive"] = PrimitiveName(f.primitive);
    if (!f.reproduce.empty()) props["reproduce"] = f.reproduce;
    if (!f.note.empty()) props["note"] = f.note;
    r["properties"] = std::move(props);
    results.push_back(std::move(r));
  }

  ojson run;
  run["tool"] = {{"driver", std::move(driver)}};
  if (!opt.source_root.empty()) {
    std::string root = opt.source_root;
    if (root.back() != '/') root += '/';
    run["originalUriBaseIds"] = {{"SRCROOT", {{"uri", "file://" + root}}}};
  }
  run["results"] = std::move(results);
  if (!opt.degraded.empty()) {
    // SARIF's place for "the tool ran, but not fully": notifications of the
    // invocation, which code scanning services show beside the results.
    ojson notes = ojson::array();
    for (const std::string& d : opt.degraded) {
      ojson n;
      n["level"] = "warning";
      n["message"] = {{"text", d}};
      n["descriptor"] = {{"id", "gordian-degraded"}};
      notes.push_back(std::move(n));
    }
    ojson inv;
    inv["executionSuccessful"] = true;
    inv["toolExecutionNotifications"] = std::move(notes);
    run["invocations"] = ojson::array();
    run["invocations"].push_back(std::move(inv));
  }

  ojson doc;
  doc["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  doc["version"] = "2.1.0";
  doc["runs"] = ojson::array();
  doc["runs"].push_back(std::move(run));
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

bool WriteSarifFile(const std::string& path, const std::vector<Finding>& findings,
                    const SarifOptions& opt, std::string* err) {
  return WriteReportText(path, ToSarif(findings, opt), err);
}

}  // namespace gordian::report
