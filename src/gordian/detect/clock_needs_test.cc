// Tests of clock_needs.h: which objects keep their clocks, and the claim it
// rests on: on every golden trace, the bug and warning findings of the
// engine without the unneeded clocks are the findings of the engine with
// every clock.
#include "gordian/detect/clock_needs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include <fmt/format.h>

#include "gordian/detect/occurred.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/detect/predict.h"
#include "gordian/detect/differential_test.h"
#include "gordian/trace/dump.h"
#include "gordian/trace/text.h"

namespace gordian::detect {
namespace {

trace::Trace TraceOfText(const std::string& text) {
  trace::Trace t;
  std::string err;
  EXPECT_TRUE(trace::ParseTextTrace(text, "test.trace", &t, &err)) << err;
  return t;
}

// The records of objects the mask exempts, as "KIND@obj" per record, in
// trace order (with objects = false: the records of no object).
std::vector<std::string> Exempt(const std::string& text, uint32_t min_ops = 0,
                                bool objects = true) {
  trace::Trace t = TraceOfText(text);
  hb::OpIndex ops;
  ops.Build(t);
  ClockNeeds n = UnneededClocks(ops, min_ops);
  std::vector<std::string> out;
  if (n.unneeded == nullptr) return out;
  for (size_t i = 0; i < t.records.size(); ++i) {
    const bool object = trace::ClassOf(t.records[i].kind) != trace::ObjClass::None;
    if ((*n.unneeded)[i] && object == objects) {
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

// The counts the verbose note prints: records on large objects apart from
// the records of no object (a spawn, a goroutine start) exempt with them.
TEST(ClockNeeds, TheCountsTellRecordsOfNoObjectApart) {
  trace::Trace t = TraceOfText("1 go 2\n"
                               "1 MutexLock obj=1\n"
                               "1 MutexUnlock obj=1\n"
                               "2 MutexLock obj=1\n"
                               "2 MutexUnlock obj=1\n");
  hb::OpIndex ops;
  ops.Build(t);
  ClockNeeds n = UnneededClocks(ops, 0);
  ASSERT_NE(n.unneeded, nullptr);
  uint64_t none = 0, all = 0;
  for (size_t i = 0; i < t.records.size(); ++i) {
    all += (*n.unneeded)[i];
    none += (*n.unneeded)[i] && trace::ClassOf(t.records[i].kind) == trace::ObjClass::None;
  }
  EXPECT_GE(none, 2u) << "the spawn and the start";
  EXPECT_EQ(n.records, all);
  EXPECT_EQ(n.no_object, none);
  EXPECT_EQ(n.records - n.no_object, 4u);
  EXPECT_EQ(n.objects, 1u);
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

TEST(ClockNeeds, RecordsOfNoObjectNeedNoClockOnceSomeObjectIsLarge) {
  // No detector asks about spawns, starts, ends or panics; a select stands
  // for its cases, here one no rule keeps. With every object small,
  // nothing is exempt at all.
  const std::string text =
      "1 ChanMake obj=1 val=0\n"
      "1 go 2\n"
      "1 Select val=0xffffffff aux=1 has-default\n"
      "1 SelectCase obj=1 recv aux=0\n"
      "2 Panic\n";
  EXPECT_EQ(Exempt(text, 0, false), (std::vector<std::string>{"GoSpawn@2", "Select@0",
                                                               "GoStart@1", "Panic@0"}));
  EXPECT_TRUE(Exempt(text, 2, false).empty());
}

// Testing after end asks Before(call, TestEnd): with a TestCall in the
// trace every TestEnd keeps its clock; without one, none does.
TEST(ClockNeeds, ATestEndKeepsItsClockWhenSomeGoroutineCallsATestingMethod) {
  const std::string head =
      "1 go 2\n"
      "2 TestStart obj=1 val=\"TestA\"\n"
      "2 MutexLock obj=1\n"
      "2 MutexUnlock obj=1\n"
      "2 go 3\n";
  EXPECT_EQ(Exempt(head + "2 TestEnd obj=1\n", 0, false),
            (std::vector<std::string>{"GoSpawn@2", "GoStart@1", "TestStart@1", "GoSpawn@3",
                                      "TestEnd@1", "GoStart@2"}));
  EXPECT_EQ(Exempt(head + "3 TestCall obj=1 val=1\n2 TestEnd obj=1\n", 0, false),
            (std::vector<std::string>{"GoSpawn@2", "GoStart@1", "TestStart@1", "GoSpawn@3",
                                      "GoStart@2", "TestCall@1"}));
}

TEST(ClockNeeds, AMutexUnlockedByAnotherGoroutineKeepsItsClocks) {
  EXPECT_TRUE(Exempt("1 go 2\n"
                     "1 MutexLock obj=1\n"
                     "2 MutexUnlock obj=1\n")
                  .empty());
}

TEST(ClockNeeds, NestedLocksNeedNoClockOfThisEngine) {
  // 1 and 2 are nested (lock order), 3 is taken alone: only the engine
  // without lock edges asks about nested locks, and it picks its own
  // clocks (predicted/weak_unneeded.cc).
  EXPECT_EQ(Exempt("1 go 2\n"
                   "1 MutexLock obj=1\n"
                   "1 MutexLock obj=2\n"
                   "1 MutexUnlock obj=2\n"
                   "1 MutexUnlock obj=1\n"
                   "2 MutexLock obj=3\n"
                   "2 MutexUnlock obj=3\n"),
            (std::vector<std::string>{"MutexLock@1", "MutexLock@2", "MutexUnlock@2",
                                      "MutexUnlock@1", "MutexLock@3", "MutexUnlock@3"}));
}

TEST(ClockNeeds, AChannelOperationUnderALockKeepsItsClock) {
  // Mixed deadlock: a send while holding the mutex. Of the channel, the
  // send (its partner search) and the first record (see clock_needs.h);
  // the mutex's acquisition is a question of the engine without lock edges.
  EXPECT_EQ(Exempt("1 ChanMake obj=1 val=1\n"
                   "1 go 2\n"
                   "1 MutexLock obj=1\n"
                   "1 ChanSend obj=1 val=1\n"
                   "1 MutexUnlock obj=1\n"
                   "2 ChanRecv obj=1 val=1\n"),
            (std::vector<std::string>{"MutexLock@1", "MutexUnlock@1", "ChanRecv@1"}));
}

// A buffered channel that two goroutines send on and a third drains after
// the close (text records without a site get one per line).
const char kClosedChannel[] =
    "1 ChanMake obj=1 val=2\n"
    "1 go 2\n"
    "1 go 3\n"
    "1 ChanSend obj=1 val=1\n"
    "2 ChanSend obj=1 val=2\n"
    "1 ChanClose obj=1\n"
    "3 ChanRecv obj=1 val=1 @r.go:1\n"
    "3 ChanRecv obj=1 val=2 @r.go:1\n";

TEST(ClockNeeds, AClosedChannelKeepsItsCloseNotTheSendsThatStartedBeforeIt) {
  // Send on closed reads the close's clock, and a plain send's only when
  // it started after the close completed; recv on closed reads the
  // receives' only when some receive saw the close.
  EXPECT_EQ(Exempt(kClosedChannel), (std::vector<std::string>{"ChanSend@1", "ChanSend@1",
                                                               "ChanRecv@1", "ChanRecv@1"}));
}

TEST(ClockNeeds, AReceiveThatSawTheCloseKeepsTheValueReceives) {
  EXPECT_EQ(Exempt(std::string(kClosedChannel) + "2 ChanRecv obj=1 closed @r.go:2\n"),
            (std::vector<std::string>{"ChanSend@1", "ChanSend@1"}));
}

TEST(ClockNeeds, AReceiveThatSawTheCloseInTheReceiversOwnGoroutineKeepsNoValueReceive) {
  // Concurrent(rv, rc) of two receives of one goroutine reads no clock: a
  // stage that ranges over its input until the close (a pipeline) keeps
  // none. The same ranging receive in another goroutine keeps them all.
  EXPECT_EQ(Exempt(std::string(kClosedChannel) + "3 ChanRecv obj=1 closed @r.go:1\n"),
            (std::vector<std::string>{"ChanSend@1", "ChanSend@1", "ChanRecv@1", "ChanRecv@1"}));
  EXPECT_EQ(Exempt(std::string(kClosedChannel) + "3 ChanRecv obj=1 closed @r.go:1\n" +
                   "1 go 4\n4 ChanRecv obj=1 closed @r.go:2\n"),
            (std::vector<std::string>{"ChanSend@1", "ChanSend@1"}));
}

TEST(ClockNeeds, ReceivesAtOneSiteNeedNoClockAtTwoSitesTheyDo) {
  const std::string common =
      "1 ChanMake obj=1 val=2\n"
      "1 go 2\n"
      "1 go 3\n"
      "1 ChanSend obj=1 val=1\n"
      "1 ChanSend obj=1 val=2\n"
      "2 ChanRecv obj=1 val=1 @w.go:1\n";
  // A worker pool: every receiver at one site, the whole channel exempt.
  EXPECT_EQ(Exempt(common + "3 ChanRecv obj=1 val=2 @w.go:1\n"),
            (std::vector<std::string>{"ChanMake@1", "ChanSend@1", "ChanSend@1", "ChanRecv@1",
                                      "ChanRecv@1"}));
  // Two sites: concurrent receives compares them; the sends stay exempt.
  EXPECT_EQ(Exempt(common + "3 ChanRecv obj=1 val=2 @w.go:2\n"),
            (std::vector<std::string>{"ChanSend@1", "ChanSend@1"}));
}

// Goroutine 1's select meets 2's send on channel 1 with its receive case;
// its other case receives on channel 2.
constexpr const char* kSelectMetSendOn1 =
    "1 ChanMake obj=1 val=0\n"
    "1 ChanMake obj=2 val=0\n"
    "1 go 2\n"
    "1 go 3\n"
    "2 ChanSend obj=1 val=1\n"
    "1 Select val=0 aux=2\n"
    "1 SelectCase obj=1 recv chosen val=1 aux=0\n"
    "1 SelectCase obj=2 recv aux=1\n";
// After it, 3 sends on channel 2 and 1 receives that.
constexpr const char* kThenASendOn2 = "3 ChanSend obj=2 val=1\n1 ChanRecv obj=2 val=1\n";

TEST(ClockNeeds, ASelectPartnerKeepsItsClockAndSoDoTheOtherCasesPartners) {
  // Select leak: the send on 1 matched by the select's receive case, and
  // the sends on 2 that could have made the other case ready instead. The
  // receive on 2 is asked about by no one.
  EXPECT_EQ(Exempt(std::string(kSelectMetSendOn1) + kThenASendOn2),
            (std::vector<std::string>{"ChanRecv@2"}));
}

TEST(ClockNeeds, ASelectKeepsItsClockOnlyWhenItsCasesOrASelectLeakNeedIt) {
  // The select met the send on 1 and could have taken its case on 2 (3
  // sends there): select leak asks about the select. Without another
  // goroutine on 2 it could not, and nothing asks about it, nor about the
  // send on 1.
  const std::string head = kSelectMetSendOn1;
  const std::string with_sender = head + kThenASendOn2;
  EXPECT_EQ(Exempt(with_sender, 0, false),
            (std::vector<std::string>{"GoSpawn@2", "GoSpawn@3", "GoStart@1", "GoStart@1"}));
  EXPECT_EQ(Exempt(head, 0, false), (std::vector<std::string>{"GoSpawn@2", "GoSpawn@3",
                                                               "Select@0", "GoStart@1",
                                                               "GoStart@1"}));
  EXPECT_EQ(Exempt(head), (std::vector<std::string>{"ChanMake@1", "ChanMake@2", "SelectCase@1",
                                                    "SelectCase@2", "ChanSend@1"}));
  // Channel 2 small (2 operations): the select keeps its clock, so that
  // the information about channel 2 stays exact.
  EXPECT_EQ(Exempt(head, 2, false), (std::vector<std::string>{"GoSpawn@2", "GoSpawn@3",
                                                               "GoStart@1", "GoStart@1"}));
}

TEST(ClockNeeds, AnOperationThatNeverCompletedKeepsItsClock) {
  EXPECT_EQ(Exempt("1 ChanMake obj=1 val=0\n"
                   "1 go 2\n"
                   "1 go 3\n"
                   "2 ChanSend obj=1 val=1\n"
                   "1 ChanRecv obj=1 val=1\n"
                   "3 ChanSend obj=1 val=2 open\n"),
            (std::vector<std::string>{"ChanRecv@1", "ChanSend@1"}));  // goroutine 1's first
}

// The golden traces: the same bugs and warnings with and without the
// unneeded clocks, every object exempt that the rules allow (min_ops 0).
std::vector<std::string> BugsAndWarnings(const trace::Trace& t, const hb::OpIndex& ops,
                                         std::shared_ptr<const hb::RecordMask> unneeded) {
  hb::HbOptions o;
  o.unneeded = std::move(unneeded);
  hb::HappensBefore hb(o);
  std::string err;
  if (!hb.Build(ops, &err)) return {"build failed: " + err};
  std::vector<std::string> out;
  for (const report::Finding& f : testing::BugAndWarningFindings(t, ops, hb)) {
    std::string s = fmt::format("{} {} {}", report::KindName(f.kind), report::StatusName(f.status),
                                f.message);
    for (const report::Location& l : f.locations) s += fmt::format(" {}:{}", l.file, l.line);
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One trace's bugs and warnings with every clock (full) and without the
// clocks UnneededClocks (min_ops 0) leaves out, expected the same (name
// says which trace); compared is false, and nothing compared, when it
// leaves none out.
struct WithoutUnneeded {
  bool compared = false;
  uint64_t records = 0;  // exempt from clocks
  std::vector<std::string> full;
};
WithoutUnneeded CompareWithoutUnneeded(const trace::Trace& t, const std::string& name) {
  hb::OpIndex ops;
  ops.Build(t);
  ClockNeeds needs = UnneededClocks(ops, 0);
  if (needs.unneeded == nullptr) return {};
  WithoutUnneeded w{true, needs.records, BugsAndWarnings(t, ops, nullptr)};
  EXPECT_EQ(BugsAndWarnings(t, ops, needs.unneeded), w.full) << name;
  return w;
}

// Goroutine 1 and n goroutines it spawns, in that order.
std::vector<uint32_t> MainAndSpawned(hb::testing::TraceBuilder& b, int n) {
  std::vector<uint32_t> gs{1};
  for (int i = 0; i < n; ++i) gs.push_back(b.Go(1));
  return gs;
}

// A random run over many objects, so that some stay quiet and others do
// not: critical sections (some nested, in either order: lock-order
// predictions; some with a channel operation inside; some unlocked by
// another goroutine), unbuffered rendezvous, buffered channels with one
// fixed receiver or any receiver, a close, tests, and goroutines that end
// blocked.
trace::Trace RandomLockAndChannelRun(uint32_t seed) {
  std::mt19937 rng(seed);
  hb::testing::TraceBuilder b;
  b.set_auto_sites(false);
  const std::vector<uint32_t> gs = MainAndSpawned(b, 7);
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
    testing::RandomHandOff(b, g, ch[c], buffered[c], closed[c], &fill[c], receiver[c], pick);
  };
  auto make_step = [&](uint32_t step, uint32_t kind, uint32_t g, int m, int c) {
    switch (kind) {
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
        testing::RandomTest(b, rng, 1, step);
        break;
    }
  };
  testing::RandomSteps(rng, 400, kMutexes, kChans, 10, pick, make_step);
  for (int k = 0; k < 2; ++k) {
    int c = 2 + static_cast<int>(rng() % (kChans - 2));
    if (!closed[c]) b.BlockedRecv(pick(), ch[c]);
  }
  return b.Finish();
}

// A random run of channels only, with sites, for the per-record channel
// rules: rendezvous and buffered hand-offs from any goroutine at one of a
// channel's send and receive sites (some channels are received at one
// site, some at three), selects whose chosen case meets a plain operation
// (select leak) with another case on some other channel, selects with a
// default, closes with senders still running elsewhere and receives that
// drain or see the close afterwards, a few operations under a lock, tests,
// and operations blocked at the end (plain and select).
trace::Trace RandomChannelRun(uint32_t seed) {
  std::mt19937 rng(seed);
  hb::testing::TraceBuilder b;
  b.set_auto_sites(false);
  const std::vector<uint32_t> gs = MainAndSpawned(b, 6);
  constexpr int kChans = 6;
  const uint32_t mu = b.NewObject();
  const uint32_t quiet = b.MakeChan(1, 0);  // only ever a select's other case
  const uint32_t timer = b.ForeignChan();   // no make(chan), no sender: a timer
  uint32_t ch[kChans], fill[kChans] = {};
  bool buffered[kChans], closed[kChans] = {};
  std::vector<uint32_t> send_sites[kChans], recv_sites[kChans];
  for (int i = 0; i < kChans; ++i) {
    buffered[i] = i % 3 == 0;
    ch[i] = b.MakeChan(1, buffered[i] ? 2 : 0);
    uint32_t nrecv = rng() % 2 == 0 ? 1 : 3, nsend = 1 + rng() % 3;
    for (uint32_t k = 0; k < nsend; ++k) send_sites[i].push_back(b.Site("send.go", 100 * i + k));
    for (uint32_t k = 0; k < nrecv; ++k) recv_sites[i].push_back(b.Site("recv.go", 100 * i + k));
  }
  auto pick = [&]() { return gs[rng() % gs.size()]; };
  auto other = [&](uint32_t g) {
    uint32_t o = pick();
    while (o == g) o = pick();
    return o;
  };
  auto ssite = [&](int c) { return send_sites[c][rng() % send_sites[c].size()]; };
  auto rsite = [&](int c) { return recv_sites[c][rng() % recv_sites[c].size()]; };
  auto unbuffered_open = [&]() {
    for (int tries = 0; tries < 20; ++tries) {
      int c = static_cast<int>(rng() % kChans);
      if (!buffered[c] && !closed[c]) return c;
    }
    return -1;
  };
  // One hand-off on c by g (a send, or a receive if the buffer is full),
  // or a receive that sees the close.
  auto chan_op = [&](uint32_t g, int c) {
    if (closed[c]) {
      if (buffered[c] && fill[c] > 0) {
        // Drains a value after the close: a plain receive, or a select's
        // case (recv on closed asks about the select then).
        if (rng() % 2 == 0) b.At(b.Recv(g, ch[c]), rsite(c));
        else b.Select(g, {{ch[c], false}, {quiet, false}}, 0);
        --fill[c];
      } else {
        b.At(b.RecvClosed(g, ch[c]), rsite(c));
      }
      return;
    }
    if (buffered[c]) {
      if (fill[c] < 2 && rng() % 2 == 0) {
        b.At(b.Send(g, ch[c]), ssite(c));
        ++fill[c];
      } else if (fill[c] > 0) {
        b.At(b.Recv(other(g), ch[c]), rsite(c));
        --fill[c];
      }
      return;
    }
    auto snd = b.At(b.SendBegin(g, ch[c]), ssite(c));
    b.At(b.Recv(other(g), ch[c]), rsite(c));
    b.Complete(snd);
  };
  constexpr uint32_t kSteps = 1200;
  for (uint32_t step = 0; step < kSteps; ++step) {
    uint32_t g = pick();
    int c = static_cast<int>(rng() % kChans);
    switch (rng() % 12) {
      case 0: case 1: case 2: case 3: case 4:
        chan_op(g, c);
        break;
      case 5: case 6: {
        // A select whose chosen case meets a plain operation on an
        // unbuffered channel x; its other case is on channel y.
        int x = unbuffered_open();
        if (x < 0) break;
        // The other case is on channel 4 or 5 (the others keep no clock
        // for being a select's alternative), or on a channel no one else
        // uses (the select had no other choice), or a timer's.
        uint32_t other_case = rng() % 4;
        int y = x == 4 ? 5 : 4;
        if (other_case >= 2) {
          uint32_t alt = other_case == 2 ? quiet : timer;
          uint32_t q = other(g);
          auto snd = b.At(b.SendBegin(g, ch[x]), ssite(x));
          b.Select(q, {{ch[x], false}, {alt, false}}, 0);
          b.Complete(snd);
          break;
        }
        uint32_t q = other(g);
        bool plain_sends = rng() % 3 != 0;
        bool y_send = rng() % 3 == 0 && !closed[y];
        if (plain_sends) {
          auto snd = b.At(b.SendBegin(g, ch[x]), ssite(x));
          b.Select(q, {{ch[x], false}, {ch[y], y_send}}, 0);
          b.Complete(snd);
        } else {
          auto rcv = b.At(b.RecvBegin(g, ch[x]), rsite(x));
          b.Select(q, {{ch[x], true}, {ch[y], y_send}}, 0);
          b.Complete(rcv);
        }
        break;
      }
      case 7:
        if (rng() % 2 == 0) {
          b.Select(g, {{ch[c], false}}, -1, true);
        } else {
          // The forgotten sender: a fresh channel, a new goroutine sends
          // on it once, the select that receives could have taken its
          // other case (select leak), or not (the quiet channel).
          // Or its other case has a sender of its own, which another new
          // goroutine (or no one) receives from: select leak asks whether
          // that send is before the select (the select's clock).
          uint32_t fresh = b.MakeChan(g, 0);
          uint32_t sender = b.Go(g);
          auto snd = b.SendBegin(sender, fresh);
          uint32_t alt = rng() % 2 ? timer : quiet;
          if (rng() % 3 == 0) {
            alt = b.MakeChan(g, 0);
            uint32_t alt_sender = b.Go(g);
            if (rng() % 2 == 0) {
              b.BlockedSend(alt_sender, alt);
            } else {
              uint32_t alt_receiver = b.Go(g);
              auto s2 = b.SendBegin(alt_sender, alt);
              b.Recv(alt_receiver, alt);
              b.Complete(s2);
            }
          }
          b.Select(g, {{fresh, false}, {alt, false}}, 0);
          b.Complete(snd);
        }
        break;
      case 8:
        // Late closes: the channel was used a long time before.
        if (step > kSteps - 400 && rng() % 16 == 0 && !closed[c]) {
          b.Close(g, ch[c]);
          closed[c] = true;
        }
        break;
      case 9:
        b.Lock(g, mu);
        chan_op(g, c);
        b.Unlock(g, mu);
        break;
      case 10:
        testing::RandomTest(b, rng, 1, step);
        break;
      case 11:
        // Plain sends from several goroutines and sites, the material of
        // send on closed once the channel is closed.
        if (!closed[c] && buffered[c] && fill[c] < 2) {
          b.At(b.Send(g, ch[c]), ssite(c));
          ++fill[c];
        }
        break;
    }
  }
  // Goroutines other than main end blocked; the runtime says so at a
  // checked exit (leaks, and their partner search).
  std::vector<uint32_t> blocked;
  for (int k = 0; k < 3; ++k) {
    int c = static_cast<int>(rng() % kChans);
    uint32_t g = gs[1 + k];
    size_t before = b.num_records();
    switch (rng() % 3) {
      case 0:
        if (!closed[c]) b.At(b.BlockedRecv(g, ch[c]), rsite(c));
        break;
      case 1:
        if (!closed[c] && !buffered[c]) b.At(b.BlockedSend(g, ch[c]), ssite(c));
        break;
      case 2:
        if (!closed[c] && !closed[(c + 1) % kChans]) {
          b.Select(g, {{ch[c], false}, {ch[(c + 1) % kChans], false}}, -2);
        }
        break;
    }
    if (b.num_records() != before) blocked.push_back(g);
  }
  for (uint32_t g : blocked) b.Add(1, trace::Kind::BlockedAtTestEnd, g, 0);
  b.Add(1, trace::Kind::ProgramExit, 0, 0, trace::kExitChecked);
  return b.Finish();
}

TEST(ClockNeeds, RandomChannelRunsGiveTheSameBugsAndWarningsWithoutTheUnneededClocks) {
  uint64_t exempt = 0, kept = 0, with_findings = 0;
  std::map<std::string, uint64_t> kinds;  // findings by kind, over all runs
  for (uint32_t seed = 1; seed <= 80; ++seed) {
    trace::Trace t = RandomChannelRun(seed);
    WithoutUnneeded w = CompareWithoutUnneeded(t, fmt::format("seed {}", seed));
    if (!w.compared) continue;
    exempt += w.records;
    kept += t.records.size() - w.records;
    with_findings += !w.full.empty() && w.records > 0;
    for (const std::string& f : w.full) {
      ++kinds[f.find("is matched only by the select") != std::string::npos
                  ? "select-leak"
                  : f.substr(0, f.find(' '))];
    }
  }
  EXPECT_GT(exempt, 3000u);
  EXPECT_GT(with_findings, 50u);
  // The rules the shapes are for must have findings to keep.
  for (const char* kind : {"send-on-closed", "recv-on-closed", "concurrent-recv",
                           "goroutine-leak", "select-leak"}) {
    EXPECT_GT(kinds[kind], 0u) << kind;
  }
  for (const auto& [kind, n] : kinds) std::printf("  %s: %lu\n", kind.c_str(), (unsigned long)n);
  std::printf("random channel runs: %lu exempt records, %lu kept, %lu runs with findings and "
              "exempt records\n",
              static_cast<unsigned long>(exempt), static_cast<unsigned long>(kept),
              static_cast<unsigned long>(with_findings));
}

TEST(ClockNeeds, RandomRunsGiveTheSameBugsAndWarningsWithoutTheUnneededClocks) {
  uint64_t exempt = 0, with_findings = 0;
  std::map<std::string, uint64_t> kinds;  // findings by kind, over all runs
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    WithoutUnneeded w = CompareWithoutUnneeded(RandomLockAndChannelRun(seed), fmt::format("seed {}", seed));
    if (!w.compared) continue;
    exempt += w.records;
    with_findings += !w.full.empty() && w.records > 0;
    for (const std::string& f : w.full) ++kinds[f.substr(0, f.find(' '))];
  }
  EXPECT_GT(exempt, 3000u);
  EXPECT_GT(with_findings, 40u);
  // The findings of the engine without lock edges, which keeps only the
  // clocks its questions read (predicted/weak_unneeded.cc), must be there
  // to be compared.
  for (const char* kind : {"lock-order-deadlock", "mixed-deadlock"}) {
    EXPECT_GT(kinds[kind], 0u) << kind;
  }
  for (const auto& [kind, n] : kinds) std::printf("  %s: %lu\n", kind.c_str(), (unsigned long)n);
  std::printf("random runs: %lu exempt records, %lu runs with findings and exempt records\n",
              static_cast<unsigned long>(exempt), static_cast<unsigned long>(with_findings));
}

TEST(ClockNeeds, ARecursiveReadLockIsPredictedWithoutTheUnneededClocks) {
  // Goroutine 1 read-locks twice while 2 may write-lock in between: the
  // engine without lock edges asks Before(W, R1) and Before(R2, W), of
  // the clocks WeakUnneeded keeps (no golden trace has this shape).
  trace::Trace t = TraceOfText("1 go 2\n"
                               "1 RLock obj=1\n"
                               "1 RLock obj=1\n"
                               "1 RUnlock obj=1\n"
                               "1 RUnlock obj=1\n"
                               "2 RWLock obj=1\n"
                               "2 RWUnlock obj=1\n");
  WithoutUnneeded w = CompareWithoutUnneeded(t, "recursive read lock");
  EXPECT_TRUE(w.compared);
  ASSERT_EQ(w.full.size(), 1u);
  EXPECT_EQ(w.full[0].substr(0, w.full[0].find(' ')), "double-lock");
}

TEST(ClockNeeds, GoldenTracesGiveTheSameBugsAndWarningsWithoutTheUnneededClocks) {
  uint64_t exempt = 0, files = 0, with_findings = 0;
  testing::ForEachGoldenTrace([&](const trace::Trace& t, const std::string& name) {
    ++files;
    WithoutUnneeded w = CompareWithoutUnneeded(t, name);
    if (!w.compared) return;
    exempt += w.records;
    with_findings += !w.full.empty();
  });
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
