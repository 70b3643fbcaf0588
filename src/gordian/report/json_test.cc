// Tests of the JSON report: the exact shape of the version 1 contract.
#include "gordian/report/json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gordian/report/report_test_util.h"
#include "gordian/util/version.h"

namespace gordian::report {
namespace {

std::vector<std::string> Keys(const nlohmann::ordered_json& j) {
  std::vector<std::string> k;
  for (auto it = j.begin(); it != j.end(); ++it) k.push_back(it.key());
  return k;
}

TEST(Json, DegradedFieldOnlyWhenSomethingWasDropped) {
  std::vector<Finding> fs = {testing::SendOnClosed()};
  auto plain = nlohmann::ordered_json::parse(ToJson(fs));
  EXPECT_FALSE(plain.contains("degraded"));
  Verdict v;
  v.packages.push_back({"example.com/m", true, "exited with status 0"});
  auto doc = nlohmann::ordered_json::parse(ToJson(fs, &v, {"example.com/m: dropped x"}));
  EXPECT_EQ(Keys(doc), (std::vector<std::string>{"version", "tool", "tool_version", "findings",
                                                 "tests", "packages", "degraded"}));
  ASSERT_EQ(doc["degraded"].size(), 1u);
  EXPECT_EQ(doc["degraded"][0], "example.com/m: dropped x");
  // The reader of reports accepts it.
  std::vector<Finding> back;
  std::string err;
  EXPECT_TRUE(FromJson(doc.dump(), &back, &err)) << err;
  EXPECT_EQ(back.size(), 1u);
}

TEST(Json, ExactShape) {
  std::vector<Finding> fs = {testing::SendOnClosed(),
                             testing::Leak("a.go", 10, "1.0", Primitive::ChanRecv)};
  fs[1].locations[0].role = Role::Recv;
  auto doc = nlohmann::ordered_json::parse(ToJson(fs));
  EXPECT_EQ(Keys(doc), (std::vector<std::string>{"version", "tool", "tool_version", "findings"}));
  EXPECT_EQ(doc["version"], 1);
  EXPECT_EQ(doc["tool"], "gordian");
  EXPECT_EQ(doc["tool_version"], std::string(util::Version()));
  ASSERT_EQ(doc["findings"].size(), 2u);

  const auto& f = doc["findings"][0];
  EXPECT_EQ(Keys(f), (std::vector<std::string>{"kind", "status", "severity", "test", "message",
                                               "locations", "reproduce"}));
  EXPECT_EQ(f["kind"], "send-on-closed");
  EXPECT_EQ(f["status"], "occurred");
  EXPECT_EQ(f["severity"], "bug");
  EXPECT_EQ(f["test"], "TestPublish");
  EXPECT_EQ(f["reproduce"], "");
  ASSERT_EQ(f["locations"].size(), 2u);
  const auto& l = f["locations"][0];
  EXPECT_EQ(Keys(l), (std::vector<std::string>{"file", "line", "column", "role", "goroutine"}));
  EXPECT_EQ(l["file"], "pkg/hub.go");
  EXPECT_EQ(l["line"], 12);
  EXPECT_EQ(l["column"], 3);
  EXPECT_EQ(l["role"], "send");
  EXPECT_EQ(l["goroutine"], "1.0");
  EXPECT_EQ(f["locations"][1]["role"], "close");

  // "primitive" only for goroutine-leak.
  const auto& leak = doc["findings"][1];
  EXPECT_EQ(Keys(leak), (std::vector<std::string>{"kind", "status", "severity", "primitive",
                                                  "test", "message", "locations",
                                                  "reproduce"}));
  EXPECT_EQ(leak["primitive"], "chan-recv");
}

TEST(Json, EmptyReport) {
  nlohmann::json want = nlohmann::json::parse(R"({"version":1,"tool":"gordian","findings":[]})");
  want["tool_version"] = util::Version();
  EXPECT_EQ(nlohmann::json::parse(ToJson({})), want);
}

TEST(Json, RoundTrip) {
  std::vector<Finding> fs = {testing::SendOnClosed(),
                             testing::Leak("a.go", 10, "1.0", Primitive::WaitGroup)};
  fs[0].reproduce = "gordian replay ./trace";
  fs[1].score = Finding::Score{3, 6, true};  // a finding of gordian verify
  fs[1].other_tests = {"TestB", "TestC"};
  std::vector<Finding> back;
  std::string err;
  ASSERT_TRUE(FromJson(ToJson(fs), &back, &err)) << err;
  ASSERT_EQ(back.size(), 2u);
  EXPECT_FALSE(back[0].score.has_value());
  ASSERT_TRUE(back[1].score.has_value());
  EXPECT_EQ(back[1].score->failing, 3u);
  EXPECT_EQ(back[1].score->checked, 6u);
  EXPECT_TRUE(back[1].score->untracked_data);
  EXPECT_EQ(nlohmann::json::parse(ToJson(fs))["findings"][1]["score"]["share"], 0.5);
  EXPECT_EQ(back[0].kind, FindingKind::SendOnClosed);
  EXPECT_EQ(back[0].reproduce, "gordian replay ./trace");
  EXPECT_EQ(back[0].locations[1].role, Role::Close);
  EXPECT_EQ(back[1].primitive, Primitive::WaitGroup);
  EXPECT_EQ(back[1].other_tests, (std::vector<std::string>{"TestB", "TestC"}));
  EXPECT_TRUE(back[0].other_tests.empty());
  EXPECT_EQ(ToJson(back), ToJson(fs));
}

TEST(Json, RejectsOtherVersions) {
  std::vector<Finding> out;
  std::string err;
  EXPECT_FALSE(FromJson(R"({"version":2,"tool":"gordian","findings":[]})", &out, &err));
  EXPECT_FALSE(FromJson("not json", &out, &err));
}

TEST(Json, InvalidUtf8InMessagesIsReplaced) {
  Finding f = testing::SendOnClosed();
  f.message = "panic: \xff\xfe";
  EXPECT_NO_THROW(nlohmann::json::parse(ToJson({f})));
}

// A data race keeps the contract's shape; its roles "write" and "read"
// (beyond the contract's list, like "panic") read back.
TEST(Json, DataRaceRoundTrip) {
  Finding f;
  f.kind = FindingKind::DataRace;
  f.status = Status::Occurred;
  f.severity = DefaultSeverity(f.kind);
  f.test = "TestHits";
  f.message = "goroutine 1.0.1 writes at stats.go:20 and goroutine 1.0.0 reads the same memory";
  f.locations.push_back(testing::Loc("pkg/stats.go", 20, Role::Write, "1.0.1"));
  f.locations.push_back(testing::Loc("pkg/stats.go", 20, Role::Read, "1.0.0"));
  std::string text = ToJson({f});
  auto doc = nlohmann::ordered_json::parse(text);
  EXPECT_EQ(doc["findings"][0]["kind"], "data-race");
  EXPECT_EQ(doc["findings"][0]["severity"], "bug");
  EXPECT_EQ(doc["findings"][0]["locations"][0]["role"], "write");
  EXPECT_EQ(doc["findings"][0]["locations"][1]["role"], "read");
  std::vector<Finding> back;
  std::string err;
  ASSERT_TRUE(FromJson(text, &back, &err)) << err;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].kind, FindingKind::DataRace);
  EXPECT_EQ(back[0].locations[0].role, Role::Write);
  EXPECT_EQ(back[0].locations[1].role, Role::Read);
}

