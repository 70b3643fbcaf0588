// End-to-end tests of the recorder: each program of runtime/testdata/record
// (its expected behaviour is stated at its top) is built with the runtime
// hooks, run with recording on, and its trace read back with the C++ reader.
// Recording off must not change a program's output or exit status.
#include <algorithm>
#include <csignal>
#include <thread>
#include <tuple>

#include "gordian/instrument/go_test_util.h"
#include "gordian/trace/trace.h"

namespace gordian::instrument::gotest {
namespace {

using trace::Kind;
using trace::Record;
using trace::Trace;

class RecordTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!Env::Get().ok()) GTEST_SKIP() << Env::Get().error();
  }
  // Builds runtime/testdata/record/<name>.go with the hooks (once).
  fs::path Hooked(const std::string& name) {
    fs::path bin = Env::Get().work() / "bin" / (name + ".hook");
    if (!fs::exists(bin)) {
      std::string err = Env::Get().Build(TestdataDir() + "/" + name + ".go", bin, true);
      EXPECT_EQ(err, "");
    }
    return bin;
  }
  fs::path Plain(const std::string& name) {
    fs::path bin = Env::Get().work() / "bin" / (name + ".plain");
    if (!fs::exists(bin)) {
      std::string err = Env::Get().Build(TestdataDir() + "/" + name + ".go", bin, false);
      EXPECT_EQ(err, "");
    }
    return bin;
  }
  fs::path TraceDir(const std::string& name) { return Env::Get().work() / "traces" / name; }
  Trace Read(const fs::path& dir) {
    Trace t;
    std::string err;
    EXPECT_TRUE(trace::ReadTrace(dir.string(), &t, &err)) << err;
    return t;
  }
};

// Sends and receives on obj, by value sequence number.
std::map<uint32_t, int> SeqCount(const Trace& t, Kind k, uint32_t obj) {
  std::map<uint32_t, int> m;
  for (const Record& r : t.records) {
    if (r.kind == k && r.obj == obj && r.tpost != 0 && r.val != 0) m[r.val]++;
  }
  return m;
}

TEST_F(RecordTest, Basic) {
  RunResult r = RunProgram(Hooked("basic"), "", TraceDir("basic"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "sum 45\n");
  Trace t = Read(TraceDir("basic"));
  const trace::Goroutine* main = ByStableId(t, "1");
  const trace::Goroutine* worker = ByStableId(t, "1.0");
  ASSERT_NE(main, nullptr);
  ASSERT_NE(worker, nullptr);

  auto mk = OfKind(t, *main, Kind::ChanMake);
  ASSERT_EQ(mk.size(), 1u);
  const uint32_t ch = mk[0].obj;
  EXPECT_EQ(mk[0].val, 0u);
  EXPECT_TRUE(t.SiteOf(mk[0]).user);
  EXPECT_EQ(t.SiteOf(mk[0]).line, 15u);

  auto sends = OfKind(t, *main, Kind::ChanSend);
  auto recvs = OfKind(t, *worker, Kind::ChanRecv);
  ASSERT_EQ(sends.size(), 10u);
  ASSERT_EQ(recvs.size(), 11u);  // 10 values and the receive that sees the close
  for (uint32_t i = 0; i < 10; i++) {
    EXPECT_EQ(sends[i].obj, ch);
    EXPECT_EQ(sends[i].val, i + 1);
    EXPECT_EQ(recvs[i].val, i + 1);
    EXPECT_LT(sends[i].tpre, sends[i].tpost);
    EXPECT_LT(sends[i].tpost, recvs[i].tpost) << "a send completes before its receive";
  }
  EXPECT_EQ(recvs[10].val, 0u);
  EXPECT_EQ(recvs[10].flags & trace::kClosed, trace::kClosed);
  auto closes = OfKind(t, *main, Kind::ChanClose);
  ASSERT_EQ(closes.size(), 1u);
  EXPECT_EQ(closes[0].val, 10u);
  EXPECT_EQ(closes[0].tpre, closes[0].tpost);
  EXPECT_LT(closes[0].tpost, recvs[10].tpost);

  auto adds = OfKind(t, *main, Kind::WgAdd);
  auto dones = OfKind(t, *worker, Kind::WgAdd);
  ASSERT_EQ(adds.size(), 1u);
  ASSERT_EQ(dones.size(), 1u);
  EXPECT_EQ(static_cast<int32_t>(adds[0].val), 1);
  EXPECT_EQ(static_cast<int16_t>(adds[0].aux), 1);
  EXPECT_EQ(static_cast<int32_t>(dones[0].val), -1);
  EXPECT_EQ(static_cast<int16_t>(dones[0].aux), 0);
  EXPECT_EQ(dones[0].obj, adds[0].obj);
  auto waits = OfKind(t, *main, Kind::WgWait);
  ASSERT_EQ(waits.size(), 1u);
  EXPECT_LT(dones[0].tpost, waits[0].tpost);

  auto locks = OfKind(t, *worker, Kind::MutexLock);
  auto unlocks = OfKind(t, *worker, Kind::MutexUnlock);
  ASSERT_EQ(locks.size(), 10u);
  ASSERT_EQ(unlocks.size(), 10u);
  for (size_t i = 0; i < 10; i++) {
    EXPECT_EQ(locks[i].obj, locks[0].obj);
    EXPECT_EQ(unlocks[i].obj, locks[0].obj);
    EXPECT_EQ(unlocks[i].flags & trace::kFailed, 0);
  }

  auto spawns = OfKind(t, *main, Kind::GoSpawn);
  ASSERT_EQ(spawns.size(), 1u);
  EXPECT_EQ(spawns[0].obj, worker->gid);
  EXPECT_EQ(spawns[0].val, 0u);
  auto rs = t.RecordsOf(*worker);
  ASSERT_FALSE(rs.empty());
  EXPECT_EQ(rs.front().kind, Kind::GoStart);
  EXPECT_EQ(rs.front().obj, main->gid);
  EXPECT_EQ(rs.back().kind, Kind::GoEnd);
  auto exits = OfKind(t, *main, Kind::ProgramExit);
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].val, 0u);
  EXPECT_EQ(t.meta["exit_status"], "0");
  EXPECT_EQ(t.meta["exit_reason"], "main-returned");
  EXPECT_FALSE(t.truncated);
}

