// Tests of merging reports (merge.h) as gordian merge reads them: every
// part of a report survives the JSON round trip, findings of several
// shards de-duplicate to what one run reports, and tests and packages keep
// their worst outcome.
#include "gordian/report/merge.h"

#include <gtest/gtest.h>

#include "gordian/report/dedup.h"
#include "gordian/report/report_test_util.h"

namespace gordian::report {
namespace {

JsonReport RoundTrip(const std::vector<Finding>& fs, const Verdict* v,
                     const std::vector<std::string>& degraded = {},
                     const FuzzReport* fuzz = nullptr) {
  JsonReport r;
  std::string err;
  EXPECT_TRUE(FromJsonReport(ToJson(fs, v, degraded, fuzz), &r, &err)) << err;
  return r;
}

TEST(Merge, ReadsEveryPartOfAReport) {
  Verdict v;
  v.packages.push_back({"example.com/a", false, "exited with status 1"});
  v.tests.push_back({"example.com/a", "TestX", TestResult::Unfinished});
  v.build_failed = true;
  v.go_failure = "vet failed";
  FuzzReport fz;
  fz.seed = 42;
  fz.test_failures.push_back({"example.com/a", "TestX", 3, 10, "flip", "x_test.go:3: bad"});
  JsonReport r = RoundTrip({testing::SendOnClosed()}, &v, {"dropped y"}, &fz);
  ASSERT_EQ(r.findings.size(), 1u);
  ASSERT_TRUE(r.has_verdict);
  ASSERT_EQ(r.verdict.tests.size(), 1u);
  EXPECT_EQ(r.verdict.tests[0].result, TestResult::Unfinished);
  ASSERT_EQ(r.verdict.packages.size(), 1u);
  EXPECT_FALSE(r.verdict.packages[0].ok);
  EXPECT_EQ(r.verdict.packages[0].how, "exited with status 1");
  EXPECT_TRUE(r.verdict.build_failed);
  EXPECT_EQ(r.verdict.go_failure, "vet failed");
  EXPECT_EQ(r.degraded, std::vector<std::string>{"dropped y"});
  ASSERT_TRUE(r.has_fuzz);
  EXPECT_EQ(r.fuzz.seed, 42u);
  ASSERT_EQ(r.fuzz.test_failures.size(), 1u);
  EXPECT_EQ(r.fuzz.test_failures[0].runs, 3u);
  // A report of analyze has no verdict.
  EXPECT_FALSE(RoundTrip({}, nullptr).has_verdict);
}

TEST(Merge, RefusesAnUnknownTestResult) {
  JsonReport r;
  std::string err;
  EXPECT_FALSE(FromJsonReport(R"({"version":1,"tool":"gordian","findings":[],
      "tests":[{"package":"p","name":"TestA","result":"maybe"}],"packages":[]})", &r, &err));
  EXPECT_NE(err.find("maybe"), std::string::npos) << err;
}

TEST(Merge, ShardsDeduplicateToOneRun) {
  // The same bug seen in two shards (two tests reach it) and a leak in one.
  Finding a = testing::SendOnClosed();
  Finding b = testing::SendOnClosed();
  b.test = "TestOther";
  Finding leak = testing::Leak("pkg/w.go", 7, "2.0", Primitive::ChanSend);
  std::vector<Finding> one_run = {a, b, leak};
  Dedup(&one_run);

  Verdict v1, v2;
  v1.packages.push_back({"example.com/pkg", true, "exited with status 0"});
  v1.tests.push_back({"example.com/pkg", "TestPublish", TestResult::Pass});
  v2.packages.push_back({"example.com/pkg", false, "exited with status 1"});
  v2.tests.push_back({"example.com/pkg", "TestOther", TestResult::Fail});
  v2.tests.push_back({"example.com/pkg", "TestPublish", TestResult::Pass});
  JsonReport m = MergeReports({RoundTrip({a}, &v1), RoundTrip({b, leak}, &v2)});
  Dedup(&m.findings);
  ASSERT_EQ(m.findings.size(), one_run.size());
  for (size_t i = 0; i < one_run.size(); i++) {
    EXPECT_EQ(DedupKey(m.findings[i]), DedupKey(one_run[i]));
    EXPECT_EQ(m.findings[i].kind, one_run[i].kind);
  }
  ASSERT_TRUE(m.has_verdict);
  EXPECT_EQ(m.verdict.tests.size(), 2u);
  ASSERT_EQ(m.verdict.packages.size(), 1u);
  EXPECT_FALSE(m.verdict.packages[0].ok);
  EXPECT_EQ(m.verdict.packages[0].how, "exited with status 1");
  EXPECT_EQ(m.verdict.FailedTests(), 1u);
  EXPECT_TRUE(m.verdict.Failed());
}

TEST(Merge, WorstTestResultWins) {
  Verdict pass, fail;
  pass.tests.push_back({"p", "TestA", TestResult::Pass});
  fail.tests.push_back({"p", "TestA", TestResult::Fail});
  for (auto order : {std::vector<const Verdict*>{&pass, &fail}, {&fail, &pass}}) {
    JsonReport m = MergeReports({RoundTrip({}, order[0]), RoundTrip({}, order[1])});
    ASSERT_EQ(m.verdict.tests.size(), 1u);
    EXPECT_EQ(m.verdict.tests[0].result, TestResult::Fail);
  }
}

}  // namespace
}  // namespace gordian::report