// A report is data: numbers that are not line numbers are refused (not
// wrapped to 4294967291), an error quotes what it read with its control
// characters escaped, and a `reproduce` that is not a gordian replay
// command is left out with a warning instead of being printed for a user to
// run.
TEST(Json, HostileReportsAreRefusedOrCleaned) {
  std::string base = ToJson({testing::SendOnClosed()});
  std::string negative = base;
  size_t at = negative.find("\"line\": ");
  ASSERT_NE(at, std::string::npos);
  negative.replace(at, negative.find(',', at) - at, "\"line\": -5");
  std::vector<Finding> out;
  std::string err;
  EXPECT_FALSE(FromJson(negative, &out, &err));
  EXPECT_NE(err.find("line -5 is not a whole number"), std::string::npos) << err;

  std::string esc = base;
  esc.replace(esc.find("\"send-on-closed\""), 16, "\"\\u001b[2Jx\"");
  EXPECT_FALSE(FromJson(esc, &out, &err));
  EXPECT_EQ(err.find('\x1b'), std::string::npos) << "raw ESC in the error";
  EXPECT_NE(err.find("\\x1b"), std::string::npos) << err;

  Finding f = testing::SendOnClosed();
  f.reproduce = "rm -rf ~; gordian replay x.sched";
  JsonReport r;
  ASSERT_TRUE(FromJsonReport(ToJson({f}), &r, &err)) << err;
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_TRUE(r.findings[0].reproduce.empty());
  ASSERT_EQ(r.warnings.size(), 1u);
  f.reproduce = "/opt/gordian/bin/gordian replay '/home/a b/x.sched'";
  ASSERT_TRUE(FromJsonReport(ToJson({f}), &r, &err)) << err;
  EXPECT_EQ(r.findings[0].reproduce, f.reproduce);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(Json, ReplayCommands) {
  for (const char* cmd : {"gordian replay /c/schedules/run-1/x-0-leak.sched",
                          "/usr/bin/gordian replay 'a b/it'\\''s.sched'"}) {
    EXPECT_TRUE(IsReplayCommand(cmd)) << cmd;
  }
  for (const char* cmd : {"gordian replay x.sched; rm -rf ~", "sh -c x replay y",
                          "gordian replay $(touch x)", "gordian replay 'a'b", "gordian replay",
                          "gordian replay x\ny"}) {
    EXPECT_FALSE(IsReplayCommand(cmd)) << cmd;
  }
}

}  // namespace
}  // namespace gordian::report
