// Tests of the counts of the progress line (run_progress.h): go test's
// package lines counted across chunks, the analysis counts, the wording.
#include "gordian/pipeline/run_progress.h"

#include <gtest/gtest.h>

namespace gordian::pipeline {
namespace {

TEST(RunProgress, CountsGoTestPackageLinesSplitAcrossChunks) {
  RunProgress p;
  p.SetBuilt(3);
  EXPECT_EQ(p.Line(), "recording: 3 packages built, 0 tested");
  p.GoTestOutput("=== RUN   TestA\n--- FAIL: TestA (0.00s)\n    a_test.go:9: ok  \tnot this\nFA");
  p.GoTestOutput("IL\texample.com/m/a\t0.01s\nok  \texample.com/m/b\t0.02s\n?   \texample.com/m/c\t[no");
  p.GoTestOutput(" test files]\nok");  // the start of a line that is not finished
  EXPECT_EQ(p.Line(), "recording: 3 packages built, 3 tested");
  p.GoTestOutput("  \texample.com/m/d\t(cached)\nFAIL\n");  // go test's last line: not a package
  p.SetBuilt(1);
  EXPECT_EQ(p.Line(), "recording: 1 package built, 4 tested");
}

TEST(RunProgress, AnalysisCountsAndWhatIsUnderWay) {
  RunProgress p;
  p.StartAnalysis(3, /*packages=*/true);
  EXPECT_EQ(p.Line(), "analysed 0 of 3 packages, 0 tests, 0 findings");
  p.TraceStarted();
  p.TraceStarted();
  EXPECT_EQ(p.Line("analysing example.com/m/a"),
            "analysed 0 of 3 packages (2 running), 0 tests, 0 findings: analysing example.com/m/a");
  p.TraceDone(4, 1, 2, 1);
  p.TraceAbandoned();  // to be analysed again: neither running nor analysed
  EXPECT_EQ(p.Line(), "analysed 1 of 3 packages, 4 tests (1 failed), 2 findings, 1 confirmed");
  RunProgress r;
  r.StartAnalysis(1, /*packages=*/false);
  r.TraceStarted();
  r.TraceDone(1, 0, 1, 0);
  EXPECT_EQ(r.Line(), "analysed 1 of 1 trace, 1 test, 1 finding");
}

}  // namespace
}  // namespace gordian::pipeline
