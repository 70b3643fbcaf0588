// Tests of clock_needs.h: which objects keep their clocks, and the claim it
// rests on: on every golden trace, the bug and warning findings of the
// engine without the unneeded clocks are the findings of the engine with
// every clock.
#include "gordian/detect/clock_needs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "gordian/detect/occurred.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/detect/predict.h"
#include "gordian/trace/dump.h"
#include "gordian/trace/text.h"

namespace gordian::detect {
namespace {

namespace fs = std::filesystem;

trace::Trace Parse(const std::string& text) {
  trace::Trace t;
  std::string err;
  EXPECT_TRUE(trace::ParseTextTrace(text, "test.trace", &t, &err)) << err;
  return t;
}

// The records the mask exempts, as "KIND@obj" per record, in trace order.
std::vector<std::string> Exempt(const std::string& text, uint32_t min_ops = 0) {
  trace::Trace t = Parse(text);
  hb::OpIndex ops;
  ops.Build(t);
  ClockNeeds n = UnneededClocks(ops, min_ops);
  std::vector<std::string> out;
  if (n.unneeded == nullptr) return out;
  for (size_t i = 0; i < t.records.size(); ++i) {
    if ((*n.unneeded)[i]) {
      out.push_back(fmt::format("{}@{}", trace::KindName(t.records[i].kind), t.records[i].obj));
    }
  }
  return out;
}

TEST(ClockNeeds, PlainCriticalSectionsOfTwoGoroutinesNeedNoClock) {
  EXPECT_EQ(Exempt("1 go 2\n"
                   "1 MutexLock obj=1\n"
                   "1 MutexUnlock obj=1\n"
                   "2 MutexLock obj=1\n"
                   "2 MutexUnlock obj=1\n"),
            (std::vector<std::string>{"MutexLock@1", "MutexUnlock@1", "MutexLock@1",
                                      "MutexUnlock@1"}));
}

TEST(ClockNeeds, SmallObjectsKeepTheirClocks) {
  const std::string text =
      "1 go 2\n"
      "1 MutexLock obj=1\n"
      "1 MutexUnlock obj=1\n"
      "2 MutexLock obj=1\n"
      "2 MutexUnlock obj=1\n";
  EXPECT_TRUE(Exempt(text, 4).empty());
  EXPECT_EQ(Exempt(text, 3).size(), 4u);
}

TEST(ClockNeeds, AMutexUnlockedByAnotherGoroutineKeepsItsClocks) {
  EXPECT_TRUE(Exempt("1 go 2\n"
                     "1 MutexLock obj=1\n"
                     "2 MutexUnlock obj=1\n")
                  .empty());
}

TEST(ClockNeeds, NestedLocksKeepTheirClocksAndOthersDoNot) {
  // 1 and 2 are nested (lock order); 3 is taken alone.
  EXPECT_EQ(Exempt("1 go 2\n"
                   "1 MutexLock obj=1\n"
                   "1 MutexLock obj=2\n"
                   "1 MutexUnlock obj=2\n"
                   "1 MutexUnlock obj=1\n"
                   "2 MutexLock obj=3\n"
                   "2 MutexUnlock obj=3\n"),
            (std::vector<std::string>{"MutexLock@3", "MutexUnlock@3"}));
}

TEST(ClockNeeds, AChannelOperationUnderALockKeepsBothClocks) {
  // Mixed deadlock: a send while holding the mutex.
  EXPECT_TRUE(Exempt("1 ChanMake obj=1 val=1\n"
                     "1 go 2\n"
                     "1 MutexLock obj=1\n"
                     "1 ChanSend obj=1 val=1\n"
                     "1 MutexUnlock obj=1\n"
                     "2 ChanRecv obj=1 val=1\n")
                  .empty());
}

TEST(ClockNeeds, ClosedSelectedAndSharedChannelsKeepTheirClocks) {
  // Channel 1 is plain (one receiver), 2 is closed, 3 has two receivers.
  EXPECT_EQ(Exempt("1 ChanMake obj=1 val=1\n"
                   "1 ChanMake obj=2 val=1\n"
                   "1 ChanMake obj=3 val=2\n"
                   "1 go 2\n"
                   "1 go 3\n"
                   "1 ChanSend obj=1 val=1\n"
                   "2 ChanRecv obj=1 val=1\n"
                   "1 ChanSend obj=2 val=1\n"
                   "1 ChanClose obj=2\n"
                   "1 ChanSend obj=3 val=1\n"
                   "1 ChanSend obj=3 val=2\n"
                   "2 ChanRecv obj=3 val=1\n"
                   "3 ChanRecv obj=3 val=2\n"),
            (std::vector<std::string>{"ChanMake@1", "ChanSend@1", "ChanRecv@1"}));
}

TEST(ClockNeeds, AnOperationThatNeverCompletedKeepsItsObjectsClocks) {
  EXPECT_TRUE(Exempt("1 ChanMake obj=1 val=0\n"
                     "1 go 2\n"
                     "2 ChanSend obj=1 val=1 open\n")
                  .empty());
}

// The golden traces: the same bugs and warnings with and without the
// unneeded clocks, every object exempt that the rules allow (min_ops 0).
std::vector<std::string> BugsAndWarnings(const trace::Trace& t, const hb::OpIndex& ops,
                                         std::shared_ptr<const std::vector<uint8_t>> unneeded) {
  hb::HbOptions o;
  o.unneeded = std::move(unneeded);
  hb::HappensBefore hb(o);
  std::string err;
  if (!hb.Build(ops, &err)) return {"build failed: " + err};
  OccurredOptions oo;
  oo.ops = &ops;
  oo.hb = &hb;
  oo.partners = [&hb](uint32_t rec, std::vector<uint32_t>* p) { FindPossiblePartners(hb, rec, p); };
  std::vector<report::Finding> found = DetectOccurred(t, oo);
  PredictBugs(t, hb, &found);
  std::vector<std::string> out;
  for (const report::Finding& f : found) {
    if (f.severity == report::Severity::Info) continue;
    std::string s = fmt::format("{} {} {}", report::KindName(f.kind), report::StatusName(f.status),
                                f.message);
    for (const report::Location& l : f.locations) s += fmt::format(" {}:{}", l.file, l.line);
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A random run over many objects, so that some stay quiet and others do
// not: critical sections (some nested, in either order: lock-order
// predictions; some with a channel operation inside; some unlocked by
// another goroutine), unbuffered rendezvous, buffered channels with one
// fixed receiver or any receiver, a close, tests, and goroutines that end
// blocked.
trace::Trace RandomRun(uint32_t seed) {
  std::mt19937 rng(seed);
  hb::testing::TraceBuilder b;
  b.set_auto_sites(false);
  std::vector<uint32_t> gs{1};
  for (int i = 0; i < 7; ++i) gs.push_back(b.Go(1));
  const uint32_t lender = b.Go(1);
  constexpr int kMutexes = 6, kChans = 6;
  uint32_t mu[kMutexes], ch[kChans], fill[kChans] = {}, receiver[kChans];
  bool buffered[kChans], closed[kChans] = {};
  for (int i = 0; i < kMutexes; ++i) mu[i] = b.NewObject();
  for (int i = 0; i < kChans; ++i) {
    buffered[i] = i % 2 == 0;
    ch[i] = b.MakeChan(1, buffered[i] ? 2 : 0);
    receiver[i] = i < 2 || i == 3 ? gs[1 + i] : 0;  // 0: any goroutine receives
  }
  auto pick = [&]() { return gs[rng() % gs.size()]; };
  auto chan_op = [&](uint32_t g, int c) {
    if (closed[c]) {
      b.RecvClosed(g, ch[c]);
      return;
    }
    uint32_t r = receiver[c] != 0 ? receiver[c] : pick();
    if (buffered[c]) {
      if (fill[c] < 2 && g != r) {
        b.Send(g, ch[c]);
        ++fill[c];
      } else if (fill[c] > 0) {
        b.Recv(r, ch[c]);
        --fill[c];
      }
    } else if (r != g) {
      auto snd = b.SendBegin(g, ch[c]);
      b.Recv(r, ch[c]);
      b.Complete(snd);
    }
  };
  for (uint32_t step = 0; step < 400; ++step) {
    uint32_t g = pick();
    int m = static_cast<int>(rng() % kMutexes), c = static_cast<int>(rng() % kChans);
    switch (rng() % 10) {
      case 0: case 1: case 2:
        b.Lock(g, mu[m]);
        b.Unlock(g, mu[m]);
        break;
      case 3:
        // Mutexes 0 and 1 and channels 0 and 1 only ever see the plain
        // patterns: the objects the mask may exempt.
        m = 2 + static_cast<int>(rng() % (kMutexes - 2));
        c = 2 + static_cast<int>(rng() % (kChans - 2));
        if (rng() % 4 == 0) {  // nested, either order
          int m2 = 2 + (m - 2 + 1 + static_cast<int>(rng() % (kMutexes - 3))) % (kMutexes - 2);
          b.Lock(g, mu[m]);
          b.Lock(g, mu[m2]);
          b.Unlock(g, mu[m2]);
          b.Unlock(g, mu[m]);
        } else if (rng() % 3 == 0) {  // a channel operation under the lock
          b.Lock(g, mu[m]);
          chan_op(g, c);
          b.Unlock(g, mu[m]);
        } else if (rng() % 5 == 0) {
          // Handed to another goroutine. The one that locked it holds it
          // as far as a walk of its own records can tell, which makes all
          // it does afterwards an operation under a lock: a goroutine that
          // does nothing else locks it.
          b.Lock(lender, mu[m]);
          b.Unlock(pick(), mu[m]);
        }
        break;
      case 4: case 5: case 6: case 7:
        chan_op(g, c);
        break;
      case 8:
        if (rng() % 40 == 0 && c >= 2 && !closed[c]) {
          b.Close(g, ch[c]);
          closed[c] = true;
        }
        break;
      case 9:
        if (rng() % 10 == 0) {
          b.TestStart(1, step, "T");
          b.TestEnd(1, step);
        }
        break;
    }
  }
  for (int k = 0; k < 2; ++k) {
    int c = 2 + static_cast<int>(rng() % (kChans - 2));
    if (!closed[c]) b.BlockedRecv(pick(), ch[c]);
  }
  return b.Finish();
}

TEST(ClockNeeds, RandomRunsGiveTheSameBugsAndWarningsWithoutTheUnneededClocks) {
  uint64_t exempt = 0, with_findings = 0;
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    trace::Trace t = RandomRun(seed);
    hb::OpIndex ops;
    ops.Build(t);
    ClockNeeds needs = UnneededClocks(ops, 0);
    if (needs.unneeded == nullptr) continue;
    exempt += needs.records;
    std::vector<std::string> full = BugsAndWarnings(t, ops, nullptr);
    with_findings += !full.empty() && needs.records > 0;
    EXPECT_EQ(BugsAndWarnings(t, ops, needs.unneeded), full) << "seed " << seed;

  }
  EXPECT_GT(exempt, 3000u);
  EXPECT_GT(with_findings, 40u);
  std::printf("random runs: %lu exempt records, %lu runs with findings and exempt records\n",
              static_cast<unsigned long>(exempt), static_cast<unsigned long>(with_findings));
}

TEST(ClockNeeds, GoldenTracesGiveTheSameBugsAndWarningsWithoutTheUnneededClocks) {
  uint64_t exempt = 0, files = 0, with_findings = 0;
  for (const auto& e : fs::directory_iterator(GORDIAN_GOLDEN_DIR)) {
    if (e.path().extension() != ".trace") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    trace::Trace t;
    std::string err;
    if (!trace::ParseTextTrace(ss.str(), e.path().filename().string(), &t, &err)) continue;
    hb::OpIndex ops;
    ops.Build(t);
    ClockNeeds needs = UnneededClocks(ops, 0);
    ++files;
    if (needs.unneeded == nullptr) continue;
    exempt += needs.records;
    std::vector<std::string> full = BugsAndWarnings(t, ops, nullptr);
    with_findings += !full.empty();
    EXPECT_EQ(BugsAndWarnings(t, ops, needs.unneeded), full) << e.path().filename().string();
  }
  // The comparison must have something to compare: golden traces where the
  // mask exempts records and that have findings.
  EXPECT_GT(files, 50u);
  EXPECT_GT(exempt, 20u);
  EXPECT_GT(with_findings, 3u);
  std::printf("%lu golden traces, %lu exempt records, %lu compared traces with findings\n",
              static_cast<unsigned long>(files), static_cast<unsigned long>(exempt),
              static_cast<unsigned long>(with_findings));
}

}  // namespace
}  // namespace gordian::detect
