// Tests of read_goroutines.h: which goroutines' clock entries are kept, and
// the claim it rests on: the bugs and warnings (with their messages,
// locations and records) of the engine projected on the read goroutines
// are those of the engine with every entry, on the golden traces and on
// random runs, and no question asked of the projected engines (the strong
// one and the one without lock edges) has its a outside the read set.
#include "gordian/detect/read_goroutines.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "gordian/detect/clock_needs.h"
#include "gordian/detect/occurred.h"
#include "gordian/detect/predict.h"
#include "gordian/detect/differential_test.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/trace/text.h"

namespace gordian::detect {
namespace {

// The gids read, for a trace in the text format, every object eligible.
std::vector<uint32_t> ReadGids(const std::string& text) {
  trace::Trace t;
  std::string err;
  EXPECT_TRUE(trace::ParseTextTrace(text, "test.trace", &t, &err)) << err;
  hb::OpIndex ops;
  ops.Build(t);
  ClockNeeds needs = UnneededClocks(ops, 0);
  ReadGoroutines r = ReadGoroutinesOf(ops, needs.unneeded.get());
  std::vector<uint32_t> out;
  for (uint32_t g = 0; g < t.goroutines.size(); ++g) {
    if (r.read == nullptr || (*r.read)[g]) out.push_back(t.goroutines[g].gid);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ReadGoroutines, AFanOutOverExemptObjectsReadsOnlyTheAdder) {
  // Main Adds 2 and spawns two workers that take a plain mutex, send on a
  // channel only main receives from (in one loop: one site; receives at
  // two sites would keep their clocks, for concurrent receives, and the
  // senders would be read with them), and call Done.
  EXPECT_EQ(ReadGids("site 1 main.go 30 main.main\n"
                     "1 ChanMake obj=1 val=4\n"
                     "1 WgAdd obj=9 val=2\n"
                     "1 go 2\n"
                     "1 go 3\n"
                     "2 MutexLock obj=5\n"
                     "2 MutexUnlock obj=5\n"
                     "2 ChanSend obj=1 val=1\n"
                     "3 MutexLock obj=5\n"
                     "3 MutexUnlock obj=5\n"
                     "3 ChanSend obj=1 val=2\n"
                     "2 WgAdd obj=9 val=-1\n"
                     "3 WgAdd obj=9 val=-1\n"
                     "1 ChanRecv obj=1 val=1 @1\n"
                     "1 ChanRecv obj=1 val=2 @1\n"
                     "1 WgWait obj=9 val=0\n"),
            (std::vector<uint32_t>{1}));
}

TEST(ReadGoroutines, AGoroutineThatCallsATestingMethodIsRead) {
  // Testing after end asks Before(call, TestEnd): the caller's entry.
  EXPECT_EQ(ReadGids("1 go 2\n"
                     "2 TestStart obj=1 val=\"TestA\"\n"
                     "2 go 3\n"
                     "2 go 4\n"
                     "3 MutexLock obj=5\n"
                     "3 MutexUnlock obj=5\n"
                     "4 MutexLock obj=5\n"
                     "4 MutexUnlock obj=5\n"
                     "4 TestCall obj=1 val=2\n"
                     "2 TestEnd obj=1\n"),
            (std::vector<uint32_t>{4}));
}

TEST(ReadGoroutines, DonesThatSpawnsDoNotCoverAreRead) {
  // The Add comes after the spawn: the Done may run first (negative
  // WaitGroup), and the detector asks whether Done and Add are concurrent.
  EXPECT_EQ(ReadGids("1 go 2\n"
                     "1 WgAdd obj=9 val=1\n"
                     "2 MutexLock obj=5\n"
                     "2 MutexUnlock obj=5\n"
                     "2 WgAdd obj=9 val=-1\n"
                     "1 WgWait obj=9 val=0\n"),
            (std::vector<uint32_t>{1, 2}));
}

TEST(ReadGoroutines, GoroutinesOnNeededObjectsAreRead) {
  // 3 closes the channel 2 sends on (send on closed: both read, and 1,
  // which made it); 4 only takes a plain mutex.
  EXPECT_EQ(ReadGids("1 ChanMake obj=1 val=1\n"
                     "1 go 2\n"
                     "1 go 3\n"
                     "1 go 4\n"
                     "2 ChanSend obj=1 val=1\n"
                     "3 ChanClose obj=1\n"
                     "4 MutexLock obj=5\n"
                     "4 MutexUnlock obj=5\n"),
            (std::vector<uint32_t>{1, 2, 3}));
}

// Only the close keeps a clock (the b of Before(send, close)); the sends
// keep none, but their goroutines are the a's: read all the same. 4 takes
// only an exempt mutex.
TEST(ReadGoroutines, TheGoroutinesOfAnObjectsUnclockedRecordsAreRead) {
  trace::Trace t;
  std::string err;
  ASSERT_TRUE(trace::ParseTextTrace("1 ChanMake obj=1 val=4\n"
                                    "1 go 2\n"
                                    "1 go 3\n"
                                    "1 go 4\n"
                                    "2 ChanSend obj=1 val=1\n"
                                    "3 ChanSend obj=1 val=2\n"
                                    "4 MutexLock obj=5\n"
                                    "4 MutexUnlock obj=5\n"
                                    "1 ChanClose obj=1\n",
                                    "test.trace", &t, &err))
      << err;
  hb::OpIndex ops;
  ops.Build(t);
  hb::RecordMask unneeded(t.records.size());
  for (uint32_t i = 0; i < t.records.size(); ++i) {
    if (t.records[i].kind != trace::Kind::ChanClose) unneeded.Set(i);
  }
  ReadGoroutines r = ReadGoroutinesOf(ops, &unneeded);
  ASSERT_NE(r.read, nullptr);
  std::vector<uint32_t> gids;
  for (uint32_t g = 0; g < t.goroutines.size(); ++g) {
    if ((*r.read)[g]) gids.push_back(t.goroutines[g].gid);
  }
  EXPECT_EQ(gids, (std::vector<uint32_t>{1, 2, 3}));
}

TEST(ReadGoroutines, WithoutAnExemptionEveryGoroutineIsRead) {
  trace::Trace t;
  std::string err;
  ASSERT_TRUE(trace::ParseTextTrace("1 go 2\n1 MutexLock obj=5\n1 MutexUnlock obj=5\n", "t", &t,
                                    &err));
  hb::OpIndex ops;
  ops.Build(t);
  EXPECT_EQ(ReadGoroutinesOf(ops, nullptr).read, nullptr);
}

struct Outcome {
  std::vector<std::string> findings;  // bugs and warnings, with details
  uint64_t outside = 0;               // questions outside the read set
  uint32_t width = 0;                 // entries of the clocks
};

Outcome BugsAndWarnings(const trace::Trace& t, const hb::OpIndex& ops, const ClockNeeds& needs,
                        std::shared_ptr<const std::vector<uint8_t>> read) {
  hb::HbOptions o;
  o.unneeded = needs.unneeded;
  o.read_goroutines = std::move(read);
  hb::HappensBefore hb(o);
  std::string err;
  Outcome out;
  if (!hb.Build(ops, &err)) {
    out.findings = {"build failed: " + err};
    return out;
  }
  for (const report::Finding& f : testing::BugAndWarningFindings(t, ops, hb)) {
    std::string s = fmt::format("{} {} {}", report::KindName(f.kind), report::StatusName(f.status),
                                f.message);
    for (const report::Location& l : f.locations) {
      s += fmt::format(" {}:{}/{}", l.file, l.line, int(l.role));
    }
    for (uint32_t r : f.records) s += fmt::format(" #{}", r);
    for (const report::Step& st : f.interleaving) s += fmt::format(" [{}]", st.what);
    out.findings.push_back(std::move(s));
  }
  std::sort(out.findings.begin(), out.findings.end());
  out.outside = hb.QuestionsOutsideReadGoroutines();
  out.width = hb.clock_width();
  return out;
}

// A random run of 8 workers in the shape of a test that fans out work:
// main Adds to a WaitGroup before spawning the workers (or, in a quarter
// of the runs, Adds for each only after spawning it: a negative-WaitGroup
// bug); the workers take plain mutexes (exempt) and nested ones in either
// order (lock order), hand values over plain channels (exempt) and shared
// ones, close channels, run selects, do channel operations under locks,
// end blocked; then they call Done and main Waits. The busy workers do
// everything; the quiet ones (one of them spawned by a worker) only what
// clock_needs.h exempts, so that their entries are left out.
trace::Trace RandomFanOutRun(uint32_t seed) {
  std::mt19937 rng(seed);
  hb::testing::TraceBuilder b;
  b.set_auto_sites(false);
  constexpr uint32_t kMain = 1;
  constexpr int kWorkers = 7, kMutexes = 6, kChans = 6;
  const uint32_t wg = b.NewObject();
  const bool late_add = seed % 4 == 0;
  std::vector<uint32_t> gs;
  if (!late_add) b.WgAdd(kMain, wg, kWorkers + 1);
  for (int i = 0; i < kWorkers; ++i) {
    gs.push_back(b.Go(kMain));
    if (late_add) b.WgAdd(kMain, wg, 1);  // after the go statement: the bug
  }
  // A quiet worker spawned by a worker: covered by main's Add through its
  // parent.
  gs.push_back(b.Go(gs[0]));
  if (late_add) b.WgAdd(kMain, wg, 1);
  uint32_t mu[kMutexes], ch[kChans], fill[kChans] = {}, receiver[kChans];
  bool buffered[kChans], closed[kChans] = {};
  for (int i = 0; i < kMutexes; ++i) mu[i] = b.NewObject();
  for (int i = 0; i < kChans; ++i) {
    buffered[i] = i % 2 == 0;
    ch[i] = b.MakeChan(kMain, buffered[i] ? 2 : 0);
    receiver[i] = i < 2 ? gs[3 + i] : i == 3 ? gs[6] : 0;  // 0: any busy goroutine
  }
  // Busy: gs[3..6]; quiet: gs[0..2] and gs[7]. The quiet ones come first
  // in goroutine order, so the Done a negative-WaitGroup prediction names
  // (the first that falls short) is a quiet one's.
  auto pick = [&]() { return gs[rng() % gs.size()]; };
  auto busy = [&]() { return gs[3 + rng() % 4]; };
  auto chan_op = [&](uint32_t g, int c) {
    testing::RandomHandOff(b, g, ch[c], buffered[c], closed[c], &fill[c], receiver[c], busy);
  };
  auto make_step = [&](uint32_t step, uint32_t kind, uint32_t g, int m, int c) {
    switch (kind) {
      case 0: case 1: case 2:
        if (m >= 2) g = busy();
        b.Lock(g, mu[m]);
        b.Unlock(g, mu[m]);
        break;
      case 3:
        g = busy();
        m = 2 + static_cast<int>(rng() % (kMutexes - 2));
        c = 2 + static_cast<int>(rng() % (kChans - 2));
        if (rng() % 4 == 0) {
          int m2 = 2 + (m - 2 + 1 + static_cast<int>(rng() % (kMutexes - 3))) % (kMutexes - 2);
          b.Lock(g, mu[m]);
          b.Lock(g, mu[m2]);
          b.Unlock(g, mu[m2]);
          b.Unlock(g, mu[m]);
        } else if (rng() % 3 == 0) {
          b.Lock(g, mu[m]);
          chan_op(g, c);
          b.Unlock(g, mu[m]);
        }
        break;
      case 4: case 5: case 6:
        if (c >= 2) g = busy();
        chan_op(g, c);
        break;
      case 7:
        g = busy();
        if (c >= 2 && !closed[c] && buffered[c] && fill[c] > 0 && receiver[c] == 0) {
          b.Select(g, {{ch[c], false}, {ch[c == 5 ? 4 : 5], false}}, 0);
          --fill[c];
        }
        break;
      case 8:
        g = busy();
        if (rng() % 30 == 0 && c >= 2 && !closed[c]) {
          b.Close(g, ch[c]);
          closed[c] = true;
        }
        break;
      case 9:
        testing::RandomTest(b, rng, kMain, step);
        break;
    }
  };
  testing::RandomSteps(rng, 400, kMutexes, kChans, 10, pick, make_step);
  for (uint32_t g : gs) {
    if (g == gs[3] && rng() % 2 == 0) {
      int c = 2 + static_cast<int>(rng() % (kChans - 2));
      if (!closed[c]) {
        b.BlockedRecv(g, ch[c]);
        continue;
      }
    }
    b.Done(g, wg);
  }
  b.WaitBegin(kMain, wg);
  return b.Finish();
}

void ExpectSame(const trace::Trace& t, const std::string& name, uint64_t* compared,
                uint64_t* narrowed, uint64_t* with_findings) {
  hb::OpIndex ops;
  ops.Build(t);
  ClockNeeds needs = UnneededClocks(ops, 0);
  ReadGoroutines read = ReadGoroutinesOf(ops, needs.unneeded.get());
  if (read.read == nullptr) return;
  ++*compared;
  Outcome full = BugsAndWarnings(t, ops, needs, nullptr);
  Outcome part = BugsAndWarnings(t, ops, needs, read.read);
  *narrowed += part.width < t.goroutines.size();
  *with_findings += !full.findings.empty() && part.width < t.goroutines.size();
  EXPECT_EQ(part.findings, full.findings) << name;
  EXPECT_EQ(part.outside, 0u) << name;
  EXPECT_EQ(full.outside, 0u) << name;
}

TEST(ReadGoroutines, RandomRunsGiveTheSameBugsAndWarningsOnTheReadGoroutines) {
  uint64_t compared = 0, narrowed = 0, with_findings = 0;
  for (uint32_t seed = 1; seed <= 80; ++seed) {
    ExpectSame(RandomFanOutRun(seed), fmt::format("seed {}", seed), &compared, &narrowed,
               &with_findings);
  }
  EXPECT_GT(narrowed, 40u);
  EXPECT_GT(with_findings, 30u);
  std::printf("random runs: %lu compared, %lu with fewer entries, %lu of them with findings\n",
              static_cast<unsigned long>(compared), static_cast<unsigned long>(narrowed),
              static_cast<unsigned long>(with_findings));
}

TEST(ReadGoroutines, GoldenTracesGiveTheSameBugsAndWarningsOnTheReadGoroutines) {
  uint64_t files = 0, compared = 0, narrowed = 0, with_findings = 0;
  testing::ForEachGoldenTrace([&](const trace::Trace& t, const std::string& name) {
    ++files;
    ExpectSame(t, name, &compared, &narrowed, &with_findings);
  });
  EXPECT_GT(files, 100u);
  EXPECT_GT(narrowed, 5u);
  EXPECT_GT(with_findings, 3u);
  std::printf("%lu golden traces, %lu compared, %lu with fewer entries, %lu of them with "
              "findings\n",
              static_cast<unsigned long>(files), static_cast<unsigned long>(compared),
              static_cast<unsigned long>(narrowed), static_cast<unsigned long>(with_findings));
}

}  // namespace
}  // namespace gordian::detect
