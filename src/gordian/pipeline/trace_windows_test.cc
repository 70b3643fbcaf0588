// Tests the windows of a test trace (trace_windows.h): tests whose
// goroutines share an object are one group, a timer's channel pooled across
// tests relates nothing, a trace the cut does not describe is not cut, a
// window reads back with only its goroutines' records, and the analysis in
// windows finds what the analysis of the whole trace finds.
#include "gordian/pipeline/trace_windows.h"

#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/pipeline/analyze_trace.h"
#include "gordian/pipeline/temp_trace_test.h"
#include "gordian/report/dedup.h"
#include "gordian/report/finding.h"
#include "gordian/trace/writer.h"

namespace gordian::pipeline {
namespace {

using trace::Kind;
using trace::TraceWriter;

// A go test run: main spawns one goroutine per top-level test, in turn.
struct Suite {
  TraceWriter w;
  uint32_t s = w.AddSite("/p/x_test.go", 10, "p.TestX");
  uint32_t tests = 0;

  // A test's goroutine with its TestStart; returns its gid.
  uint32_t Test(const std::string& name) {
    uint32_t g = w.Go(1, s);
    w.Op(g, Kind::TestStart, ++tests, w.AddString(name), s);
    return g;
  }
  void End(uint32_t g, uint32_t index) { w.Op(g, Kind::TestEnd, index, 0, s); }
  std::vector<uint32_t> blocked;  // goroutines End named blocked forever
  // The exit: main names the goroutines blocked forever (the recorder's
  // check at the exit), then exits.
  void Exit() {
    for (uint32_t g : blocked) {
      w.Op(1, Kind::BlockedAtTestEnd, g, 0, s, 0, static_cast<uint16_t>(Kind::ChanRecv));
    }
    w.Op(1, Kind::ProgramExit, 0, 0, s, trace::kExitChecked,
         static_cast<uint16_t>(trace::ExitHow::OsExit));
  }
  // Two goroutines (the test's and a worker it spawns first) take a and b
  // in opposite orders (a lock-order deadlock), and the last worker is then
  // left blocked on a receive nobody sends to (a leak, once End names it).
  uint32_t LockOrderAndLeak(uint32_t g, int workers = 1) {
    // Each test's own code: a site of its own.
    const uint32_t site = w.AddSite("/p/x_test.go", 100 + 10 * tests, "p.TestX.func1");
    const uint32_t a = w.NewObject(), b = w.NewObject(), never = w.NewObject();
    w.Op(g, Kind::ChanMake, never, 0, site);
    auto lock = [&](uint32_t who, uint32_t m) { w.Post(w.Pre(who, Kind::MutexLock, m, site), 0); };
    std::vector<uint32_t> spawned;
    for (int k = 0; k < workers; k++) spawned.push_back(w.Go(g, site));
    lock(g, a);
    lock(g, b);
    w.Op(g, Kind::MutexUnlock, b, 0, site);
    w.Op(g, Kind::MutexUnlock, a, 0, site);
    for (uint32_t worker : spawned) {
      lock(worker, b);
      lock(worker, a);
      w.Op(worker, Kind::MutexUnlock, a, 0, site);
      w.Op(worker, Kind::MutexUnlock, b, 0, site);
    }
    w.Pre(spawned.back(), Kind::ChanRecv, never, site);
    return spawned.back();
  }
  // The test's end, naming the goroutine it left blocked forever.
  void End(uint32_t g, uint32_t index, uint32_t blocked_g) {
    w.Op(g, Kind::BlockedAtTestEnd, blocked_g, index, s, 0, static_cast<uint16_t>(Kind::ChanRecv));
    blocked.push_back(blocked_g);
    End(g, index);
  }
};

trace::Trace Read(const std::string& dir) {
  trace::Trace t;
  std::string err;
  EXPECT_TRUE(trace::ReadTrace(dir, &t, &err)) << err;
  return t;
}

// Three tests: A and B take one mutex (a package-level one), C shares
// nothing with them but a pooled timer's channel it receives from, as A
// does. A and B are one group, C another.
Suite ThreeTests() {
  Suite x;
  const uint32_t shared = x.w.NewObject(), timer = x.w.NewObject();
  uint32_t a = x.Test("TestA");
  const uint32_t la = x.LockOrderAndLeak(a, 3);
  x.w.Post(x.w.Pre(a, Kind::MutexLock, shared, x.s), 0);
  x.w.Op(a, Kind::MutexUnlock, shared, 0, x.s);
  x.w.Post(x.w.Pre(a, Kind::ChanRecv, timer, x.s, trace::kTimer), 1);
  x.End(a, 1, la);
  uint32_t b = x.Test("TestB");
  const uint32_t lb = x.LockOrderAndLeak(b, 3);
  x.w.Post(x.w.Pre(b, Kind::MutexLock, shared, x.s), 0);
  x.w.Op(b, Kind::MutexUnlock, shared, 0, x.s);
  x.End(b, 2, lb);
  uint32_t c = x.Test("TestC");
  const uint32_t lc = x.LockOrderAndLeak(c);
  x.w.Post(x.w.Pre(c, Kind::ChanRecv, timer, x.s, trace::kTimer), 2);
  x.End(c, 3, lc);
  x.Exit();
  return x;
}

TEST(TraceWindows, TestsThatShareNothingAreWindowsOfTheirOwn) {
  Suite x = ThreeTests();
  TempTrace tt(x.w);
  trace::Trace t = Read(tt.dir);
  TraceWindows w = CutIntoWindows(t, 8, 1);
  ASSERT_EQ(w.windows.size(), 2u) << w.why_not;
  EXPECT_EQ(w.groups, 2u);
  // Goroutines 2.. are TestA and its 3 workers, TestB and its 3, TestC and its one.
  for (uint32_t g = 2; g <= 9; g++) {
    EXPECT_EQ(w.windows[0][g], 1) << g;
    EXPECT_EQ(w.windows[1][g], 0) << g;
  }
  for (uint32_t g = 10; g <= 11; g++) {
    EXPECT_EQ(w.windows[0][g], 0) << g;
    EXPECT_EQ(w.windows[1][g], 1) << g;
  }
  EXPECT_EQ(w.windows[0][1], 0);  // main: through WindowSelection
  uint64_t sum = 0;
  for (const trace::Goroutine& g : t.goroutines) sum += g.gid == 1 ? 0 : g.end - g.begin;
  EXPECT_EQ(w.records[0] + w.records[1], sum);
}

TEST(TraceWindows, APlainChannelBetweenTestsJoinsThem) {
  Suite x;
  const uint32_t ch = x.w.NewObject();
  uint32_t a = x.Test("TestA");
  x.LockOrderAndLeak(a, 3);
  x.w.Op(a, Kind::ChanClose, ch, 0, x.s);
  x.End(a, 1);
  uint32_t c = x.Test("TestC");
  x.w.Post(x.w.Pre(c, Kind::ChanRecv, ch, x.s, trace::kTimer), 0, trace::kClosed);
  x.End(c, 2);
  x.Exit();
  TempTrace tt(x.w);
  TraceWindows w = CutIntoWindows(Read(tt.dir), 8, 1);
  EXPECT_TRUE(w.windows.empty());
  EXPECT_EQ(w.groups, 1u);
}

TEST(TraceWindows, ATraceTheCutDoesNotDescribeIsNotCut) {
  {  // the main goroutine does more than spawn tests (TestMain)
    Suite x = ThreeTests();
    x.w.Op(1, Kind::ChanMake, x.w.NewObject(), 0, x.s);
    TempTrace tt(x.w);
    TraceWindows w = CutIntoWindows(Read(tt.dir), 8, 1);
    EXPECT_TRUE(w.windows.empty());
    EXPECT_NE(w.why_not.find("main goroutine"), std::string::npos) << w.why_not;
  }
  {  // no exit: the program was killed
    Suite x;
    x.LockOrderAndLeak(x.Test("TestA"));
    x.LockOrderAndLeak(x.Test("TestB"));
    TempTrace tt(x.w);
    TraceWindows w = CutIntoWindows(Read(tt.dir), 8, 1);
    EXPECT_TRUE(w.windows.empty());
    EXPECT_NE(w.why_not.find("exit"), std::string::npos) << w.why_not;
  }
  {  // the runner started a goroutine that runs no test (a benchmark)
    Suite x;
    x.LockOrderAndLeak(x.Test("TestA"));
    x.LockOrderAndLeak(x.w.Go(1, x.s));
    x.Exit();
    TempTrace tt(x.w);
    TraceWindows w = CutIntoWindows(Read(tt.dir), 8, 1);
    EXPECT_TRUE(w.windows.empty());
    EXPECT_NE(w.why_not.find("runs no test"), std::string::npos) << w.why_not;
  }
}

TEST(TraceWindows, AWindowReadsBackWithItsGoroutinesOnly) {
  Suite x = ThreeTests();
  TempTrace tt(x.w);
  trace::Trace whole = Read(tt.dir);
  TraceWindows w = CutIntoWindows(whole, 8, 1);
  ASSERT_EQ(w.windows.size(), 2u) << w.why_not;
  trace::Trace t;
  std::string err;
  ASSERT_TRUE(trace::ReadTrace(tt.dir, &t, &err, WindowSelection(w.windows[1]))) << err;
  ASSERT_EQ(t.goroutines.size(), whole.goroutines.size());
  for (size_t g = 0; g < t.goroutines.size(); g++) {
    const trace::Goroutine& a = t.goroutines[g];
    const trace::Goroutine& b = whole.goroutines[g];
    EXPECT_EQ(a.stable_id, b.stable_id);
    EXPECT_EQ(a.parent, b.parent);
    if (g == 0) {
      // main: the go statement of TestC, its worker blocked at the exit,
      // the exit.
      ASSERT_EQ(a.end - a.begin, 3u);
      EXPECT_EQ(t.records[a.begin].kind, Kind::GoSpawn);
      EXPECT_EQ(t.records[a.begin].obj, 10u);
      EXPECT_EQ(t.records[a.begin + 1].kind, Kind::BlockedAtTestEnd);
      EXPECT_EQ(t.records[a.begin + 1].obj, 11u);
      EXPECT_EQ(t.records[a.begin + 2].kind, Kind::ProgramExit);
    } else if (w.windows[1][g + 1]) {
      ASSERT_EQ(a.end - a.begin, b.end - b.begin);
      for (uint32_t k = 0; k < a.end - a.begin; k++) {
        EXPECT_EQ(t.records[a.begin + k].tpre, whole.records[b.begin + k].tpre);
      }
    } else {
      EXPECT_EQ(a.begin, a.end) << g;
    }
  }
}

// A finding as the report shows it after merging the same bug seen in
// several tests (report/dedup.h): its key, status and severity.
std::string Key(const report::Finding& f) {
  return fmt::format("{} {} {}", report::DedupKey(f), report::StatusName(f.status),
                     report::SeverityName(f.severity));
}

TEST(TraceWindows, TheAnalysisInWindowsFindsWhatTheWholeOneFinds) {
  Suite x = ThreeTests();
  TempTrace tt(x.w);
  auto analyse = [&](uint64_t min_records) {
    AnalyzeOptions o;
    o.window_min_records = min_records;
    std::vector<report::Finding> found;
    std::string err;
    EXPECT_TRUE(AnalyzeTrace("test", tt.dir, o, &found, &err)) << err;
    // The same bug at the same sites is one finding per trace for some
    // detectors and one per window here: the report merges them.
    report::Dedup(&found);
    std::multiset<std::string> keys;
    for (const report::Finding& f : found) keys.insert(Key(f));
    return keys;
  };
  std::multiset<std::string> whole = analyse(UINT64_MAX), windows = analyse(1);
  EXPECT_EQ(windows, whole);
  // What both find: each test's lock-order deadlock and leak.
  size_t lock_order = 0, leaks = 0;
  for (const std::string& k : whole) {
    lock_order += k.find("lock-order-deadlock") != std::string::npos;
    leaks += k.find("goroutine-leak") != std::string::npos;
  }
  EXPECT_EQ(lock_order, 3u);
  EXPECT_EQ(leaks, 3u);
}

}  // namespace
}  // namespace gordian::pipeline
