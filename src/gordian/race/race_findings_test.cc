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

// A trace as far as the findings need it: goroutines (parent, child index,
// spawn path), the GoSpawn records with their sites, and TestStart records.
struct FakeG {
  uint32_t parent, index;
  std::string id;
  uint32_t test;        // strings id of its TestStart, 0 none
  uint32_t spawn_site;  // site id of the GoSpawn that made it (in its parent)
};
trace::Trace FakeTrace(const std::vector<FakeG>& gs, std::vector<trace::Site> sites,
                       std::vector<std::string> tests, std::string roots) {
  trace::Trace t;
  t.meta["roots"] = std::move(roots);
  t.strings = std::move(tests);
  t.sites = std::move(sites);
  for (size_t i = 0; i < gs.size(); i++) {
    trace::Goroutine g;
    g.gid = static_cast<uint32_t>(i + 1);
    g.parent = gs[i].parent;
    g.child_index = gs[i].index;
    g.stable_id = gs[i].id;
    g.begin = static_cast<uint32_t>(t.records.size());
    if (gs[i].test != 0) {
      trace::Record r{};
      r.kind = trace::Kind::TestStart;
      r.val = gs[i].test;
      t.records.push_back(r);
    }
    for (size_t c = 0; c < gs.size(); c++) {
      if (gs[c].parent != g.gid) continue;
      trace::Record r{};
      r.kind = trace::Kind::GoSpawn;
      r.obj = static_cast<uint32_t>(c + 1);
      r.site = gs[c].spawn_site;
      t.records.push_back(r);
    }
    g.end = static_cast<uint32_t>(t.records.size());
    t.goroutines.push_back(g);
  }
  return t;
}

trace::Site S(std::string file, uint32_t line, bool user) {
  trace::Site s;
  s.file = std::move(file);
  s.line = line;
  s.user = user;
  return s;
}

// The test binary that wrote two_races_in_tests.txt: 1.0 ran TestRace and
// spawned 1.0.0 at x_test.go:17; 1.1 ran TestOther and spawned 1.1.0 at
// x_test.go:28 (the detector calls them 8, 9, 10, 11).
trace::Trace FakeTrace() {
  return FakeTrace({{0, 0, "1", 0, 0},
                    {1, 0, "1.0", 1, 3},
                    {2, 0, "1.0.0", 0, 1},
                    {1, 1, "1.1", 2, 3},
                    {4, 0, "1.1.0", 0, 2}},
                   {trace::Site{}, S("/tmp/racex/x_test.go", 17, true),
                    S("/tmp/racex/x_test.go", 28, true),
                    S("/usr/local/go/src/testing/testing.go", 2101, false)},
                   {"", "TestRace", "TestOther"}, "/tmp/racex");
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

// Without a trace (none was recorded), the goroutines are named by the
// race detector's numbers and the test comes from the stacks.
TEST(RaceFindings, WithoutATraceTheStacksSayTheTest) {
  trace::Trace t;
  std::vector<report::Finding> fs =
      RaceFindings(ParseRaceLog(Testdata("two_races_in_tests.txt")), t);
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(fs[0].test, "TestRace");
  EXPECT_EQ(fs[1].test, "TestOther");
  EXPECT_EQ(fs[0].locations[0].goroutine, "");
  EXPECT_NE(fs[0].message.find("race-detector goroutine 9 writes"), std::string::npos) << fs[0].message;
  EXPECT_EQ(fs[0].locations[0].line, 11u);  // no roots: runtime and testing frames skipped
}

// Two workers of one go statement race with each other: both match the
// same spawn site, and the detector's numbers (creation order) say which
// is which. Goroutine 11 ran first and wrote; 10, created first (1.0.0),
// read after it.
TEST(RaceFindings, SiblingsOfOneGoStatement) {
  std::string dir = "/work/wt/race/tests/corpus/races/bugs/stats_hits_field";
  const std::vector<trace::Site> sites = {trace::Site{}, S(dir + "/stats_test.go", 28, true),
                                          S("/usr/local/go/src/testing/testing.go", 2102, false)};
  const std::vector<std::string> tests = {"", "TestHandlersCountHits"};
  const std::string roots = "/work/wt/race/tests/corpus";
  trace::Trace t = FakeTrace({{0, 0, "1", 0, 0},
                              {1, 0, "1.0", 1, 2},
                              {2, 0, "1.0.0", 0, 1},
                              {2, 1, "1.0.1", 0, 1}},
                             sites, tests, roots);
  std::vector<report::Finding> fs = RaceFindings(ParseRaceLog(Testdata("siblings_in_a_loop.txt")), t);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].test, "TestHandlersCountHits");
  ASSERT_EQ(fs[0].locations.size(), 2u);
  EXPECT_EQ(fs[0].locations[0].role, Role::Write);
  EXPECT_EQ(fs[0].locations[0].line, 20u);
  EXPECT_EQ(fs[0].locations[0].goroutine, "1.0.1");
  EXPECT_EQ(fs[0].locations[1].role, Role::Read);
  EXPECT_EQ(fs[0].locations[1].goroutine, "1.0.0");
  EXPECT_EQ(fs[0].goroutines[0].spawn_line, 28u);

  // A third worker at the same site: no longer two candidates, no guess.
  t = FakeTrace({{0, 0, "1", 0, 0},
                 {1, 0, "1.0", 1, 2},
                 {2, 0, "1.0.0", 0, 1},
                 {2, 1, "1.0.1", 0, 1},
                 {2, 2, "1.0.2", 0, 1}},
                sites, tests, roots);
  fs = RaceFindings(ParseRaceLog(Testdata("siblings_in_a_loop.txt")), t);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].locations[0].goroutine, "");
  EXPECT_EQ(fs[0].locations[1].goroutine, "");
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
  // Both accesses are steps of the timeline, the one outside the program's
  // code at its library frame, each on its own goroutine.
  ASSERT_EQ(fs[0].interleaving.size(), 2u);
  const report::Step* outside = nullptr;
  for (const report::Step& st : fs[0].interleaving) {
    if (st.loc.line != 18u) outside = &st;
  }
  ASSERT_NE(outside, nullptr);
  EXPECT_NE(outside->what.find("sync/atomic.StoreInt64"), std::string::npos) << outside->what;
  EXPECT_NE(outside->loc.file.find("race_amd64.s"), std::string::npos) << outside->loc.file;
  EXPECT_NE(fs[0].interleaving[0].loc.goroutine, fs[0].interleaving[1].loc.goroutine);
  t.meta["roots"] = "/elsewhere";
  EXPECT_TRUE(RaceFindings(reps, t).empty());
}

}  // namespace
}  // namespace gordian::race
