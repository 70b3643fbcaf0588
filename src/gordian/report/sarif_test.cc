// Tests of the SARIF report: the structure SARIF 2.1.0 requires, checked by
// hand (no schema download): a validator written from the specification's
// required properties, applied to gordian's output, and shown to catch
// violations.
#include "gordian/report/sarif.h"

#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "gordian/report/report_test_util.h"
#include "gordian/util/version.h"

namespace gordian::report {
namespace {

using json = nlohmann::json;

// Checks the properties SARIF 2.1.0 (OASIS standard, sections 3.13-3.38)
// requires of what gordian writes; returns one line per violation.
std::vector<std::string> ValidateSarif(const json& doc) {
  std::vector<std::string> errs;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) errs.push_back(what);
    return ok;
  };
  auto is_message = [](const json& m) {
    return m.is_object() && ((m.contains("text") && m["text"].is_string()) ||
                             (m.contains("id") && m["id"].is_string()));
  };
  static const std::set<std::string> kLevels = {"none", "note", "warning", "error"};
  auto check_physical = [&](const json& p, const std::string& at, const json& base_ids) {
    if (!need(p.is_object(), at + ": physicalLocation is not an object")) return;
    if (!need(p.contains("artifactLocation") && p["artifactLocation"].is_object(),
              at + ": no artifactLocation")) {
      return;
    }
    const json& a = p["artifactLocation"];
    if (need(a.contains("uri") && a["uri"].is_string(), at + ": artifactLocation.uri")) {
      std::string uri = a["uri"];
      need(!uri.empty() && uri.find('\\') == std::string::npos &&
               uri.find(' ') == std::string::npos,
           at + ": uri is not a URI reference: " + uri);
    }
    if (a.contains("uriBaseId")) {
      need(a["uriBaseId"].is_string(), at + ": uriBaseId");
      if (!base_ids.is_null()) {
        need(base_ids.contains(a["uriBaseId"].get<std::string>()),
             at + ": uriBaseId not in originalUriBaseIds");
      }
    }
    if (p.contains("region")) {
      const json& r = p["region"];
      need(r.contains("startLine") && r["startLine"].is_number_integer() &&
               r["startLine"].get<int>() >= 1,
           at + ": region.startLine >= 1");
      if (r.contains("startColumn")) {
        need(r["startColumn"].is_number_integer() && r["startColumn"].get<int>() >= 1,
             at + ": region.startColumn >= 1");
      }
    }
  };

