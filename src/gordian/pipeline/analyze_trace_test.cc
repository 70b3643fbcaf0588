// Tests AnalyzeTrace (analyze_trace.h): each trace is indexed once
// (hb/op_index.h), however many analyses read the index; under a memory
// budget (memory_budget.h) it drops predictions, says so, and keeps every
// finding that occurred; with enough budget nothing changes.
#include "gordian/pipeline/analyze_trace.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "gordian/detect/clock_needs.h"
#include "gordian/hb/op_index.h"
#include "gordian/pipeline/analysis_progress.h"
#include "gordian/pipeline/confirm.h"
#include "gordian/pipeline/schedule_runner.h"
#include "gordian/pipeline/temp_trace_test.h"
#include "gordian/report/finding.h"
#include "gordian/trace/writer.h"

namespace gordian::pipeline {
namespace {

namespace fs = std::filesystem;
using trace::Kind;
using trace::TraceWriter;

// Two goroutines take two mutexes in opposite orders (a lock-order finding:
// the predictive detectors build their second engine, without mutex edges),
// a third sends on a channel main closed (an occurred panic), and a fourth
// is left blocked on a receive (a leak).
TraceWriter LockOrderPanicAndLeak() {
  TraceWriter w;
  const uint32_t s = w.AddSite("/p/main.go", 5, "main.main");
  const uint32_t a = w.NewObject(), b = w.NewObject();
  const uint32_t ch = w.NewObject(), never = w.NewObject();
  for (uint32_t c : {ch, never}) w.Op(1, Kind::ChanMake, c, c == ch ? 1 : 0, s);
  std::vector<uint32_t> g;
  for (int k = 0; k < 4; ++k) g.push_back(w.Go(1, s));
  const uint32_t g1 = g[0], g2 = g[1], g3 = g[2], g4 = g[3];
  auto lock = [&](uint32_t who, uint32_t m) { w.Post(w.Pre(who, Kind::MutexLock, m, s), 0); };
  lock(g1, a);
  lock(g1, b);
  w.Op(g1, Kind::MutexUnlock, b, 0, s);
  w.Op(g1, Kind::MutexUnlock, a, 0, s);
  lock(g2, b);
  lock(g2, a);
  w.Op(g2, Kind::MutexUnlock, a, 0, s);
  w.Op(g2, Kind::MutexUnlock, b, 0, s);
  w.Op(1, Kind::ChanClose, ch, 0, s);
  w.Pre(g3, Kind::ChanSend, ch, s, trace::kClosed);
  w.Op(g3, Kind::Panic, 0, w.AddString("send on closed channel"), s);
  w.Pre(g4, Kind::ChanRecv, never, s);
  return w;
}

TEST(AnalyzeTrace, IndexesTheTraceOnce) {
  std::string tmpl = (fs::temp_directory_path() / "gordian-analyze-test-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  std::string err;
  ASSERT_TRUE(LockOrderPanicAndLeak().Write(tmpl + "/trace", &err)) << err;
  std::vector<report::Finding> found;
  uint64_t before = hb::OpIndex::Builds();
  ASSERT_TRUE(AnalyzeTrace("test", tmpl + "/trace", AnalyzeOptions{}, &found, &err)) << err;
  EXPECT_EQ(hb::OpIndex::Builds() - before, 1u);
  // The analyses that read the index ran: occurred and predicted findings.
  bool occurred = false, predicted = false;
  for (const report::Finding& f : found) {
    occurred = occurred || f.status != report::Status::Predicted;
    predicted = predicted || f.status == report::Status::Predicted;
  }
  EXPECT_TRUE(occurred);
  EXPECT_TRUE(predicted);
  fs::remove_all(tmpl);
}

// LockOrderPanicAndLeak() followed by k goroutines that each take a shared mutex and send
// on a buffered channel main drains (clocks to store, in proportion to k),
// and, last in the trace, a send on a channel main closes without ordering
// (a predicted send-on-closed about the trace's last records).
TraceWriter Scaled(int k) {
  TraceWriter w = LockOrderPanicAndLeak();
  const uint32_t s = w.AddSite("/p/work.go", 9, "main.work");
  const uint32_t m = w.NewObject(), work = w.NewObject(), late = w.NewObject();
  w.Op(1, Kind::ChanMake, work, k, s);
  w.Op(1, Kind::ChanMake, late, 1, s);
  for (int i = 0; i < k; ++i) {
    uint32_t g = w.Go(1, s);
    w.Post(w.Pre(g, Kind::MutexLock, m, s), 0);
    w.Op(g, Kind::ChanSend, work, i + 1, s);
    w.Op(g, Kind::MutexUnlock, m, 0, s);
  }
  for (int i = 0; i < k; ++i) w.Op(1, Kind::ChanRecv, work, i + 1, s);
  uint32_t g = w.Go(1, s);
  w.Op(g, Kind::ChanSend, late, 1, s);
  w.Op(1, Kind::ChanClose, late, 0, s);
  return w;
}

// One line per finding: what a report would show of it. Without the
// message, what it is about: a degraded analysis may count fewer instances
// in an info finding's message (message-contention), never a new finding.
std::string Key(const report::Finding& f, bool message = true) {
  std::string k = fmt::format("{} {} {}:", report::KindName(f.kind), report::StatusName(f.status),
                              message ? f.message : "");
  for (const report::Location& l : f.locations) {
    k += fmt::format(" {}:{} {} {}", l.file, l.line, report::RoleName(l.role), l.goroutine);
  }
  return k;
}

struct Analysis {
  std::multiset<std::string> occurred, predicted;
  std::multiset<std::string> predicted_messages;  // predicted, with their messages
  std::vector<std::string> degraded;
  uint64_t used = 0;
};

Analysis Analyze(const std::string& dir, uint64_t budget, bool clocks_on_demand = true) {
  Analysis a;
  AnalyzeOptions o;
  o.memory_budget = budget;
  o.clocks_on_demand = clocks_on_demand;
  o.degraded = &a.degraded;
  o.memory_used = &a.used;
  std::vector<report::Finding> found;
  std::string err;
  EXPECT_TRUE(AnalyzeTrace("test", dir, o, &found, &err)) << err;
  for (const report::Finding& f : found) {
    if (f.status == report::Status::Predicted) {
      a.predicted.insert(Key(f, false));
      a.predicted_messages.insert(Key(f));
    } else {
      a.occurred.insert(Key(f));
    }
  }
  return a;
}

bool Mentions(const std::vector<std::string>& notes, std::string_view what) {
  return std::any_of(notes.begin(), notes.end(),
                     [&](const std::string& n) { return n.find(what) != std::string::npos; });
}

TEST(AnalyzeTraceBudget, EnoughBudgetChangesNothing) {
  TempTrace tr(Scaled(300));
  Analysis full = Analyze(tr.dir, 1ull << 40);
  ASSERT_TRUE(full.degraded.empty()) << full.degraded.front();
  ASSERT_FALSE(full.occurred.empty());
  ASSERT_FALSE(full.predicted.empty());
  ASSERT_GT(full.used, 0u);
  // Twice what the unbounded analysis accounted for is enough (a quarter of
  // an engine's room is kept for its live clocks).
  Analysis exact = Analyze(tr.dir, 2 * full.used);
  EXPECT_TRUE(exact.degraded.empty()) << exact.degraded.front();
  EXPECT_EQ(exact.occurred, full.occurred);
  EXPECT_EQ(exact.predicted_messages, full.predicted_messages);
}

TEST(AnalyzeTraceBudget, DegradesWithANoteAndKeepsWhatOccurred) {
  TempTrace tr(Scaled(300));
  Analysis full = Analyze(tr.dir, 1ull << 40);
  ASSERT_TRUE(full.degraded.empty());
  bool clocks_dropped = false, engine_dropped = false, weak_dropped = false;
  // From twice the need down to a single byte.
  for (uint64_t b = 2 * full.used; b > 0; b = b * 7 / 8) {
    SCOPED_TRACE(fmt::format("budget {} of {} bytes", b, full.used));
    Analysis a = Analyze(tr.dir, b);
    // Every finding that occurred is there whatever the budget.
    for (const std::string& k : full.occurred) EXPECT_EQ(a.occurred.count(k), 1u) << k;
    // Only predictions are dropped, none is made up.
    for (const std::string& k : a.predicted) EXPECT_EQ(full.predicted.count(k), 1u) << k;
    // A report with fewer predictions says so.
    if (a.predicted_messages != full.predicted_messages) {
      EXPECT_FALSE(a.degraded.empty());
    }
    clocks_dropped = clocks_dropped || Mentions(a.degraded, "held the clocks of");
    weak_dropped = weak_dropped || Mentions(a.degraded, "second");
    bool none = Mentions(a.degraded, "no predictions were made") ||
                Mentions(a.degraded, "no happens-before analysis");
    engine_dropped = engine_dropped || none;
    if (none) {
      EXPECT_TRUE(a.predicted.empty());
    }
  }
  // The sweep met every way of degrading.
  EXPECT_TRUE(clocks_dropped);
  EXPECT_TRUE(weak_dropped);
  EXPECT_TRUE(engine_dropped);
}

// A hundred goroutines hand 40,000 values to main over one unbuffered
// channel (every rendezvous raises both clocks, so each operation costs a
// stored snapshot, while the live clocks stay small), beside a small channel with a predictable send on
// closed channel (a send and a close no edge orders). When the clocks do
// not fit, the analysis sheds the largest object first
// (object_shedding.h): the big channel loses its clocks, the note names it,
// and the prediction about the small channel survives; what the analysis
// holds stays within the budget. (With every clock stored: no detector
// asks about the big channel, so with clocks on demand it costs no clock
// at all, and the analysis fits where shedding was needed.)
TEST(AnalyzeTraceBudget, TheLargestObjectIsShedFirst) {
  TraceWriter w = LockOrderPanicAndLeak();
  const uint32_t s = w.AddSite("/p/pool.go", 7, "main.pool");
  const uint32_t small = w.AddSite("/p/small.go", 9, "main.small");
  const uint32_t big = w.NewObject();
  const uint32_t c2 = w.NewObject();
  w.Op(1, Kind::ChanMake, big, 0, s);
  w.Op(1, Kind::ChanMake, c2, 1, small);
  const uint32_t sender = w.Go(1, small);
  w.Op(sender, Kind::ChanSend, c2, 1, small);
  std::vector<uint32_t> senders;
  for (int k = 0; k < 100; ++k) senders.push_back(w.Go(1, s));
  for (uint32_t seq = 1; seq <= 40000; ++seq) {
    w.Op(senders[seq % senders.size()], Kind::ChanSend, big, seq, s);
    w.Op(1, Kind::ChanRecv, big, seq, s);
  }
  w.Op(1, Kind::ChanClose, c2, 0, small);
  TempTrace tr(w);
  Analysis full = Analyze(tr.dir, 1ull << 40, false);
  ASSERT_TRUE(full.degraded.empty());
  auto about_small = [](const std::multiset<std::string>& found) {
    return std::count_if(found.begin(), found.end(), [](const std::string& k) {
      return k.rfind("send-on-closed", 0) == 0 && k.find("small.go:9") != std::string::npos;
    });
  };
  ASSERT_GT(about_small(full.predicted), 0);
  bool shed = false;
  for (uint64_t b = full.used * 5 / 8; b > full.used * 3 / 8; b = b * 31 / 32) {
    SCOPED_TRACE(fmt::format("budget {} of {} bytes", b, full.used));
    Analysis a = Analyze(tr.dir, b, false);
    for (const std::string& k : full.occurred) EXPECT_EQ(a.occurred.count(k), 1u) << k;
    for (const std::string& k : a.predicted) EXPECT_EQ(full.predicted.count(k), 1u) << k;
    // (The engine checks its limit every 65536 steps and its arena grows
    // in chunks of 1 MiB: it may pass the budget by that much.)
    EXPECT_LE(a.used, b + (1u << 20)) << "what the analysis holds stays within the budget";
    if (Mentions(a.degraded, "predictions about its largest objects were dropped")) {
      shed = true;
      EXPECT_TRUE(Mentions(a.degraded, "channel made at /p/pool.go:7 (80,001 operations)"))
          << a.degraded.front();
      EXPECT_FALSE(Mentions(a.degraded, "small.go"));
      EXPECT_EQ(about_small(a.predicted), about_small(full.predicted))
          << fmt::format("{}", fmt::join(a.degraded, "\n"));
    }
  }
  EXPECT_TRUE(shed);
  // Clocks on demand: the sweep's smallest budget drops nothing, and the
  // analysis finds the bugs and warnings the one with every clock and no
  // limit found (the information about the big channel, which compares
  // its operations with each other, is what it gives up).
  Analysis on_demand = Analyze(tr.dir, full.used * 3 / 8);
  EXPECT_TRUE(on_demand.degraded.empty()) << fmt::format("{}", fmt::join(on_demand.degraded, "\n"));
  EXPECT_EQ(on_demand.occurred, full.occurred);
  auto not_info = [](const std::multiset<std::string>& keys) {
    std::multiset<std::string> out;
    for (const std::string& k : keys) {
      report::FindingKind kind;
      if (report::ParseKind(k.substr(0, k.find(' ')), &kind) &&
          report::DefaultSeverity(kind) != report::Severity::Info) {
        out.insert(k);
      }
    }
    return out;
  };
  EXPECT_EQ(not_info(on_demand.predicted), not_info(full.predicted));
  EXPECT_EQ(about_small(on_demand.predicted), about_small(full.predicted));
  EXPECT_LT(on_demand.used, full.used / 2) << "with every clock: " << full.used;
}

// Progress: the phases with record counts, through the interface; the
// throttled line says nothing within the first second.
class Recorder : public AnalysisProgress {
 public:
  void Update(std::string_view phase, uint64_t done, uint64_t total) override {
    phases.insert(std::string(phase));
    EXPECT_LE(total == 0 ? 0 : std::min(done, total), total);
    if (total > 0) totals.insert(total);
    steps_seen = steps_seen || (phase == "happens-before" && done > 0);
  }
  bool steps_seen = false;
  std::set<std::string> phases;
  std::set<uint64_t> totals;
};

TEST(AnalyzeTraceProgress, ReportsPhasesWithRecordCounts) {
  // Two goroutines locking their own mutexes: more than one progress period
  // (65536 replay steps) and nothing quadratic to predict.
  TraceWriter w;
  const uint32_t s = w.AddSite("/p/loop.go", 3, "main.loop");
  for (int g = 0; g < 2; ++g) {
    uint32_t gid = w.Go(1, s), m = w.NewObject();
    for (int i = 0; i < 40000; ++i) {
      w.Post(w.Pre(gid, Kind::MutexLock, m, s), 0);
      w.Op(gid, Kind::MutexUnlock, m, 0, s);
    }
  }
  TempTrace tr(w);
  Recorder rec;
  AnalyzeOptions o;
  o.progress = &rec;
  std::vector<report::Finding> found;
  std::string err;
  ASSERT_TRUE(AnalyzeTrace("test", tr.dir, o, &found, &err)) << err;
  for (const char* p : {"reading", "indexing", "happens-before", "occurred", "predicting"}) {
    EXPECT_EQ(rec.phases.count(p), 1u) << p;
  }
  ASSERT_EQ(rec.totals.size(), 1u);  // the trace's record count
  EXPECT_GT(*rec.totals.begin(), 160000u);
  EXPECT_TRUE(rec.steps_seen) << "the replay reported its progress";
}

// The build with every clock is for the rewrite of a confirmation: none
// when confirmation is off (gordian test --no-confirm), though the trace
// has predictions to rewrite and its first build left clocks out.
TEST(AnalyzeTraceProgress, EveryClockOnlyForAConfirmation) {
  // LockOrderPanicAndLeak's predictions, and a buffered channel busy enough
  // (detect::kClockNeedsMinOps) that no detector asks about: its records
  // get no clock in the first build.
  TraceWriter w = LockOrderPanicAndLeak();
  const uint32_t s = w.AddSite("/p/busy.go", 9, "main.busy");
  const uint32_t busy = w.NewObject();
  w.Op(1, Kind::ChanMake, busy, 1000, s);
  const uint32_t sender = w.Go(1, s), receiver = w.Go(1, s);
  const uint32_t n = detect::kClockNeedsMinOps / 2 + 1;
  for (uint32_t i = 1; i <= n; ++i) w.Op(sender, Kind::ChanSend, busy, i, s);
  for (uint32_t i = 1; i <= n; ++i) w.Op(receiver, Kind::ChanRecv, busy, i, s);
  TempTrace tr(w);
  class NoReplay : public ScheduleRunner {
   public:
    bool Run(const schedule::Schedule&, const std::string&, const RunOptions&, RunOutput*,
             std::string* err) override {
      *err = "no replay in this test";
      return false;
    }
  } runner;
  for (bool enabled : {true, false}) {
    SCOPED_TRACE(enabled ? "confirmation on" : "confirmation off");
    ConfirmOptions c;
    c.enabled = enabled;
    c.runner = &runner;
    c.schedule_dir = tr.root + (enabled ? "/schedules-on" : "/schedules-off");
    c.work_dir = tr.root + (enabled ? "/work-on" : "/work-off");
    Recorder rec;
    AnalyzeOptions o;
    o.progress = &rec;
    o.confirm = &c;
    std::vector<report::Finding> found;
    std::string err;
    ASSERT_TRUE(AnalyzeTrace("test", tr.dir, o, &found, &err)) << err;
    EXPECT_TRUE(std::any_of(found.begin(), found.end(), [](const report::Finding& f) {
      return f.status != report::Status::Occurred && !f.records.empty();
    })) << "a prediction to rewrite";
    EXPECT_EQ(rec.phases.count("happens-before (every clock)"), enabled ? 1u : 0u);
  }
}

TEST(ThrottledProgressTest, QuietForASecondThenEveryInterval) {
  double now = 0;
  std::vector<std::string> lines;
  ThrottledProgress p([&](const std::string& s) { lines.push_back(s); }, "analysing x", 5.0,
                      [&] { return now; });
  p.Update("happens-before", 10, 100);
  now = 0.9;
  p.Update("happens-before", 50, 100);
  EXPECT_TRUE(lines.empty()) << "an analysis within a second prints nothing";
  now = 1.2;
  p.Update("happens-before", 2'500'000, 5'000'000);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "analysing x: happens-before: 2.5M of 5.0M records");
  now = 5.0;
  p.Update("predicting", 0, 0);
  EXPECT_EQ(lines.size(), 1u);
  now = 6.3;
  p.Update("predicting", 0, 0);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "analysing x: predicting");
}

}  // namespace
}  // namespace gordian::pipeline
