// Tests of RaceFindings (race_findings.h): the race detector's reports of
// testdata/two_races_in_tests.txt with a trace that knows the goroutines.
#include "gordian/race/race_findings.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "gordian/report/dedup.h"

namespace gordian::race {
namespace {

using report::Role;

std::string Testdata(const std::string& name) {
  const char* src = std::getenv("GORDIAN_SOURCE_DIR");
  std::ifstream in(std::string(src ? src : ".") + "/src/gordian/race/testdata/" + name,
                   std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The trace of the test binary that wrote two_races_in_tests.txt, as far as
// the findings need it: goroutine 1.0 ran TestRace (Go goroutine 8) and
// spawned 1.0.0 (goroutine 9); 1.1 ran TestOther (10) and spawned 1.1.0 (11).
trace::Trace FakeTrace() {
  trace::Trace t;
  t.meta["roots"] = "/tmp/racex";
  t.strings = {"", "TestRace", "TestOther"};
  struct G {
    uint32_t parent, index;
    uint64_t goid;
    std::string id;
    uint32_t test;  // strings id of its TestStart, 0 none
  };
  std::vector<G> gs = {{0, 0, 1, "1", 0},    {1, 0, 8, "1.0", 1},  {2, 0, 9, "1.0.0", 0},
                       {1, 1, 10, "1.1", 2}, {4, 0, 11, "1.1.0", 0}};
  for (size_t i = 0; i < gs.size(); i++) {
    trace::Goroutine g;
    g.gid = static_cast<uint32_t>(i + 1);
    g.parent = gs[i].parent;
    g.child_index = gs[i].index;
    g.goid = gs[i].goid;
    g.stable_id = gs[i].id;
    g.begin = static_cast<uint32_t>(t.records.size());
    if (gs[i].test != 0) {
      trace::Record r{};
      r.kind = trace::Kind::TestStart;
      r.val = gs[i].test;
      t.records.push_back(r);
    }
    g.end = static_cast<uint32_t>(t.records.size());
    t.goroutines.push_back(g);
  }
  return t;
}

TEST(RaceFindings, BothAccessesGoroutinesAndTests) {
  std::vector<report::Finding> fs =
      RaceFindings(ParseRaceLog(Testdata("two_races_in_tests.txt")), FakeTrace());
  ASSERT_EQ(fs.size(), 2u);

  const report::Finding& a = fs[0];
  EXPECT_EQ(a.kind, report::FindingKind::DataRace);
  EXPECT_EQ(a.status, report::Status::Occurred);
  EXPECT_EQ(a.severity, report::Severity::Bug);
  EXPECT_EQ(a.test, "TestRace");
  ASSERT_EQ(a.locations.size(), 2u);
  // The write first, at the innermost frame of user code.
  EXPECT_EQ(a.locations[0].file, "/tmp/racex/x_test.go");
  EXPECT_EQ(a.locations[0].line, 11u);
  EXPECT_EQ(a.locations[0].role, Role::Write);
  EXPECT_EQ(a.locations[0].goroutine, "1.0.0");
  EXPECT_EQ(a.locations[0].function, "racex.(*stats).bump");
  EXPECT_EQ(a.locations[1].line, 21u);
  EXPECT_EQ(a.locations[1].role, Role::Read);
  EXPECT_EQ(a.locations[1].goroutine, "1.0");
  EXPECT_NE(a.message.find("goroutine 1.0.0 writes at x_test.go:11"), std::string::npos)
      << a.message;
  ASSERT_EQ(a.goroutines.size(), 2u);
  EXPECT_EQ(a.goroutines[0].id, "1.0.0");
  EXPECT_EQ(a.goroutines[0].spawn_line, 17u);  // "created at" in TestRace
  EXPECT_EQ(a.goroutines[1].id, "1.0");
  EXPECT_TRUE(a.goroutines[1].spawn_file.empty());  // created by the testing package
  ASSERT_EQ(a.interleaving.size(), 2u);
  EXPECT_EQ(a.interleaving[0].loc.line, 21u);  // the previous access first

  // A map written by two goroutines: runtime.mapassign is not the user's
  // line, the m["a"] = 1 that called it is.
  const report::Finding& b = fs[1];
  EXPECT_EQ(b.test, "TestOther");
  ASSERT_EQ(b.locations.size(), 2u);
  EXPECT_EQ(b.locations[0].line, 28u);  // write/write: the earlier line first
  EXPECT_EQ(b.locations[0].goroutine, "1.1.0");
  EXPECT_EQ(b.locations[1].line, 29u);
  EXPECT_EQ(b.locations[1].role, Role::Write);
}

// Without the trace's goids (a recorder that did not write them), the
// goroutines are named by Go's ids and the test comes from the stacks.
TEST(RaceFindings, WithoutGoidsTheStacksSayTheTest) {
  trace::Trace t;
  std::vector<report::Finding> fs =
      RaceFindings(ParseRaceLog(Testdata("two_races_in_tests.txt")), t);
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(fs[0].test, "TestRace");
  EXPECT_EQ(fs[1].test, "TestOther");
  EXPECT_EQ(fs[0].locations[0].goroutine, "");
  EXPECT_NE(fs[0].message.find("Go goroutine 9 writes"), std::string::npos) << fs[0].message;
  EXPECT_EQ(fs[0].locations[0].line, 11u);  // no roots: runtime and testing frames skipped
}

// The same pair of sites seen the other way round (the read found the
// race) gives the same locations, so Dedup keeps one finding.
TEST(RaceFindings, OnePairOneFinding) {
  std::vector<RaceReport> reps = ParseRaceLog(Testdata("two_races_in_tests.txt"));
  RaceReport swapped = reps[0];
  std::swap(swapped.current, swapped.previous);
  std::vector<report::Finding> fs = RaceFindings({reps[0], swapped}, FakeTrace());
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(report::DedupKey(fs[0]), report::DedupKey(fs[1]));
  report::Dedup(&fs);
  EXPECT_EQ(fs.size(), 1u);
}

// An access whose stack has no frame of the program (an atomic store seen
// only inside sync/atomic) leaves one location; a report without any is
// not a finding.
TEST(RaceFindings, AccessOutsideUserCode) {
  std::vector<RaceReport> reps = ParseRaceLog(Testdata("main_program_mixed_output.txt"));
  ASSERT_EQ(reps.size(), 2u);
  trace::Trace t;
  t.meta["roots"] = "/tmp/racem";
  std::vector<report::Finding> fs = RaceFindings(reps, t);
  ASSERT_EQ(fs.size(), 2u);
  ASSERT_EQ(fs[0].locations.size(), 1u);
  EXPECT_EQ(fs[0].locations[0].line, 18u);
  EXPECT_EQ(fs[0].locations[0].role, Role::Read);
  EXPECT_NE(fs[0].message.find("sync/atomic.StoreInt64"), std::string::npos) << fs[0].message;
  EXPECT_EQ(fs[0].goroutines[1].spawn_line, 13u);
  t.meta["roots"] = "/elsewhere";
  EXPECT_TRUE(RaceFindings(reps, t).empty());
}

}  // namespace
}  // namespace gordian::race