  need(doc.is_object(), "log is not an object");
  need(doc.value("version", "") == "2.1.0", "version is not 2.1.0");
  if (!need(doc.contains("runs") && doc["runs"].is_array(), "runs is not an array")) return errs;
  for (const json& run : doc["runs"]) {
    if (!need(run.contains("tool") && run["tool"].contains("driver"), "run.tool.driver")) continue;
    const json& driver = run["tool"]["driver"];
    need(driver.contains("name") && driver["name"].is_string(), "driver.name");
    std::vector<std::string> rule_ids;
    if (driver.contains("rules")) {
      std::set<std::string> seen;
      for (const json& rule : driver["rules"]) {
        if (!need(rule.contains("id") && rule["id"].is_string(), "rule.id")) continue;
        rule_ids.push_back(rule["id"]);
        need(seen.insert(rule["id"]).second, "duplicate rule id");
        if (rule.contains("shortDescription")) need(is_message(rule["shortDescription"]), "rule.shortDescription");
        if (rule.contains("fullDescription")) need(is_message(rule["fullDescription"]), "rule.fullDescription");
        if (rule.contains("defaultConfiguration")) {
          need(kLevels.count(rule["defaultConfiguration"].value("level", "?")) == 1,
               "rule.defaultConfiguration.level");
        }
      }
    }
    // 3.20: an invocation must say executionSuccessful; 3.58: each
    // notification has a message, and a level among the four.
    if (run.contains("invocations")) {
      need(run["invocations"].is_array(), "run.invocations is not an array");
      for (const json& inv : run["invocations"]) {
        need(inv.contains("executionSuccessful") && inv["executionSuccessful"].is_boolean(),
             "invocation.executionSuccessful");
        for (const json& n : inv.value("toolExecutionNotifications", json::array())) {
          need(n.contains("message") && is_message(n["message"]), "notification.message");
          need(!n.contains("level") || kLevels.count(n["level"].get<std::string>()) == 1,
               "notification.level");
        }
      }
    }
    json base_ids = run.contains("originalUriBaseIds") ? run["originalUriBaseIds"] : json();
    if (!base_ids.is_null()) {
      for (auto& [k, v] : base_ids.items()) {
        std::string uri = v.value("uri", "");
        need(!uri.empty() && uri.back() == '/', "originalUriBaseIds." + k + " must end in /");
      }
    }
    if (!need(run.contains("results") && run["results"].is_array(), "run.results")) continue;
    for (const json& r : run["results"]) {
      need(r.contains("message") && is_message(r["message"]), "result.message");
      if (need(r.contains("ruleId") && r["ruleId"].is_string(), "result.ruleId") &&
          r.contains("ruleIndex")) {
        int i = r["ruleIndex"];
        need(i >= 0 && static_cast<size_t>(i) < rule_ids.size() && rule_ids[i] == r["ruleId"],
             "result.ruleIndex does not name result.ruleId");
      }
      if (r.contains("level")) need(kLevels.count(r["level"].get<std::string>()) == 1, "result.level");
      if (r.contains("locations")) {
        for (const json& l : r["locations"]) {
          if (l.contains("physicalLocation")) check_physical(l["physicalLocation"], "location", base_ids);
        }
      }
      if (r.contains("relatedLocations")) {
        std::set<int> ids;
        for (const json& l : r["relatedLocations"]) {
          if (l.contains("id")) need(ids.insert(l["id"].get<int>()).second, "related id unique");
          if (l.contains("physicalLocation")) {
            check_physical(l["physicalLocation"], "relatedLocation", base_ids);
          }
        }
      }
      if (r.contains("codeFlows")) {
        for (const json& cf : r["codeFlows"]) {
          if (!need(cf.contains("threadFlows") && cf["threadFlows"].is_array() &&
                        !cf["threadFlows"].empty(),
                    "codeFlow.threadFlows (non-empty array)")) {
            continue;
          }
          for (const json& tf : cf["threadFlows"]) {
            if (!need(tf.contains("locations") && tf["locations"].is_array() &&
                          !tf["locations"].empty(),
                      "threadFlow.locations (non-empty array)")) {
              continue;
            }
            for (const json& tfl : tf["locations"]) {
              if (tfl.contains("executionOrder")) {
                need(tfl["executionOrder"].is_number_integer() &&
                         tfl["executionOrder"].get<int>() >= -1,
                     "executionOrder >= -1");
              }
              if (tfl.contains("location") && tfl["location"].contains("physicalLocation")) {
                check_physical(tfl["location"]["physicalLocation"], "threadFlowLocation", base_ids);
              }
            }
          }
        }
      }
      if (r.contains("partialFingerprints")) {
        for (auto& [k, v] : r["partialFingerprints"].items()) need(v.is_string(), "fingerprint " + k);
      }
    }
  }
  return errs;
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

TEST(Sarif, OutputSatisfiesTheRequiredStructure) {
  std::vector<Finding> fs = {testing::SendOnClosed(),
                             testing::Leak("a.go", 10, "1.0", Primitive::ChanSend)};
  fs[1].locations[0].column = 0;  // unknown column: no startColumn
  Finding warn = testing::SendOnClosed();
  warn.kind = FindingKind::RecvOnClosed;
  warn.severity = Severity::Warning;
  warn.locations[0].file = "/usr/lib/go/src/x.go";  // outside the module
  fs.push_back(warn);
  SarifOptions opt;
  opt.source_root = "/home/u/mod";
  json doc = json::parse(ToSarif(fs, opt));
  EXPECT_EQ(Join(ValidateSarif(doc)), "");

  const json& run = doc["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "gordian");
  // The binary's version, from CMake's project() (util/version.h).
  EXPECT_EQ(run["tool"]["driver"]["version"], std::string(util::Version()));
  EXPECT_EQ(run["tool"]["driver"]["semanticVersion"], std::string(util::Version()));
  EXPECT_EQ(run["tool"]["driver"]["rules"].size(), static_cast<size_t>(FindingKind::Count_));
  EXPECT_EQ(run["originalUriBaseIds"]["SRCROOT"]["uri"], "file:///home/u/mod/");
  ASSERT_EQ(run["results"].size(), 3u);
  const json& r0 = run["results"][0];
  EXPECT_EQ(r0["ruleId"], "send-on-closed");
  EXPECT_EQ(r0["level"], "error");
  const json& pl = r0["locations"][0]["physicalLocation"];
  EXPECT_EQ(pl["artifactLocation"]["uri"], "pkg/hub.go");
  EXPECT_EQ(pl["artifactLocation"]["uriBaseId"], "SRCROOT");
  EXPECT_EQ(pl["region"]["startLine"], 12);
  EXPECT_EQ(pl["region"]["startColumn"], 3);
  ASSERT_EQ(r0["relatedLocations"].size(), 1u);
  EXPECT_EQ(r0["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 20);
  // One thread flow per goroutine, global order in executionOrder.
  const json& tfs = r0["codeFlows"][0]["threadFlows"];
  ASSERT_EQ(tfs.size(), 2u);
  EXPECT_EQ(tfs[0]["id"], "goroutine 1");
  EXPECT_EQ(tfs[0]["locations"][0]["executionOrder"], 1);
  EXPECT_EQ(tfs[1]["locations"][0]["executionOrder"], 2);
  EXPECT_EQ(r0["properties"]["status"], "occurred");

  EXPECT_FALSE(run["results"][1]["locations"][0]["physicalLocation"]["region"].contains("startColumn"));
  EXPECT_EQ(run["results"][2]["level"], "warning");
  EXPECT_EQ(run["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file:///usr/lib/go/src/x.go");
}

// A data race: roles write/read, and an access whose goroutine is not known
// (the race detector's goroutine matched no goroutine of the trace).
TEST(Sarif, DataRaceWithAnUnknownGoroutine) {
  Finding f;
  f.kind = FindingKind::DataRace;
  f.severity = DefaultSeverity(f.kind);
  f.message = "goroutine 1.0 writes at b.go:5 and race-detector goroutine 9 reads it";
  f.locations.push_back(testing::Loc("pkg/b.go", 5, Role::Write, "1.0"));
  f.locations.push_back(testing::Loc("pkg/b.go", 8, Role::Read, ""));
  f.interleaving.push_back({testing::Loc("pkg/b.go", 8, Role::Read, "race:9"), "read"});
  f.interleaving.push_back({testing::Loc("pkg/b.go", 5, Role::Write, "1.0"), "write"});
  SarifOptions opt;
  opt.source_root = "/home/u/mod";
  json doc = json::parse(ToSarif({f}, opt));
  EXPECT_EQ(Join(ValidateSarif(doc)), "");
  const json& r = doc["runs"][0]["results"][0];
  EXPECT_EQ(r["ruleId"], "data-race");
  EXPECT_EQ(r["level"], "error");
  EXPECT_EQ(r["relatedLocations"][0]["message"]["text"], "read by a goroutine");
  EXPECT_EQ(r["codeFlows"][0]["threadFlows"].size(), 2u);
}

TEST(Sarif, UnknownPositionsHaveNoPhysicalLocation) {
  Finding f = testing::SendOnClosed();
  f.kind = FindingKind::Panic;
  f.locations.resize(1);
  f.locations[0].file = "";
  f.locations[0].line = 0;
  f.interleaving.resize(1);
  f.interleaving[0].loc = f.locations[0];
  json doc = json::parse(ToSarif({f}));
  EXPECT_EQ(Join(ValidateSarif(doc)), "");
  EXPECT_FALSE(doc["runs"][0]["results"][0]["locations"][0].contains("physicalLocation"));
}

TEST(Sarif, EmptyReportIsValid) {
  json doc = json::parse(ToSarif({}));
  EXPECT_EQ(Join(ValidateSarif(doc)), "");
  EXPECT_TRUE(doc["runs"][0]["results"].empty());
}

TEST(Sarif, DegradedAnalysisIsANotification) {
  SarifOptions so;
  so.degraded = {"pkg: the memory budget (1.0 MB) held the clocks of 10 of 20 records; "
                 "predictions about the other 10 were dropped"};
  json doc = json::parse(ToSarif({testing::SendOnClosed()}, so));
  EXPECT_EQ(Join(ValidateSarif(doc)), "");
  const json& inv = doc["runs"][0]["invocations"][0];
  EXPECT_EQ(inv["executionSuccessful"], true);
  ASSERT_EQ(inv["toolExecutionNotifications"].size(), 1u);
  EXPECT_EQ(inv["toolExecutionNotifications"][0]["level"], "warning");
  EXPECT_EQ(inv["toolExecutionNotifications"][0]["message"]["text"], so.degraded[0]);
  // A complete analysis has no invocation notes.
  EXPECT_FALSE(json::parse(ToSarif({testing::SendOnClosed()}))["runs"][0].contains("invocations"));
}

TEST(Sarif, ValidatorCatchesViolations) {
  json doc = json::parse(ToSarif({testing::SendOnClosed()}, {"0.1.0", "/m", {}}));
  json bad = doc;
  bad["version"] = "2.0.0";
  EXPECT_FALSE(ValidateSarif(bad).empty());
  bad = doc;
  bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0;
  EXPECT_FALSE(ValidateSarif(bad).empty());
  bad = doc;
  bad["runs"][0]["results"][0]["ruleIndex"] = 3;
  EXPECT_FALSE(ValidateSarif(bad).empty());
  bad = doc;
  bad["runs"][0]["results"][0].erase("message");
  EXPECT_FALSE(ValidateSarif(bad).empty());
  bad = doc;
  bad["runs"][0]["results"][0]["codeFlows"][0]["threadFlows"] = json::array();
  EXPECT_FALSE(ValidateSarif(bad).empty());
  bad = doc;
  bad["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"] = "file:///m";
  EXPECT_FALSE(ValidateSarif(bad).empty());
}

}  // namespace
}  // namespace gordian::report