TEST_F(RecordTest, Selects) {
  RunResult r = RunProgram(Hooked("selects"), "", TraceDir("selects"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "n 4\nclosed 0 false\ndefault\n");
  Trace t = Read(TraceDir("selects"));
  const trace::Goroutine* main = ByStableId(t, "1");
  ASSERT_NE(main, nullptr);
  auto rs = t.RecordsOf(*main);
  std::vector<size_t> sel;
  for (size_t i = 0; i < rs.size(); i++) {
    if (rs[i].kind == Kind::Select) sel.push_back(i);
  }
  ASSERT_EQ(sel.size(), 7u);
  // The four 2-case selects: one chosen case each, partnered with a send.
  for (size_t k = 0; k < 4; k++) {
    const Record& s = rs[sel[k]];
    ASSERT_EQ(s.aux, 2);
    EXPECT_EQ(s.flags & trace::kHasDefault, 0);
    int chosen = 0;
    for (size_t c = 0; c < 2; c++) {
      const Record& cs = rs[sel[k] + 1 + c];
      ASSERT_EQ(cs.kind, Kind::SelectCase);
      EXPECT_EQ(cs.aux, c);
      EXPECT_EQ(cs.flags & trace::kDirRecv, trace::kDirRecv);
      EXPECT_EQ(cs.flags & trace::kZeroSize, 0) << "chan int and chan string elements have a size";
      EXPECT_EQ(cs.tpre, s.tpre);
      if (cs.flags & trace::kChosen) {
        chosen++;
        EXPECT_EQ(s.val, c);
        EXPECT_EQ(cs.tpost, s.tpost);
        EXPECT_EQ(SeqCount(t, Kind::ChanSend, cs.obj)[cs.val], 1) << "select receive without its send";
      }
    }
    EXPECT_EQ(chosen, 1);
  }
  // Receives are laid out in reverse source order: case 0 is b (buffered,
  // made second), case 1 is a.
  auto mk = OfKind(t, *main, Kind::ChanMake);
  ASSERT_GE(mk.size(), 2u);
  EXPECT_EQ(rs[sel[0] + 1].obj, mk[1].obj);
  EXPECT_EQ(rs[sel[0] + 2].obj, mk[0].obj);
  // select { case <-done (closed): ... default: }
  const Record& s4 = rs[sel[4]];
  EXPECT_EQ(s4.aux, 1);
  EXPECT_EQ(s4.flags & trace::kHasDefault, trace::kHasDefault);
  EXPECT_EQ(s4.val, 0u);
  EXPECT_EQ(rs[sel[4] + 1].flags & (trace::kChosen | trace::kClosed), trace::kChosen | trace::kClosed);
  // done is a chan struct{}: its receives (<-done, and the case above) are
  // flagged kZeroSize.
  ASSERT_GE(mk.size(), 3u);
  EXPECT_EQ(rs[sel[4] + 1].obj, mk[2].obj);
  EXPECT_EQ(rs[sel[4] + 1].flags & trace::kZeroSize, trace::kZeroSize);
  int done_recvs = 0;
  for (size_t i = sel[3]; i < sel[4]; i++) {
    if (rs[i].kind != Kind::ChanRecv || rs[i].obj != mk[2].obj) continue;
    done_recvs++;
    EXPECT_EQ(rs[i].flags & trace::kZeroSize, trace::kZeroSize);
  }
  EXPECT_EQ(done_recvs, 1);
  // select { case a <- 1: default: } takes the default.
  const Record& s5 = rs[sel[5]];
  EXPECT_EQ(s5.val, trace::kDefaultCase);
  EXPECT_EQ(rs[sel[5] + 1].flags & trace::kDirSend, trace::kDirSend);
  EXPECT_EQ(rs[sel[5] + 1].flags & trace::kChosen, 0);
  // <-time.After(d): a library channel, recorded because user code uses it.
  bool timer = false;
  for (size_t i = sel[5]; i < sel[6]; i++) {
    if (rs[i].kind == Kind::ChanRecv && rs[i].val == 1 && rs[i].tpost != 0) timer = true;
  }
  EXPECT_TRUE(timer);
  // The 3-case select with nil channel cases: sends first (nilch <- 1), then
  // the receives in reverse order (<-c, <-nilch).
  const Record& s6 = rs[sel[6]];
  ASSERT_EQ(s6.aux, 3);
  EXPECT_EQ(rs[sel[6] + 1].obj, 0u);
  EXPECT_EQ(rs[sel[6] + 1].flags & trace::kDirSend, trace::kDirSend);
  EXPECT_EQ(rs[sel[6] + 3].obj, 0u);
  EXPECT_EQ(s6.val, 1u);
  EXPECT_EQ(rs[sel[6] + 2].flags & trace::kChosen, trace::kChosen);
  EXPECT_EQ(rs[sel[6] + 2].flags & trace::kZeroSize, 0);
}

TEST_F(RecordTest, SyncPrimitives) {
  RunResult r = RunProgram(Hooked("syncprims"), "", TraceDir("syncprims"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "once 1\nwoken 3\nsignalled\n");
  Trace t = Read(TraceDir("syncprims"));
  const trace::Goroutine* main = ByStableId(t, "1");
  ASSERT_NE(main, nullptr);
  auto once = OfKind(t, *main, Kind::OnceDo);
  ASSERT_EQ(once.size(), 2u);
  EXPECT_EQ(once[0].flags & trace::kSuccess, trace::kSuccess);
  EXPECT_EQ(once[1].flags & trace::kSuccess, 0);
  EXPECT_EQ(once[0].obj, once[1].obj);
  EXPECT_EQ(OfKind(t, *main, Kind::RLock).size(), 1u);
  EXPECT_EQ(OfKind(t, *main, Kind::RUnlock).size(), 1u);
  EXPECT_EQ(OfKind(t, *main, Kind::RWLock).size(), 1u);
  EXPECT_EQ(OfKind(t, *main, Kind::RWUnlock).size(), 2u);
  auto trylock = OfKind(t, *main, Kind::RWTryLock);
  ASSERT_EQ(trylock.size(), 1u);
  EXPECT_EQ(trylock[0].flags & trace::kSuccess, trace::kSuccess);
  auto mtry = OfKind(t, *main, Kind::MutexTryLock);
  ASSERT_EQ(mtry.size(), 2u);
  EXPECT_EQ(mtry[0].flags & trace::kSuccess, trace::kSuccess);
  EXPECT_EQ(mtry[1].flags & trace::kSuccess, 0);

  // Cond partners.
  std::vector<Record> waits, signals, broadcasts;
  for (const Record& rec : t.records) {
    if (rec.kind == Kind::CondWait) waits.push_back(rec);
    if (rec.kind == Kind::CondSignal) signals.push_back(rec);
    if (rec.kind == Kind::CondBroadcast) broadcasts.push_back(rec);
  }
  ASSERT_EQ(waits.size(), 4u);
  ASSERT_EQ(broadcasts.size(), 1u);
  ASSERT_EQ(signals.size(), 1u);
  int by_broadcast = 0, by_signal = 0;
  for (const Record& w : waits) {
    ASSERT_NE(w.tpost, 0u);
    const Record& b = broadcasts[0];
    if (b.val - b.aux < w.val && w.val <= b.val) {
      by_broadcast++;
      EXPECT_LT(b.tpost, w.tpost);
    }
    if (signals[0].val == w.val) {
      by_signal++;
      EXPECT_LT(signals[0].tpost, w.tpost);
    }
  }
  EXPECT_EQ(by_broadcast, 3);
  EXPECT_EQ(by_signal, 1);
  EXPECT_EQ(broadcasts[0].aux, 3);
}

TEST_F(RecordTest, PanicSendOnClosed) {
  RunResult r = RunProgram(Hooked("panicclosed"), "", TraceDir("panicclosed"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("panic: send on closed channel"), std::string::npos) << r.err;
  Trace t = Read(TraceDir("panicclosed"));
  const trace::Goroutine* main = ByStableId(t, "1");
  ASSERT_NE(main, nullptr);
  auto sends = OfKind(t, *main, Kind::ChanSend);
  ASSERT_EQ(sends.size(), 2u);
  EXPECT_EQ(sends[1].flags & trace::kClosed, trace::kClosed);
  EXPECT_NE(sends[1].tpost, 0u);
  auto panics = OfKind(t, *main, Kind::Panic);
  ASSERT_EQ(panics.size(), 1u);
  ASSERT_LT(panics[0].val, t.strings.size());
  EXPECT_EQ(t.strings[panics[0].val], "send on closed channel");
  auto exits = OfKind(t, *main, Kind::ProgramExit);
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].val, 2u);
  EXPECT_EQ(exits[0].aux, static_cast<uint16_t>(trace::ExitHow::FatalPanic));
  EXPECT_EQ(t.meta["exit_reason"], "panic");
}

TEST_F(RecordTest, OsExit) {
  RunResult r = RunProgram(Hooked("osexit"), "", TraceDir("osexit"));
  EXPECT_EQ(r.status, 7);
  EXPECT_EQ(r.out, "bye\n");
  Trace t = Read(TraceDir("osexit"));
  EXPECT_EQ(CountKind(t, Kind::ProgramExit), 1u);
  EXPECT_EQ(t.meta["exit_status"], "7");
  EXPECT_EQ(t.meta["exit_reason"], "os.Exit");
}

TEST_F(RecordTest, GlobalDeadlock) {
  RunResult r = RunProgram(Hooked("deadlock"), "", TraceDir("deadlock"), "GORDIAN_DEADLOCK_MS=300", 30);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("gordian: global deadlock: all 2 goroutines are blocked"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("[sync.Mutex.Lock] main.main at "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[chan send] main.main.func1 at "), std::string::npos) << r.err;
  Trace t = Read(TraceDir("deadlock"));
  const trace::Goroutine* main = ByStableId(t, "1");
  const trace::Goroutine* worker = ByStableId(t, "1.0");
  ASSERT_NE(main, nullptr);
  ASSERT_NE(worker, nullptr);
  ASSERT_FALSE(t.RecordsOf(*main).empty());
  EXPECT_EQ(t.RecordsOf(*main).back().kind, Kind::MutexLock);
  EXPECT_EQ(t.RecordsOf(*main).back().tpost, 0u);
  EXPECT_NE(t.RecordsOf(*main).back().tpre, 0u);
  EXPECT_EQ(t.RecordsOf(*worker).back().kind, Kind::ChanSend);
  EXPECT_EQ(t.RecordsOf(*worker).back().tpost, 0u);
  bool found = false;
  for (const trace::Goroutine& g : t.goroutines) {
    auto rs = t.RecordsOf(g);
    if (rs.size() == 3 && rs[0].kind == Kind::GoStart && rs[0].val == trace::kRecorderChildIndex) {
      EXPECT_EQ(rs[1].kind, Kind::GlobalDeadlock);
      EXPECT_EQ(rs[1].obj, 2u);
      EXPECT_EQ(rs[2].kind, Kind::ProgramExit);
      EXPECT_EQ(rs[2].val, 3u);
      EXPECT_EQ(rs[2].aux, static_cast<uint16_t>(trace::ExitHow::GlobalDeadlock));
      found = true;
    }
  }
  EXPECT_TRUE(found) << "no recorder pseudo-goroutine";
  EXPECT_EQ(t.meta["exit_reason"], "deadlock");
}

TEST_F(RecordTest, PendingUserCallbackIsNotADeadlock) {
  RunResult r =
      RunProgram(Hooked("notdeadlock"), "", TraceDir("notdeadlock"), "GORDIAN_DEADLOCK_MS=200", 30);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "done\n");
  EXPECT_EQ(r.err, "");
}

// The same program when gordian's limit for the run (GORDIAN_WALL_MS)
// ends before the callback is due: the callback cannot unblock anything
// before the kill, so the watchdog reports the deadlock at once instead of
// leaving the program to the limit.
TEST_F(RecordTest, CallbackDueAfterTheWallIsIgnored) {
  RunResult r = RunProgram(Hooked("notdeadlock"), "", TraceDir("notdeadlock-wall"),
                           "GORDIAN_DEADLOCK_MS=200 GORDIAN_WALL_MS=1000", 30);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("global deadlock: all 1 goroutines are blocked"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("due after gordian's -wall limit"), std::string::npos) << r.err;
  Trace t = Read(TraceDir("notdeadlock-wall"));
  EXPECT_EQ(t.meta["exit_reason"], "deadlock");
  // A limit past the callback: it runs and the program ends normally.
  RunResult later = RunProgram(Hooked("notdeadlock"), "", TraceDir("notdeadlock-wall2"),
                               "GORDIAN_DEADLOCK_MS=200 GORDIAN_WALL_MS=5000", 30);
  EXPECT_EQ(later.status, 0) << later.err;
  EXPECT_EQ(later.out, "done\n");
}

TEST_F(RecordTest, KilledProgramLeavesItsTrace) {
  fs::path bin = Hooked("killed");
  fs::path dir = TraceDir("killed");
  fs::remove_all(dir);
  // Start it in the background, wait for "ready", kill -9.
  fs::path out = Env::Get().work() / "killed.out";
  std::string cmd = "env GORDIAN_TRACE_DIR=" + ShellQuote(dir.string()) + " GORDIAN_ROOTS=" +
                    ShellQuote(TestdataDir()) + " " + ShellQuote(bin.string()) + " >" +
                    ShellQuote(out.string()) + " 2>&1 & pid=$!; for i in $(seq 1 200); do "
                    "grep -q ready " + ShellQuote(out.string()) +
                    " && break; sleep 0.05; done; kill -9 $pid; wait $pid; exit $?";
  RunResult r = Shell(cmd, Env::Get().work());
  EXPECT_EQ(r.status, 128 + SIGKILL);
  Trace t = Read(dir);
  const trace::Goroutine* main = ByStableId(t, "1");
  const trace::Goroutine* worker = ByStableId(t, "1.0");
  ASSERT_NE(main, nullptr);
  ASSERT_NE(worker, nullptr);
  auto sends = OfKind(t, *main, Kind::ChanSend);
  auto recvs = OfKind(t, *worker, Kind::ChanRecv);
  ASSERT_EQ(sends.size(), 5u);
  ASSERT_GE(recvs.size(), 5u);
  for (size_t i = 0; i < 5; i++) EXPECT_EQ(sends[i].val, recvs[i].val);
  EXPECT_EQ(t.meta.count("exit_status"), 0u);
}

TEST_F(RecordTest, WaitGroupGoAndNegativeCounter) {
  RunResult r = RunProgram(Hooked("wgmisc"), "", TraceDir("wgmisc"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "ran 5\n");
  EXPECT_NE(r.err.find("panic: sync: negative WaitGroup counter"), std::string::npos) << r.err;
  Trace t = Read(TraceDir("wgmisc"));
  const trace::Goroutine* main = ByStableId(t, "1");
  ASSERT_NE(main, nullptr);
  auto adds = OfKind(t, *main, Kind::WgAdd);
  ASSERT_EQ(adds.size(), 6u);
  for (size_t i = 0; i < 5; i++) {
    EXPECT_EQ(static_cast<int32_t>(adds[i].val), 1);
    EXPECT_EQ(t.SiteOf(adds[i]).line, 17u) << "wg.Go's Add is at the wg.Go call";
  }
  EXPECT_EQ(static_cast<int32_t>(adds[5].val), -1);
  EXPECT_EQ(static_cast<int16_t>(adds[5].aux), -1);
  EXPECT_EQ(adds[5].flags & trace::kFailed, trace::kFailed);
  size_t dones = 0;
  for (const Record& rec : t.records) {
    if (rec.kind == Kind::WgAdd && static_cast<int32_t>(rec.val) == -1 && !(rec.flags & trace::kFailed)) {
      dones++;
      EXPECT_EQ(t.SiteOf(rec).line, 17u);
    }
  }
  EXPECT_EQ(dones, 5u);
  auto panics = OfKind(t, *main, Kind::Panic);
  ASSERT_EQ(panics.size(), 1u);
  EXPECT_EQ(t.strings.at(panics[0].val), "sync: negative WaitGroup counter");
}

TEST_F(RecordTest, UnlockOfUnlockedMutex) {
  RunResult r = RunProgram(Hooked("unlockfatal"), "", TraceDir("unlockfatal"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("fatal error: sync: unlock of unlocked mutex"), std::string::npos) << r.err;
  Trace t = Read(TraceDir("unlockfatal"));
  const trace::Goroutine* main = ByStableId(t, "1");
  ASSERT_NE(main, nullptr);
  auto unlocks = OfKind(t, *main, Kind::MutexUnlock);
  ASSERT_EQ(unlocks.size(), 2u);
  EXPECT_EQ(unlocks[0].flags & trace::kFailed, 0);
  EXPECT_EQ(unlocks[1].flags & trace::kFailed, trace::kFailed);
  auto exits = OfKind(t, *main, Kind::ProgramExit);
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].aux, static_cast<uint16_t>(trace::ExitHow::FatalError));
  EXPECT_EQ(t.meta["exit_reason"], "fatal-error");
}

TEST_F(RecordTest, ManyGoroutinesBigSelectAndTruncation) {
  RunResult r = RunProgram(Hooked("many"), "-n 20000", TraceDir("many"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "sum 199990000\nchosen 150\n");
  Trace t = Read(TraceDir("many"));
  EXPECT_FALSE(t.truncated);
  EXPECT_EQ(CountKind(t, Kind::GoSpawn), 20000u);
  EXPECT_EQ(CountKind(t, Kind::ChanSend), 20001u);  // and main's c <- 1
  // Every send completed: the receiver completes a parked sender's record
  // even if the sender never runs again before main returns.
  for (const Record& rec : t.records) {
    if (rec.kind == Kind::ChanSend) {
      EXPECT_NE(rec.tpost, 0u);
    }
  }
  EXPECT_EQ(t.header.chunk_bytes, trace::kRecorderChunkBytes);
  const trace::Goroutine* main = ByStableId(t, "1");
  ASSERT_NE(main, nullptr);
  auto recvs = OfKind(t, *main, Kind::ChanRecv);
  ASSERT_EQ(recvs.size(), 20000u);
  std::map<uint32_t, int> seqs = SeqCount(t, Kind::ChanSend, recvs[0].obj);
  for (const Record& rec : recvs) EXPECT_EQ(seqs[rec.val], 1);
  auto rs = t.RecordsOf(*main);
  size_t sel = rs.size();
  for (size_t i = 0; i < rs.size(); i++) {
    if (rs[i].kind == Kind::Select) sel = i;
  }
  ASSERT_LT(sel, rs.size());
  const uint16_t fit = (trace::kRecorderChunkBytes - sizeof(trace::ChunkHeader)) / sizeof(Record) - 2;
  EXPECT_EQ(rs[sel].aux, fit);
  EXPECT_EQ(rs[sel].val, 149u);  // the runtime index: receives are laid out in reverse
  ASSERT_GE(rs.size(), sel + 1 + fit);
  for (size_t c = 0; c < fit; c++) EXPECT_EQ(rs[sel + 1 + c].kind, Kind::SelectCase);

  RunResult cut = RunProgram(Hooked("many"), "-n 20000", TraceDir("many_cut"), "GORDIAN_TRACE_MAX_MB=1");
  ASSERT_EQ(cut.status, 0) << cut.err;
  EXPECT_EQ(cut.out, r.out);
  Trace tc = Read(TraceDir("many_cut"));
  EXPECT_TRUE(tc.truncated);
  EXPECT_LT(CountKind(tc, Kind::GoSpawn), 20000u);
  EXPECT_EQ(tc.meta["truncated"], "1");
}

// Under an address-space limit (ulimit -v 3 GiB) the default 32 GiB
// reservation for events.bin fails; the recorder halves it until it fits
// and says so in meta.txt, instead of refusing to record.
TEST_F(RecordTest, AnAddressSpaceLimitShrinksTheTraceReservation) {
  fs::path dir = TraceDir("many_ulimit");
  fs::remove_all(dir);
  fs::path bin = Hooked("many");
  RunResult r = Shell("ulimit -v 3145728 && env GORDIAN_TRACE_DIR=" + ShellQuote(dir.string()) +
                          " timeout -s KILL 120 " + ShellQuote(bin.string()) + " -n 200",
                      bin.parent_path());
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  Trace t = Read(dir);
  EXPECT_FALSE(t.truncated);
  EXPECT_EQ(CountKind(t, Kind::GoSpawn), 200u);
  ASSERT_TRUE(t.meta.count("trace_max_mb")) << "the smaller reservation is recorded";
  EXPECT_LT(std::stoul(t.meta["trace_max_mb"]), 3072u);
}

TEST_F(RecordTest, CloseCompletesTheRecordsOfTheGoroutinesItWakes) {
  RunResult r = RunProgram(Hooked("closewake"), "", TraceDir("closewake"));
  ASSERT_EQ(r.status, 0) << r.err;
  Trace t = Read(TraceDir("closewake"));
  int recvs = 0, cases = 0;
  for (const Record& rec : t.records) {
    if (rec.kind == Kind::ChanRecv) {
      recvs++;
      EXPECT_NE(rec.tpost, 0u);
      EXPECT_EQ(rec.flags & trace::kClosed, trace::kClosed);
    }
    if (rec.kind == Kind::Select) {
      EXPECT_NE(rec.tpost, 0u);
      EXPECT_EQ(rec.val, 1u);  // receives are in reverse source order: <-never is 0, <-done 1
    }
    if (rec.kind == Kind::SelectCase && (rec.flags & trace::kChosen)) {
      cases++;
      EXPECT_EQ(rec.flags & trace::kClosed, trace::kClosed);
      EXPECT_NE(rec.obj, 0u);
    }
  }
  EXPECT_EQ(recvs, 2);
  EXPECT_EQ(cases, 1);
}

// The recorder drops the pages of old chunks from the process: a 96 MB
// trace leaves the recorded program's peak memory far below it, and a
// record in a chunk dropped long before (the waiter's receive) is still
// completed in place; every record reads back.
TEST_F(RecordTest, OldChunksLeaveTheProcessAndKeepTheirRecords) {
  RunResult r = RunProgram(Hooked("longtrace"), "", TraceDir("longtrace"));
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.out.rfind("locked 2000000\nhwm_kb ", 0), 0u) << r.out;
  const unsigned long hwm_kb = std::stoul(r.out.substr(r.out.find("hwm_kb ") + 7));
  Trace t = Read(TraceDir("longtrace"));
  EXPECT_FALSE(t.truncated);
  const size_t trace_kb = t.records.size() * sizeof(Record) / 1024;
  EXPECT_GT(trace_kb, 90'000u);
  EXPECT_LT(hwm_kb, trace_kb / 2) << "the trace's pages stayed in the process";
  EXPECT_EQ(CountKind(t, Kind::MutexLock), 2'000'002u);
  EXPECT_EQ(CountKind(t, Kind::MutexUnlock), 2'000'002u);
  const trace::Goroutine* waiter = ByStableId(t, "1.0");
  ASSERT_NE(waiter, nullptr);
  auto recvs = OfKind(t, *waiter, Kind::ChanRecv);
  ASSERT_EQ(recvs.size(), 1u);
  EXPECT_NE(recvs[0].tpost, 0u);
  EXPECT_EQ(OfKind(t, *waiter, Kind::MutexLock).size(), 2u);
  for (const Record& rec : t.records) {
    if (rec.kind == Kind::MutexLock) ASSERT_NE(rec.tpost, 0u);
  }
}

TEST_F(RecordTest, PanicMessages) {
  RunResult r = RunProgram(Hooked("panicmsg"), "", TraceDir("panicmsg"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "recovered 3\n");
  Trace t = Read(TraceDir("panicmsg"));
  const trace::Goroutine* main = ByStableId(t, "1");
  ASSERT_NE(main, nullptr);
  std::vector<std::string> msgs;
  for (const Record& rec : OfKind(t, *main, Kind::Panic)) {
    msgs.push_back(t.strings.at(rec.val));
    EXPECT_TRUE(t.SiteOf(rec).user) << "the panic call is in user code";
  }
  EXPECT_EQ(msgs, (std::vector<std::string>{"boom", "(main.myErr)", "(int)", "wrapped: EOF"}));
}

// Recording off: same output and exit status as the stock build.
TEST_F(RecordTest, RecordingOffChangesNothing) {
  for (const char* name : {"basic", "selects", "syncprims", "panicclosed", "osexit", "wgmisc",
                           "unlockfatal", "many", "panicmsg"}) {
    RunResult plain = RunProgram(Plain(name), "", "");
    RunResult off = RunProgram(Hooked(name), "", "");
    EXPECT_EQ(off.status, plain.status) << name;
    EXPECT_EQ(off.out, plain.out) << name;
    // Panic messages carry goroutine addresses: compare the first line.
    EXPECT_EQ(off.err.substr(0, off.err.find('\n')), plain.err.substr(0, plain.err.find('\n')))
        << name;
  }
}

TEST_F(RecordTest, LeaksAttributedToTests) {
  fs::path bin = Env::Get().work() / "bin" / "leaktest.test";
  ASSERT_EQ(Env::Get().BuildTest(TestdataDir() + "/leaktest", bin, true), "");
  RunResult r = RunProgram(bin, "-test.v", TraceDir("leaktest"));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  Trace t = Read(TraceDir("leaktest"));
  std::map<std::string, uint32_t> index;  // test name -> test index
  std::map<uint32_t, std::vector<Record>> blocked;
  std::map<uint32_t, int> ends;
  for (const Record& rec : t.records) {
    if (rec.kind == Kind::TestStart) index[t.strings.at(rec.val)] = rec.obj;
    if (rec.kind == Kind::BlockedAtTestEnd) blocked[rec.val].push_back(rec);
    if (rec.kind == Kind::TestEnd) ends[rec.obj]++;
  }
  ASSERT_EQ(index.size(), 3u);
  ASSERT_TRUE(index.count("TestLeak") && index.count("TestLeak/sub") && index.count("TestOK"));
  for (auto& [name, idx] : index) EXPECT_EQ(ends[idx], 1) << name;
  ASSERT_EQ(blocked[index["TestLeak"]].size(), 1u);
  EXPECT_EQ(blocked[index["TestLeak"]][0].aux, static_cast<uint16_t>(Kind::ChanSend));
  ASSERT_EQ(blocked[index["TestLeak/sub"]].size(), 1u);
  EXPECT_EQ(blocked[index["TestLeak/sub"]][0].aux, static_cast<uint16_t>(Kind::ChanRecv));
  EXPECT_EQ(blocked[index["TestOK"]].size(), 0u);
  // The goroutine named by BlockedAtTestEnd is indeed blocked in that kind.
  const trace::Goroutine* g = t.FindGoroutine(blocked[index["TestLeak"]][0].obj);
  ASSERT_NE(g, nullptr);
  ASSERT_FALSE(t.RecordsOf(*g).empty());
  EXPECT_EQ(t.RecordsOf(*g).back().kind, Kind::ChanSend);
  EXPECT_EQ(t.RecordsOf(*g).back().tpost, 0u);
  EXPECT_TRUE(t.SiteOf(t.RecordsOf(*g).back()).user);
}

// One TestCall per user call of a testing method, in the calling goroutine,
// naming the T's test index and the caller's line (testdata/testcalls).
TEST_F(RecordTest, TestingMethodCallsAreRecordedOncePerCall) {
  fs::path bin = Env::Get().work() / "bin" / "testcalls.test";
  ASSERT_EQ(Env::Get().BuildTest(TestdataDir() + "/testcalls", bin, true), "");
  RunResult r = RunProgram(bin, "-test.v", TraceDir("testcalls"));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  Trace t = Read(TraceDir("testcalls"));
  std::map<std::string, uint32_t> index;      // test name -> test index
  std::map<uint32_t, uint32_t> test_gid;      // test index -> its goroutine
  for (const trace::Goroutine& g : t.goroutines) {
    for (const Record& rec : t.RecordsOf(g)) {
      if (rec.kind != Kind::TestStart) continue;
      index[t.strings.at(rec.val)] = rec.obj;
      test_gid[rec.obj] = g.gid;
    }
  }
  ASSERT_TRUE(index.count("TestCalls") && index.count("TestCalls/sub"));
  // (test index, own goroutine?, class, line) of each TestCall, in stamp order.
  std::vector<std::tuple<uint32_t, bool, uint32_t, uint32_t>> calls;
  std::vector<std::pair<uint32_t, std::tuple<uint32_t, bool, uint32_t, uint32_t>>> by_stamp;
  for (const trace::Goroutine& g : t.goroutines) {
    for (const Record& rec : t.RecordsOf(g)) {
      if (rec.kind != Kind::TestCall) continue;
      EXPECT_TRUE(t.SiteOf(rec).user) << t.SiteOf(rec).file;
      by_stamp.push_back({rec.tpre, {rec.obj, test_gid[rec.obj] == g.gid, rec.val, t.SiteOf(rec).line}});
    }
  }
  std::sort(by_stamp.begin(), by_stamp.end());
  for (auto& [stamp, c] : by_stamp) calls.push_back(c);
  const uint32_t top = index["TestCalls"], sub = index["TestCalls/sub"];
  const uint32_t log = uint32_t(trace::TestCallClass::Log), skip = uint32_t(trace::TestCallClass::SkipNow);
  EXPECT_EQ(calls, (std::vector<std::tuple<uint32_t, bool, uint32_t, uint32_t>>{
                       {top, true, log, 15}, {top, true, log, 30}, {top, false, log, 21},
                       {sub, true, log, 25}, {sub, true, skip, 26}}));
}

TEST_F(RecordTest, DeadlockedTestExitsWithStatus3) {
  fs::path bin = Env::Get().work() / "bin" / "testdeadlock.test";
  ASSERT_EQ(Env::Get().BuildTest(TestdataDir() + "/testdeadlock", bin, true), "");
  RunResult r = RunProgram(bin, "-test.v", TraceDir("testdeadlock"), "GORDIAN_DEADLOCK_MS=300", 60);
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("gordian: global deadlock"), std::string::npos) << r.err;
  Trace t = Read(TraceDir("testdeadlock"));
  EXPECT_EQ(CountKind(t, Kind::GlobalDeadlock), 1u);
  EXPECT_EQ(CountKind(t, Kind::TestStart), 1u);
}

}  // namespace
}  // namespace gordian::instrument::gotest
