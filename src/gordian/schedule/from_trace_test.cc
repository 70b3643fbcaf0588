// Tests of schedules made from traces (FromTrace: select partners, panics
// placed among the operations) and of the comparison of a replayed trace
// with its schedule (CheckFollowed: what counts as the same partner).
#include "gordian/schedule/from_trace.h"

#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "gordian/trace/writer.h"
#include "gordian/trace/written_trace_test.h"
#include "gordian/util/temp_dir_test.h"

namespace gordian::schedule {
namespace {

namespace fs = std::filesystem;
using trace::Kind;
using trace::Record;
using trace::RecordRef;
using trace::TraceWriter;
using trace::WrittenTrace;

// Whether the replay diverged (is not exact) in a way that mentions why.
::testing::AssertionResult Diverged(const FollowResult& f, const std::string& why) {
  if (f.exact) return ::testing::AssertionFailure() << "exact; expected a divergence: " << why;
  if (f.divergence.find(why) == std::string::npos) {
    return ::testing::AssertionFailure() << "the divergence does not mention " << why << ": "
                                         << f.divergence;
  }
  return ::testing::AssertionSuccess();
}

class FromTraceTest : public util::TempDirTest {
 protected:
  // The index in t.records of goroutine path's n-th record of kind k.
  static uint32_t Find(const trace::Trace& t, const std::string& path, Kind k, int n = 0) {
    for (const auto& g : t.goroutines) {
      if (g.stable_id != path) continue;
      for (uint32_t i = g.begin; i < g.end; i++) {
        if (t.records[i].kind == k && n-- == 0) return i;
      }
    }
    ADD_FAILURE() << "no " << static_cast<int>(k) << " in " << path;
    return 0;
  }
};

// main: spawns 1.0, sends 1 on b, locks and unlocks mu, signals the Cond.
// 1.0: selects on a (case 0) and b (case 1), gets b's value; waits on the
// Cond, locks and unlocks mu, then panics; main adds, runs a Once and ends
// as a test would.
TraceWriter SelectCondMutexPanic() {
  TraceWriter w;
  uint32_t site = w.AddSite("/p/main.go", 10, "main.main");
  uint32_t a = w.NewObject(), b = w.NewObject(), mu = w.NewObject(), cond = w.NewObject();
  w.Op(1, Kind::ChanMake, a, 0, site);
  w.Op(1, Kind::ChanMake, b, 0, site);
  uint32_t g = w.Go(1, site);
  RecordRef sel = w.Pre(g, Kind::Select, 0, site, 0, 2);
  RecordRef c0 = w.Append(g, Record{Kind::SelectCase, trace::kDirRecv, 0, site, 0, 0, a, 0});
  RecordRef c1 = w.Append(g, Record{Kind::SelectCase, trace::kDirRecv, 1, site, 0, 0, b, 0});
  w.At(c0).tpre = w.At(c1).tpre = w.At(sel).tpre;
  RecordRef s = w.Pre(1, Kind::ChanSend, b, site);
  w.Post(s, 1);
  w.Post(sel, 1);
  w.At(c1).flags |= trace::kChosen;
  w.At(c1).val = 1;
  w.At(c1).tpost = w.At(sel).tpost;
  RecordRef cw = w.Pre(g, Kind::CondWait, cond, site);
  w.Op(1, Kind::CondSignal, cond, 1, site);
  w.Post(cw, 1);
  RecordRef l1 = w.Pre(1, Kind::MutexLock, mu, site);
  w.Post(l1, 0);
  w.Op(1, Kind::MutexUnlock, mu, 0, site);
  RecordRef l2 = w.Pre(g, Kind::MutexLock, mu, site);
  w.Post(l2, 0);
  w.Op(g, Kind::MutexUnlock, mu, 0, site);
  w.Op(g, Kind::Panic, 0, w.AddString("boom"), site);
  w.Op(1, Kind::WgAdd, w.NewObject(), 1, site);  // main goes on after the panic
  RecordRef once = w.Pre(1, Kind::OnceDo, w.NewObject(), site);
  w.Post(once, 0, trace::kSuccess);  // and runs a Once's f
  w.Op(1, Kind::TestEnd, 1, 0, 0);   // as if main were a test
  w.SetMeta("arg.0", "/tmp/x");
  return w;
}

TEST_F(FromTraceTest, SelectsCarryTheirCasePartnerAndPanicsArePlaced) {
  trace::Trace t = WrittenTrace(SelectCondMutexPanic(), dir_);
  Schedule s = FromTrace(t, dir_);
  ASSERT_EQ(s.goroutines, (std::vector<std::string>{"1", "1.0"}));
  // Order: send(main), select(1.0), cond wait(1.0), signal(main), lock,
  // unlock (main), lock, unlock (1.0), add, once (main).
  ASSERT_EQ(s.ops.size(), 10u);
  EXPECT_EQ(s.ops[9].kind, Kind::OnceDo);
  EXPECT_EQ(s.ops[9].choice, 1) << "the Do that ran f";
  EXPECT_EQ(s.ops[0].kind, Kind::ChanSend);
  const Op& sel = s.ops[1];
  EXPECT_EQ(sel.kind, Kind::Select);
  EXPECT_EQ(sel.choice, 1);
  EXPECT_EQ(sel.obj, 2u) << "the chosen case's channel (b)";
  EXPECT_EQ(sel.val, 1u) << "the value number the chosen case received";
  // The panic of 1.0 came after its 4 controlled operations, before the
  // last Add of main (position 8).
  ASSERT_EQ(s.panics.size(), 1u);
  EXPECT_EQ(s.panics[0].g, 1u);
  EXPECT_EQ(s.panics[0].index, 4u);
  EXPECT_EQ(s.panics[0].pos, 8u);
  // 1.0's Cond.Wait (its operation #1) relocked after main's Signal.
  ASSERT_EQ(s.relocks.size(), 1u);
  EXPECT_EQ(s.relocks[0].g, 1u);
  EXPECT_EQ(s.relocks[0].index, 2u);
  EXPECT_EQ(s.relocks[0].pos, 4u);
  // The end of the test came after all 10 operations; main had begun 6.
  ASSERT_EQ(s.test_ends.size(), 1u);
  EXPECT_EQ(s.test_ends[0].g, 0u);
  EXPECT_EQ(s.test_ends[0].index, 6u);
  EXPECT_EQ(s.test_ends[0].pos, 10u);
  // The text form keeps them.
  Schedule back;
  std::string err;
  ASSERT_TRUE(ParseSchedule(FormatSchedule(s), &back, &err)) << err;
  ASSERT_EQ(back.panics.size(), 1u);
  EXPECT_EQ(back.panics[0].pos, 8u);
  ASSERT_EQ(back.relocks.size(), 1u);
  EXPECT_EQ(back.relocks[0].index, 2u);
  ASSERT_EQ(back.test_ends.size(), 1u);
  EXPECT_EQ(back.test_ends[0].pos, 10u);
  EXPECT_EQ(FormatSchedule(back), FormatSchedule(s));
  EXPECT_FALSE(ParseSchedule("gordian-schedule 1\ng 1\np 1 0 0\n", &back, &err))
      << "a p line names a known goroutine";
}

// A recording built with -race (meta race=1) replays built with -race: the
// schedule says cmd.race, and the race detector can show the same data race.
TEST_F(FromTraceTest, ARaceBuildReplaysUnderRace) {
  TraceWriter w = SelectCondMutexPanic();
  w.SetMeta("arg.0", "/tmp/x.test");
  w.SetMeta("argc", "1");
  EXPECT_FALSE(FromTrace(WrittenTrace(w, dir_), dir_).cmd.race);
  w.SetMeta("race", "1");
  Schedule s = FromTrace(WrittenTrace(w, dir_), dir_);
  EXPECT_EQ(s.cmd.mode, "test");
  EXPECT_TRUE(s.cmd.race);
  EXPECT_EQ(std::count(s.cmd.args.begin(), s.cmd.args.end(), "-race"), 0);
}

TEST_F(FromTraceTest, TheRecordingFollowsItsOwnScheduleExactly) {
  trace::Trace t = WrittenTrace(SelectCondMutexPanic(), dir_);
  Schedule s = FromTrace(t, dir_);
  FollowResult f = CheckFollowed(s, t);
  EXPECT_TRUE(f.complete);
  EXPECT_TRUE(f.exact) << f.divergence;
  EXPECT_EQ(f.followed, s.ops.size());
}

TEST_F(FromTraceTest, ASelectWithAnotherPartnerIsNotExact) {
  trace::Trace t = WrittenTrace(SelectCondMutexPanic(), dir_);
  Schedule s = FromTrace(t, dir_);
  trace::Trace r = t;
  uint32_t c1 = Find(r, "1.0", Kind::SelectCase, 1);
  r.records[c1].val = 2;  // the same case, another value
  FollowResult f = CheckFollowed(s, r);
  EXPECT_TRUE(f.complete);
  EXPECT_TRUE(Diverged(f, "select"));
  EXPECT_TRUE(Diverged(f, "val 2 (recorded 1)"));

  r = t;
  uint32_t sel = Find(r, "1.0", Kind::Select);
  r.records[sel].val = 0;  // case 0 chosen instead
  r.records[c1].flags &= ~trace::kChosen;
  r.records[sel + 1].flags |= trace::kChosen;
  f = CheckFollowed(s, r);
  EXPECT_TRUE(Diverged(f, "chose case 0 (recorded case 1)"));
}

TEST_F(FromTraceTest, CondTicketsAndLockOrderAreCompared) {
  trace::Trace t = WrittenTrace(SelectCondMutexPanic(), dir_);
  Schedule s = FromTrace(t, dir_);
  trace::Trace r = t;
  r.records[Find(r, "1", Kind::CondSignal)].val = 0;  // woke nobody
  FollowResult f = CheckFollowed(s, r);
  EXPECT_TRUE(Diverged(f, "signal"));

  // 1.0 takes mu before main: the Lock/Unlock pairs swap their stamps.
  r = t;
  Record& ml = r.records[Find(r, "1", Kind::MutexLock)];
  Record& mu = r.records[Find(r, "1", Kind::MutexUnlock)];
  Record& gl = r.records[Find(r, "1.0", Kind::MutexLock)];
  Record& gu = r.records[Find(r, "1.0", Kind::MutexUnlock)];
  std::swap(ml.tpre, gl.tpre);
  std::swap(ml.tpost, gl.tpost);
  std::swap(mu.tpre, gu.tpre);
  std::swap(mu.tpost, gu.tpost);
  f = CheckFollowed(s, r);
  EXPECT_TRUE(f.complete);
  EXPECT_TRUE(Diverged(f, "took effect before"));
}

TEST_F(FromTraceTest, BlockedAndCompletedMustAgree) {
  trace::Trace t = WrittenTrace(SelectCondMutexPanic(), dir_);
  Schedule s = FromTrace(t, dir_);
  trace::Trace r = t;
  r.records[Find(r, "1.0", Kind::CondWait)].tpost = 0;
  FollowResult f = CheckFollowed(s, r);
  EXPECT_TRUE(Diverged(f, "blocked (it completed in the recording)"));

  // A recording whose wait never completed; a replay in which it did.
  trace::Trace rec = t;
  rec.records[Find(rec, "1.0", Kind::CondWait)].tpost = 0;
  Schedule s2 = FromTrace(rec, dir_);
  f = CheckFollowed(s2, t);
  EXPECT_TRUE(Diverged(f, "completed (it never completed in the recording)"));

  // The same when the recording died of a panic after the wait began: the
  // death may have cut the wait off, so completing it is no difference.
  s2.fatal_at = static_cast<int64_t>(s2.ops.size());
  f = CheckFollowed(s2, t);
  EXPECT_TRUE(f.exact) << f.divergence;
}

// A recording that died of a panic after every controlled operation (the
// last record is the panic): 1.0's receive was parked when the process died.
// The schedule still marks the death (fatal_at at its end), and a replay in
// which the receive completed before the panic follows it exactly.
// (invoice_worker_panics at GOMAXPROCS 2: a worker parked in its range loop
// while another worker panicked.)
TEST_F(FromTraceTest, AWaitCutOffByTheLastRecordsPanicIsNoDifference) {
  auto program = [](bool recv_completes) {
    TraceWriter w;
    uint32_t site = w.AddSite("/p/main.go", 10, "main.main");
    uint32_t jobs = w.NewObject();
    w.Op(1, Kind::ChanMake, jobs, 0, site);
    uint32_t g = w.Go(1, site);
    RecordRef recv = w.Pre(g, Kind::ChanRecv, jobs, site);
    RecordRef send = w.Pre(1, Kind::ChanSend, jobs, site);
    if (recv_completes) {
      w.Post(send, 1);
      w.Post(recv, 1);
    }
    w.Op(1, Kind::Panic, 0, w.AddString("boom"), site);
    w.SetMeta("exit_reason", "panic");
    w.SetMeta("arg.0", "/tmp/x");
    return w;
  };
  trace::Trace rec = WrittenTrace(program(false), dir_);
  Schedule s = FromTrace(rec, dir_);
  ASSERT_EQ(s.ops.size(), 2u);
  EXPECT_EQ(s.fatal_at, 2) << "died after its last operation";
  trace::Trace replay = WrittenTrace(program(true), dir_);
  FollowResult f = CheckFollowed(s, replay);
  EXPECT_TRUE(f.exact) << f.divergence;

  // Without the death, completing the receive is a difference.
  rec.meta.erase("exit_reason");
  Schedule alive = FromTrace(rec, dir_);
  EXPECT_EQ(alive.fatal_at, -1);
  EXPECT_TRUE(Diverged(CheckFollowed(alive, replay), "completed (it never completed"));
}

// 1.0 waits in a select on a ticker's channel and a stop channel; the
// recorded program ended while it waited. In a replay the ticker fired
// first: wall-clock time, not a difference of schedule. Woken by the stop
// channel instead, it is one.
TEST_F(FromTraceTest, AWaitThatATimerEndedAfterTheRecordingsEndIsNoDifference) {
  TraceWriter w;
  uint32_t site = w.AddSite("/p/main.go", 10, "main.main");
  uint32_t tick = w.NewObject(), stop = w.NewObject();
  w.Op(1, Kind::ChanMake, tick, 1, site);
  w.Op(1, Kind::ChanMake, stop, 0, site);
  uint32_t g = w.Go(1, site);
  RecordRef sel = w.Pre(g, Kind::Select, 0, site, 0, 2);
  RecordRef c0 = w.Append(
      g, Record{Kind::SelectCase, trace::kDirRecv | trace::kTimer, 0, site, 0, 0, tick, 0});
  RecordRef c1 = w.Append(g, Record{Kind::SelectCase, trace::kDirRecv, 1, site, 0, 0, stop, 0});
  w.At(c0).tpre = w.At(c1).tpre = w.At(sel).tpre;
  trace::Trace rec = WrittenTrace(w, dir_);
  Schedule s = FromTrace(rec, dir_);
  ASSERT_EQ(s.ops.size(), 1u);
  ASSERT_TRUE(s.ops[0].blocks);

  for (int by_timer : {1, 0}) {
    RecordRef woke = by_timer ? c0 : c1;
    TraceWriter rw = w;
    rw.Post(sel, by_timer ? 0 : 1);
    rw.At(woke).flags |= trace::kChosen;
    rw.At(woke).tpost = rw.At(sel).tpost;
    std::string err;
    fs::remove_all(dir_);
    ASSERT_TRUE(rw.Write(dir_, &err)) << err;
    trace::Trace rep;
    ASSERT_TRUE(trace::ReadTrace(dir_, &rep, &err)) << err;
    FollowResult f = CheckFollowed(s, rep);
    if (by_timer) {
      EXPECT_TRUE(f.exact) << f.divergence;
    } else {
      EXPECT_TRUE(Diverged(f, "completed (it never completed in the recording)"));
    }
  }
}

// The program ended while 1.0 was inside its Done (start stamp, no end):
// the Done took effect there, before the Wait it released.
TEST_F(FromTraceTest, ANonBlockingOperationCutOffByTheEndStaysWhereItTookEffect) {
  TraceWriter w;
  uint32_t site = w.AddSite("/p/main.go", 10, "main.main");
  uint32_t wg = w.NewObject();
  w.Op(1, Kind::WgAdd, wg, 1, site);
  uint32_t g = w.Go(1, site);
  RecordRef wait = w.Pre(1, Kind::WgWait, wg, site);
  RecordRef done = w.Op(g, Kind::WgAdd, wg, static_cast<uint32_t>(-1), site);
  w.At(done).tpost = 0;  // cut off
  w.Post(wait, 1);
  w.SetMeta("arg.0", "/tmp/x");
  trace::Trace t = WrittenTrace(w, dir_);
  Schedule s = FromTrace(t, dir_);
  ASSERT_EQ(s.ops.size(), 3u);
  EXPECT_EQ(s.ops[0].kind, Kind::WgAdd);
  EXPECT_EQ(s.goroutines[s.ops[1].g], "1.0") << "the Done before the Wait";
  EXPECT_EQ(s.ops[2].kind, Kind::WgWait);
  // A replay in which the Done finished is the same run.
  trace::Trace r = t;
  Record& d = r.records[Find(r, "1.0", Kind::WgAdd)];
  d.tpost = d.tpre;
  FollowResult f = CheckFollowed(s, r);
  EXPECT_TRUE(f.exact) << f.divergence;
}

TEST_F(FromTraceTest, AMissingOperationIsADivergence) {
  trace::Trace t = WrittenTrace(SelectCondMutexPanic(), dir_);
  Schedule s = FromTrace(t, dir_);
  trace::Trace r = t;
  // The replay stopped before 1.0's second lock: drop its records from there.
  uint32_t l = Find(r, "1.0", Kind::MutexLock);
  for (uint32_t i = l; i < r.goroutines[1].end; i++) r.records[i].kind = Kind::GoEnd;
  FollowResult f = CheckFollowed(s, r);
  EXPECT_FALSE(f.complete);
  EXPECT_TRUE(Diverged(f, "did not happen in the replay"));
}

// The shape of tests/corpus/bugs/lease_expiry_before_lock's rewritten
// schedule: only 1.0's Unlock is scheduled; main's Lock, not in the
// schedule, must come after it. When the runtime skipped the Unlock after
// the stall time (replay_stall_pos in meta.txt) and main's Lock took the
// mutex first, the replay did not follow the schedule, even though every
// scheduled operation happened as recorded.
TEST_F(FromTraceTest, AnUnscheduledOperationOvertakingASkippedOneIsADifference) {
  auto program = [](bool main_first, bool skipped) {
    TraceWriter w;
    uint32_t site = w.AddSite("/p/main.go", 10, "main.main");
    uint32_t mu = w.NewObject();
    uint32_t g = w.Go(1, site);
    if (main_first) w.Op(1, Kind::MutexLock, mu, 0, site);
    w.Op(g, Kind::MutexUnlock, mu, 0, site);
    if (!main_first) w.Op(1, Kind::MutexLock, mu, 0, site);
    if (skipped) w.SetMeta("replay_stall_pos", "0");
    return w;
  };
  Schedule s = FromTrace(WrittenTrace(program(false, false), dir_), dir_);
  std::erase_if(s.ops, [&](const Op& op) { return s.goroutines[op.g] == "1"; });
  ASSERT_EQ(s.ops.size(), 1u);
  EXPECT_TRUE(CheckFollowed(s, WrittenTrace(program(false, false), dir_)).exact);
  EXPECT_TRUE(CheckFollowed(s, WrittenTrace(program(false, true), dir_)).exact)
      << "a skip that changed nothing";
  FollowResult f = CheckFollowed(s, WrittenTrace(program(true, true), dir_));
  EXPECT_TRUE(Diverged(f, "goroutine 1 operation #0 (lock at /p/main.go:10), which the schedule puts "
                          "after it, took effect first (the replay skipped op 0"));
}

// The replay's operation at another line of the same file (line 100 where
// the schedule has line 10: the schedule's text is a prefix of the
// replay's) is a divergence that names both.
TEST_F(FromTraceTest, AnOperationAtAnotherLineIsADivergence) {
  trace::Trace t = WrittenTrace(SelectCondMutexPanic(), dir_);
  Schedule s = FromTrace(t, dir_);
  trace::Trace r = t;
  trace::Site other = r.sites[r.records[Find(r, "1.0", Kind::MutexLock)].site];
  other.line = 100;
  r.sites.push_back(other);
  r.records[Find(r, "1.0", Kind::MutexLock)].site = static_cast<uint32_t>(r.sites.size() - 1);
  FollowResult f = CheckFollowed(s, r);
  EXPECT_TRUE(f.complete == false || !f.exact);
  EXPECT_TRUE(Diverged(f, "the replay did lock at /p/main.go:100"));
  EXPECT_TRUE(CheckFollowed(s, t).exact);  // the same trace unchanged follows it
}

// A test binary's run: main (1) runs TestA (1.0), which locks and unlocks a
// mutex, then TestB (1.1), which spawns a worker (1.1.0) that sends to it.
// spawn_between: main spawns a goroutine that is not a test between them.
TraceWriter TwoTests(bool spawn_between) {
  TraceWriter w;
  uint32_t site = w.AddSite("/p/x_test.go", 7, "p.TestB");
  w.SetMeta("arg.0", "/tmp/p.test");
  w.SetMeta("argc", "3");
  w.SetMeta("arg.1", "-test.run=^Test");
  w.SetMeta("arg.2", "-test.count=3");
  uint32_t mu = w.NewObject(), c = w.NewObject();
  uint32_t a = w.Go(1, site);
  w.Op(a, Kind::TestStart, 1, w.AddString("TestA"), site);
  RecordRef l = w.Pre(a, Kind::MutexLock, mu, site);
  w.Post(l, 0);
  w.Op(a, Kind::MutexUnlock, mu, 0, site);
  w.Op(a, Kind::TestEnd, 1, 0, site);
  if (spawn_between) w.Go(1, site);
  uint32_t b = w.Go(1, site);
  w.Op(b, Kind::TestStart, 2, w.AddString("TestB"), site);
  w.Op(b, Kind::ChanMake, c, 0, site);
  uint32_t worker = w.Go(b, site);
  RecordRef r = w.Pre(b, Kind::ChanRecv, c, site);
  RecordRef snd = w.Pre(worker, Kind::ChanSend, c, site);
  w.Post(snd, 1);
  w.Post(r, 1);
  w.Op(b, Kind::TestEnd, 2, 0, site);
  return w;
}

TEST_F(FromTraceTest, ATestAloneKeepsItsGoroutinesRenamedAsWhenItRunsAlone) {
  trace::Trace t = WrittenTrace(TwoTests(false), dir_);
  Schedule all = FromTrace(t, dir_);
  Schedule s;
  std::string why;
  ASSERT_TRUE(FromTraceForTest(t, dir_, "TestB", &s, &why)) << why;
  // Alone, TestB is main's first spawn: 1.1 becomes 1.0, its worker 1.0.0.
  EXPECT_EQ(s.goroutines, (std::vector<std::string>{"1", "1.0", "1.0.0"}));
  ASSERT_EQ(s.ops.size(), 2u) << "TestB's receive and its worker's send; not TestA's lock";
  for (const Op& op : s.ops) {
    EXPECT_TRUE(op.kind == Kind::ChanSend || op.kind == Kind::ChanRecv);
    EXPECT_NE(op.g, 0u) << "main has no operation of TestB";
  }
  EXPECT_LT(s.ops.size(), all.ops.size());
  // Its end gate follows its two operations; the other test's end is gone.
  ASSERT_EQ(s.test_ends.size(), 1u);
  EXPECT_EQ(s.test_ends[0].g, 1u);
  EXPECT_EQ(s.test_ends[0].pos, 2u);
  // The command runs TestB once.
  EXPECT_EQ(s.cmd.args.front(), "-test.run=^TestB$");
  for (const std::string& a : s.cmd.args) {
    EXPECT_EQ(a.rfind("-test.count=", 0), std::string::npos) << a;
    EXPECT_NE(a, "-test.run=^Test");
  }
}

TEST_F(FromTraceTest, KeepingSomeGoroutinesListsWhatFilteringTheWholeScheduleWould) {
  trace::Trace t = WrittenTrace(TwoTests(false), dir_);
  const Schedule all = FromTrace(t, dir_);
  for (const std::string& kept_id : {std::string("1.1"), std::string("1.0"), std::string("1")}) {
    SCOPED_TRACE(kept_id);
    auto keep = [&](const std::string& id) {
      return id == kept_id || id.rfind(kept_id + ".", 0) == 0;
    };
    const Schedule part = FromTrace(t, dir_, keep);
    EXPECT_EQ(part.goroutines, all.goroutines);
    // The whole schedule's operations of the kept goroutines, in order, and
    // each gate's position counted among them.
    std::vector<uint32_t> before(all.ops.size() + 1, 0);
    std::vector<std::string> want;
    for (size_t i = 0; i < all.ops.size(); i++) {
      const bool in = keep(all.goroutines[all.ops[i].g]);
      before[i + 1] = before[i] + in;
      if (in) want.push_back(fmt::format("{} {} #{} {}", all.ops[i].g, KindName(all.ops[i].kind),
                                         all.ops[i].index, all.ops[i].val));
    }
    std::vector<std::string> got;
    for (const Op& op : part.ops) {
      got.push_back(fmt::format("{} {} #{} {}", op.g, KindName(op.kind), op.index, op.val));
    }
    EXPECT_EQ(got, want);
    std::vector<std::string> want_ends, got_ends;
    for (const Gate& g : all.test_ends) {
      if (keep(all.goroutines[g.g])) want_ends.push_back(fmt::format("{} {} {}", g.g, g.index, before[g.pos]));
    }
    for (const Gate& g : part.test_ends) got_ends.push_back(fmt::format("{} {} {}", g.g, g.index, g.pos));
    EXPECT_EQ(got_ends, want_ends);
    EXPECT_FALSE(got.empty() && got_ends.empty()) << "something of " << kept_id << " is kept";
  }
}

// main sends the first value on an unbuffered channel; 1.0, its receiver,
// was parked when the process died (no completion), and 1.1's receive never
// got a value. 1.0's receive is repaired (right after the send, with its
// value), 1.1's comes after every completed operation on the channel; a
// buffered channel's send needs no receiver, so nothing is repaired there.
// Keeping one goroutine lists its operations as the whole schedule does.
TEST_F(FromTraceTest, AParkedReceiverIsRepairedAlsoWhenOnlyItsGoroutineIsKept) {
  for (uint32_t cap : {0u, 1u}) {
    SCOPED_TRACE(cap);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    TraceWriter w;
    uint32_t site = w.AddSite("/p/main.go", 10, "main.main");
    uint32_t c = w.NewObject();
    w.Op(1, Kind::ChanMake, c, cap, site);
    uint32_t g0 = w.Go(1, site);
    uint32_t g1 = w.Go(1, site);
    w.Pre(g0, Kind::ChanRecv, c, site);  // parked: its completion never written
    RecordRef send = w.Pre(1, Kind::ChanSend, c, site);
    w.Pre(g1, Kind::ChanRecv, c, site);  // started before the send completed, never got a value
    w.Post(send, 1);
    w.Op(1, Kind::MutexLock, w.NewObject(), 0, site);
    w.SetMeta("arg.0", "/tmp/x");
    trace::Trace t = WrittenTrace(w, dir_);
    const std::vector<TraceOp> all = ControlledOps(t);
    auto where = [&](const std::vector<TraceOp>& ops, uint32_t gid) {
      std::vector<std::string> out;
      for (const TraceOp& o : ops) {
        if (o.gid == gid) out.push_back(fmt::format("{} {} {} {}", o.rec, o.key, o.repaired, o.val));
      }
      return out;
    };
    const uint32_t recv0 = Find(t, "1.0", Kind::ChanRecv), recv1 = Find(t, "1.1", Kind::ChanRecv);
    const uint32_t sent = Find(t, "1", Kind::ChanSend);
    auto at = [&](uint32_t rec) {
      return std::find_if(all.begin(), all.end(), [&](const TraceOp& o) { return o.rec == rec; }) - all.begin();
    };
    auto op_of = [&](uint32_t rec) { return all[static_cast<size_t>(at(rec))]; };
    if (cap == 0) {
      EXPECT_TRUE(op_of(recv0).repaired);
      EXPECT_EQ(op_of(recv0).val, 1u);
      EXPECT_EQ(at(recv0), at(sent) + 1) << "right after its partner";
    } else {
      EXPECT_FALSE(op_of(recv0).repaired) << "a buffered send had no receiver";
    }
    EXPECT_FALSE(op_of(recv1).repaired);
    EXPECT_GT(at(recv1), at(sent)) << "a blocked receive after the completed send";
    for (uint32_t gid : {1u, g0, g1}) {
      std::vector<uint8_t> kept(gid + 1, 0);
      kept[gid] = 1;
      const std::vector<TraceOp> part = ControlledOps(t, &kept);
      EXPECT_EQ(where(part, gid), where(all, gid)) << gid;
      EXPECT_EQ(part.size(), where(all, gid).size()) << "only the kept goroutine's operations";
    }
  }
}

TEST_F(FromTraceTest, TheCountOfOperationsIsTheWholeSchedulesWithoutMakingIt) {
  for (bool between : {false, true}) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    trace::Trace t = WrittenTrace(TwoTests(between), dir_);
    const size_t n = FromTrace(t, dir_).ops.size();
    EXPECT_GT(n, 0u);
    EXPECT_EQ(ControlledOpCount(t), n);
  }
}

TEST_F(FromTraceTest, ATestAloneIsRefusedWhenItsSpawnPathCannotBeKnown) {
  Schedule s;
  std::string why;
  trace::Trace t = WrittenTrace(TwoTests(false), dir_);
  EXPECT_FALSE(FromTraceForTest(t, dir_, "TestC", &s, &why));
  EXPECT_NE(why.find("no test TestC"), std::string::npos) << why;
  // A goroutine main spawned after TestA may depend on TestA having run.
  fs::remove_all(dir_);
  fs::create_directories(dir_);
  trace::Trace t2 = WrittenTrace(TwoTests(true), dir_);
  EXPECT_FALSE(FromTraceForTest(t2, dir_, "TestB", &s, &why));
  EXPECT_NE(why.find("between the tests"), std::string::npos) << why;
  // TestA came before it: it is still main's first spawn.
  EXPECT_TRUE(FromTraceForTest(t2, dir_, "TestA", &s, &why)) << why;
  EXPECT_EQ(s.goroutines, (std::vector<std::string>{"1", "1.0"}));
}

}  // namespace
}  // namespace gordian::schedule
