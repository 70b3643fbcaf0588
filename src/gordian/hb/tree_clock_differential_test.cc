// Differential test of the happens-before engine's two clock
// representations: random traces are replayed once with dense rows (and
// delta snapshots past 64 goroutines) and once with tree clocks
// (tree_clock.h); every record's pre and post clock, and Before on random
// pairs, must agree.
#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gordian/hb/happens_before.h"
#include "gordian/hb/stamp_order.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/hb/tree_clock.h"

namespace gordian::hb {
namespace {

using testing::TraceBuilder;

// Builds hb from t with rows (min_width 0xffffffff) or trees (1), the
// trees collected every `collect` snapshots; the defaults restored after.
bool BuildAtWidth(const trace::Trace& t, uint32_t min_width, uint32_t collect, HappensBefore* hb,
                  std::string* err) {
  internal::tree_clock_min_width = min_width;
  internal::tree_clock_collect_every = min_width == 1 ? collect : 0;
  const bool built = hb->Build(t, err);
  internal::tree_clock_collect_every = 0;
  internal::tree_clock_min_width = 65;
  return built;
}

// Builds t with options o once with rows and once with trees
// (BuildAtWidth, collect as there) and calls f(hb, min_width) with each;
// stops at a fatal failure.
template <class F>
void ForEachWidth(const trace::Trace& t, const HbOptions& o, uint32_t collect, F f) {
  for (uint32_t min_width : {0xffffffffu, 1u}) {
    HappensBefore hb(o);
    std::string err;
    ASSERT_TRUE(BuildAtWidth(t, min_width, collect, &hb, &err)) << err;
    f(hb, min_width);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// A random run: goroutines spawn goroutines, take mutexes and an RWMutex,
// talk over unbuffered and buffered channels (also in selects), use a
// WaitGroup, a Once, a Cond, close a channel; some end blocked. Mostly
// consistent (operations are written in an order a run could have), with
// some deliberately inconsistent stamps left to the engine's parking and
// forcing. main_adds: only goroutine 1 Adds to the WaitGroup (the others
// call Done), so that few goroutines are WaitGroup adders.
trace::Trace RandomTrace(uint32_t seed, uint32_t max_goroutines, uint32_t steps,
                         bool main_adds = false) {
  std::mt19937 rng(seed);
  TraceBuilder b;
  b.set_auto_sites(false);
  std::vector<uint32_t> live{1};
  uint32_t unbuf[2] = {b.MakeChan(1, 0), b.MakeChan(1, 0)};
  uint32_t buf = b.MakeChan(1, 3);
  uint32_t closing = b.MakeChan(1, 1);
  uint32_t bufcount = 0;
  uint32_t mu[3] = {b.NewObject(), b.NewObject(), b.NewObject()};
  uint32_t holder[3] = {0, 0, 0};
  uint32_t rw = b.NewObject();
  uint32_t wg = b.NewObject();
  uint32_t once = b.NewObject();
  uint32_t cond = b.NewObject();
  bool once_ran = false;
  int64_t wgc = 0;
  bool closed = false;
  auto pick = [&]() { return live[rng() % live.size()]; };
  for (uint32_t step = 0; step < steps; ++step) {
    uint32_t g = pick();
    switch (rng() % 15) {
      case 0:
        if (b.num_goroutines() < max_goroutines) live.push_back(b.Go(g));
        break;
      case 1:
      case 2: {
        uint32_t m = rng() % 3;
        if (holder[m] == 0) {
          b.Lock(g, mu[m]);
          holder[m] = g;
        } else {
          b.Unlock(holder[m], mu[m]);
          holder[m] = 0;
        }
        break;
      }
      case 3:
        if (rng() % 4 == 0) {
          b.RWLock(g, rw);
          b.RWUnlock(g, rw);
        } else {
          b.RLock(g, rw);
          b.RUnlock(g, rw);
        }
        break;
      case 4:
      case 5: {
        uint32_t h = pick();
        if (h == g) break;
        uint32_t ch = unbuf[rng() % 2];
        auto s = b.SendBegin(g, ch);
        b.Recv(h, ch);
        b.Complete(s);
        break;
      }
      case 6:
        if (bufcount < 3) {
          b.Send(g, buf);
          ++bufcount;
        }
        break;
      case 7:
        if (bufcount > 0) {
          if (rng() % 3 == 0) {
            b.Select(g, {{buf, false}, {unbuf[0], false}}, 0);
          } else {
            b.Recv(g, buf);
          }
          --bufcount;
        } else if (rng() % 2) {
          b.Select(g, {{buf, false}}, -1, true);  // default
        }
        break;
      case 8:
        b.WgAdd(main_adds ? 1 : g, wg, 1);
        ++wgc;
        break;
      case 9:
        if (wgc > 0) {
          b.Done(g, wg);
          --wgc;
        } else {
          b.Wait(g, wg);
        }
        break;
      case 10:
        b.OnceDo(g, once, !once_ran);
        once_ran = true;
        break;
      case 11:
        if (!closed && rng() % 8 == 0) {
          b.Close(g, closing);
          closed = true;
        } else if (closed) {
          b.RecvClosed(g, closing);
        }
        break;
      case 12:
        if (rng() % 6 == 0) {
          b.TestStart(g, step, "T");
          b.TestEnd(g, step);
        } else {
          b.MakeChan(g, 0);  // an operation that only ticks
        }
        break;
      case 14: {
        // Cond.Wait releases the mutex g holds; another goroutine signals.
        uint32_t m = rng() % 3;
        uint32_t h = pick();
        if (holder[m] != g || h == g) break;
        auto w = b.CondWaitBegin(g, cond);
        b.Signal(h, cond);
        b.CondWoken(w);
        break;
      }
      case 13:
        if (rng() % 16 == 0) {
          // Deliberately inconsistent: a receive whose send comes later.
          uint32_t h = pick();
          if (h != g) {
            b.Recv(g, unbuf[1]);
            b.Send(h, unbuf[1]);
          }
        }
        break;
    }
  }
  for (int m = 0; m < 3; ++m) {
    if (holder[m]) b.Unlock(holder[m], mu[m]);
  }
  // Some goroutines end blocked.
  for (uint32_t k = 0; k < 3 && k < live.size(); ++k) b.BlockedRecv(live[rng() % live.size()], unbuf[0]);
  return b.Finish();
}

// collect_every: the tree engine frees unreachable nodes every this many
// steps (tree_clock_collect_every), so that a node freed too early, reused
// and read through a stale memo or snapshot shows as a wrong clock.
void Compare(const trace::Trace& t, uint32_t seed, uint32_t collect_every = 0) {
  HappensBefore dense, tree;
  std::string err;
  internal::tree_clock_min_width = 0xffffffffu;
  ASSERT_TRUE(dense.Build(t, &err)) << err;
  internal::tree_clock_min_width = 1;
  internal::tree_clock_collect_every = collect_every;
  bool built = tree.Build(t, &err);
  internal::tree_clock_collect_every = 0;
  internal::tree_clock_min_width = 65;
  ASSERT_TRUE(built) << err;
  if (collect_every != 0 && t.records.size() > 2 * collect_every) {
    ASSERT_GT(tree.stats().collections, 0u);
  }
  ASSERT_EQ(dense.warnings(), tree.warnings());
  const uint32_t n = uint32_t(t.records.size());
  for (uint32_t r = 0; r < n; ++r) {
    ASSERT_EQ(dense.PreClock(r), tree.PreClock(r)) << "seed " << seed << " record " << r;
    ASSERT_EQ(dense.PostClock(r), tree.PostClock(r)) << "seed " << seed << " record " << r;
    ASSERT_EQ(dense.ClockKnown(r), tree.ClockKnown(r));
  }
  std::mt19937 rng(seed);
  for (uint32_t k = 0; k < 20000; ++k) {
    uint32_t a = rng() % n, c = rng() % n;
    ASSERT_EQ(dense.Before(a, c), tree.Before(a, c)) << a << " " << c;
    uint32_t gid = 1 + rng() % t.goroutines.size();
    ASSERT_EQ(dense.Knows(a, true, gid), tree.Knows(a, true, gid));
    ASSERT_EQ(dense.Knows(a, false, gid), tree.Knows(a, false, gid));
  }
}

TEST(TreeClockDifferential, NarrowTraces) {
  // Up to 40 goroutines: tree clocks of one or two levels against rows.
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    Compare(RandomTrace(seed, 5 + seed, 1500), seed);
  }
}

TEST(TreeClockDifferential, WideTraces) {
  // Past 64 goroutines: tree clocks against rows with delta snapshots.
  for (uint32_t seed = 100; seed < 112; ++seed) {
    Compare(RandomTrace(seed, 150 + 40 * (seed % 4), 4000), seed);
  }
}

TEST(TreeClockDifferential, CollectingUnreachableNodesChangesNoClock) {
  // Collections every few steps free shared nodes that no clock or
  // snapshot reaches; the ids are reused at once, so a premature free
  // corrupts a later clock.
  for (uint32_t seed = 200; seed < 212; ++seed) {
    Compare(RandomTrace(seed, 8 + 30 * (seed % 5), 3000), seed, 1 + seed % 7);
  }
}

// Records named in HbOptions::unclocked get no clock (ClockKnown false,
// "ordered with everything"); every other record's clocks are those of the
// engine without the mask, with tree clocks and with rows, and with
// collections (the skipped snapshots leave more nodes unreachable). With
// a third of the records unclocked the engine's list of stored snapshots
// outgrows its limit and collections scan the records' slots again; with
// seven eighths it keeps the list, and collections mark only what it holds.
// One trace with the records that mask_rng keeps (1 in keep_one_in, select
// cases apart) clocked and the rest named unclocked, against the engine
// without the mask.
void CompareUnclocked(uint32_t seed, uint32_t max_goroutines, uint32_t steps,
                      uint32_t keep_one_in) {
  trace::Trace t = RandomTrace(seed, max_goroutines, steps);
  const uint32_t n = uint32_t(t.records.size());
  auto mask = std::make_shared<RecordMask>(n);
  std::mt19937 rng(seed);
  for (uint32_t r = 0; r < n; ++r) {
    if (t.records[r].kind != trace::Kind::SelectCase) mask->Set(r, rng() % keep_one_in != 0);
  }
  std::string err;
  HappensBefore full;
  ASSERT_TRUE(full.Build(t, &err)) << err;
  HbOptions o;
  o.unclocked = mask;
  ASSERT_NO_FATAL_FAILURE(ForEachWidth(t, o, 5, [&](HappensBefore& part, uint32_t) {
    EXPECT_GT(part.RecordsWithoutClock(), 0u);
    for (uint32_t r = 0; r < n; ++r) {
      uint32_t owner = part.ops().Owner(r);
      if ((*mask)[owner]) {
        ASSERT_FALSE(part.ClockKnown(r)) << "seed " << seed << " record " << r;
        continue;
      }
      ASSERT_TRUE(part.ClockKnown(r)) << "seed " << seed << " record " << r;
      ASSERT_EQ(full.PreClock(r), part.PreClock(r)) << "seed " << seed << " record " << r;
      ASSERT_EQ(full.PostClock(r), part.PostClock(r)) << "seed " << seed << " record " << r;
    }
  }));
}

// Records named in HbOptions::unclocked get no clock (ClockKnown false,
// "ordered with everything"); every other record's clocks are those of the
// engine without the mask, with tree clocks and with rows, and with
// collections (the skipped snapshots leave more nodes unreachable). With
// a third of the records unclocked the engine's list of stored snapshots
// outgrows its limit and collections scan the records' slots again; with
// seven eighths it keeps the list, and collections mark only what it holds.
TEST(TreeClockDifferential, UnclockedRecordsLeaveTheOthersClocksAlone) {
  for (uint32_t seed = 300; seed < 316; ++seed) {
    CompareUnclocked(seed, 20 + 40 * (seed % 3), 3000, seed >= 308 ? 8 : 3);
  }
}

// With one record in 64 clocked, a goroutine's overlay (clock_overlay.h)
// goes many operations without a snapshot folding it: it fills, folds
// when full, is handed whole through releases and rendezvous and replaced
// by the acquire shortcut; the clocks the few snapshots see are still the
// rows'.
TEST(TreeClockDifferential, OverlaysBetweenRareSnapshotsKeepTheClocks) {
  for (uint32_t seed = 320; seed < 332; ++seed) {
    CompareUnclocked(seed, 40 + 50 * (seed % 3), 6000, 64);
  }
}

TEST(TreeClockDifferential, DefaultPicksTreesForWideTraces) {
  trace::Trace t = RandomTrace(7, 100, 3000);
  ASSERT_GT(t.goroutines.size(), 64u);
  HappensBefore hb;
  std::string err;
  ASSERT_TRUE(hb.Build(t, &err)) << err;
  EXPECT_EQ(hb.stats().goroutines, t.goroutines.size());
  EXPECT_GT(hb.stats().snapshots, 0u);
}

// KnowledgeGained (what the rewrite of a prediction asks instead of every
// goroutine at every operation) names exactly the other goroutines whose
// entry differs between a record's pre clock and the previous record's of
// its goroutine (or the zero clock), with rows and with trees.
TEST(TreeClockDifferential, KnowledgeGainedIsTheChangedEntries) {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    trace::Trace t = RandomTrace(seed, seed % 2 ? 12 : 160, 2500);
    ASSERT_NO_FATAL_FAILURE(ForEachWidth(t, {}, 0, [&](HappensBefore& hb, uint32_t min_width) {
      size_t nonempty = 0;
      for (const trace::Goroutine& gr : t.goroutines) {
        uint32_t prev = kNoRecord;
        for (uint32_t r = gr.begin; r < gr.end; ++r) {
          if (hb.ops().Owner(r) != r) continue;  // a select case stands for its select
          std::vector<uint32_t> gained;
          ASSERT_TRUE(hb.KnowledgeGained(prev, r, &gained));
          std::vector<uint32_t> want;
          uint32_t own = trace::Value(hb.ops().GoroutineIndexOf(r));
          for (uint32_t g = 0; g < t.goroutines.size(); ++g) {
            if (g == own) continue;
            uint32_t gid = t.goroutines[g].gid;
            uint32_t before = prev == kNoRecord ? 0 : hb.Knows(prev, false, gid);
            if (hb.Knows(r, false, gid) != before) want.push_back(g);
          }
          std::sort(gained.begin(), gained.end());
          ASSERT_EQ(gained, want) << "seed " << seed << " width " << min_width << " record " << r;
          nonempty += !want.empty();
          prev = r;
        }
      }
      EXPECT_GT(nonempty, 0u) << "seed " << seed;
    }));
  }
}

// LastBefore reads what b knows of a goroutine once; its answer is the
// last of the goroutine's records (owners: a select case stands for its
// select) that Before puts before b, for every b, with rows and with trees,
// on b's own goroutine too.
TEST(TreeClockDifferential, LastBeforeIsTheLastRecordBefore) {
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    trace::Trace t = RandomTrace(seed, seed % 2 ? 10 : 150, 1500);
    ASSERT_NO_FATAL_FAILURE(ForEachWidth(t, {}, 0, [&](HappensBefore& hb, uint32_t min_width) {
      std::vector<std::vector<uint32_t>> recs(t.goroutines.size());
      for (size_t g = 0; g < t.goroutines.size(); ++g) {
        for (uint32_t r = t.goroutines[g].begin; r < t.goroutines[g].end; ++r) {
          if (hb.ops().Owner(r) == r) recs[g].push_back(r);
        }
      }
      size_t some = 0;
      for (uint32_t b = 0; b < t.records.size(); b += 7) {
        for (size_t g = 0; g < recs.size(); g += 3) {
          int64_t want = -1;
          for (size_t k = 0; k < recs[g].size(); ++k) {
            if (hb.Before(recs[g][k], b)) want = static_cast<int64_t>(k);
          }
          ASSERT_EQ(hb.LastBefore(recs[g], b), want)
              << "seed " << seed << " width " << min_width << " record " << b << " goroutine " << g;
          some += want >= 0;
        }
      }
      EXPECT_GT(some, 0u) << "seed " << seed;
    }));
  }
}

// HbOptions::read_goroutines: clocks with entries for some goroutines only.
// For every question whose a is a read goroutine's record, Before and Knows
// answer as the engine with every entry does, with rows and with trees
// (also collecting), whatever else is left out: joins are pointwise. The
// goroutines with a positive WaitGroup Add are read by the engine itself
// (its Wait rule), so leaving them out of the mask changes nothing either.
TEST(TreeClockDifferential, ReadGoroutinesKeepTheirEntriesExact) {
  for (uint32_t seed = 400; seed < 412; ++seed) {
    trace::Trace t = RandomTrace(seed, seed % 2 ? 24 : 140, 3000, /*main_adds=*/true);
    const uint32_t n = uint32_t(t.records.size());
    const uint32_t ng = uint32_t(t.goroutines.size());
    std::mt19937 rng(seed);
    auto read = std::make_shared<std::vector<uint8_t>>(ng, 0);
    for (uint32_t g = 0; g < ng; ++g) (*read)[g] = rng() % 3 == 0;
    std::string err;
    HappensBefore full;
    ASSERT_TRUE(full.Build(t, &err)) << err;
    HbOptions o;
    o.read_goroutines = read;
    ASSERT_NO_FATAL_FAILURE(ForEachWidth(t, o, 7, [&](HappensBefore& part, uint32_t min_width) {
      ASSERT_LT(part.clock_width(), ng);
      ASSERT_EQ(full.warnings(), part.warnings());
      std::vector<uint32_t> in_read;  // records of read goroutines
      for (uint32_t r = 0; r < n; ++r) {
        if (part.ReadsGoroutine(trace::Value(part.ops().GoroutineIndexOf(r)))) in_read.push_back(r);
      }
      ASSERT_FALSE(in_read.empty());
      uint64_t differ = 0;  // pairs where the answer is not trivially "ordered"
      for (uint32_t b = 0; b < n; ++b) {
        for (uint32_t k = 0; k < 40; ++k) {
          uint32_t a = in_read[rng() % in_read.size()];
          ASSERT_EQ(full.Before(a, b), part.Before(a, b))
              << "seed " << seed << " width " << min_width << " " << a << " " << b;
          differ += !full.Before(a, b);
        }
        for (uint32_t g = 0; g < ng; ++g) {
          if (!part.ReadsGoroutine(g)) continue;
          const uint32_t gid = t.goroutines[g].gid;
          ASSERT_EQ(full.Knows(b, false, gid), part.Knows(b, false, gid));
          ASSERT_EQ(full.Knows(b, true, gid), part.Knows(b, true, gid));
        }
      }
      EXPECT_GT(differ, 1000u);
      EXPECT_EQ(part.QuestionsOutsideReadGoroutines(), 0u);
      // A question about a goroutine without an entry answers "ordered"
      // (as an unclocked record) and is counted.
      uint32_t out = kNoRecord;
      for (uint32_t g = 0; g < ng && out == kNoRecord; ++g) {
        if (!part.ReadsGoroutine(g) && t.goroutines[g].begin < t.goroutines[g].end) {
          out = t.goroutines[g].begin;
        }
      }
      ASSERT_NE(out, kNoRecord);
      uint32_t other = kNoRecord;
      for (uint32_t r = n; r-- > 0 && other == kNoRecord;) {
        if (part.ops().GoroutineIndexOf(r) != part.ops().GoroutineIndexOf(out) &&
            part.ClockKnown(r) && part.Completed(out)) {
          other = r;
        }
      }
      if (other != kNoRecord) {
        EXPECT_TRUE(part.Before(out, other));
        EXPECT_EQ(part.QuestionsOutsideReadGoroutines(), 1u);
      }
    }));
  }
}

// The trace with its stamps jittered across goroutines (by up to 30 stamps)
// and renumbered: still unique and rising in each goroutine, but other
// goroutines' operations now often come first, so that the engine parks
// (a receive before its send, a Wait before the Dones) and forces.
trace::Trace Jittered(trace::Trace t, uint32_t seed) {
  std::mt19937 rng(seed);
  struct Stamp {
    double at;
    uint32_t rec;
    bool post;
    bool operator<(const Stamp& o) const { return at < o.at || (at == o.at && rec < o.rec); }
  };
  std::vector<Stamp> all;
  for (const trace::Goroutine& gr : t.goroutines) {
    double prev = -1e9;
    for (uint32_t i = gr.begin; i < gr.end; ++i) {
      const trace::Record& r = t.records[i];
      prev = std::max(r.tpre + double(int(rng() % 61) - 30), prev + 0.001);
      all.push_back({prev, i, false});
      if (r.tpost != 0 && r.tpost != r.tpre) {
        prev = std::max(r.tpost + double(int(rng() % 61) - 30), prev + 0.001);
        all.push_back({prev, i, true});
      }
    }
  }
  std::sort(all.begin(), all.end());
  for (uint32_t k = 0; k < all.size(); ++k) {
    trace::Record& r = t.records[all[k].rec];
    if (all[k].post) {
      r.tpost = k + 1;
    } else {
      if (r.tpost == r.tpre) r.tpost = k + 1;
      r.tpre = k + 1;
    }
  }
  return t;
}

TEST(TreeClockDifferential, StampOrderWindowsChangeNoClock) {
  // The scheduler walks the steps a window of stamps at a time
  // (stamp_order.h): windows of a few steps must replay as one window does,
  // parking and forcing included.
  uint64_t parked = 0;
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    trace::Trace t = Jittered(RandomTrace(seed, seed % 2 ? 12 : 150, 2500), seed);
    HappensBefore one, small;
    std::string err;
    ASSERT_TRUE(one.Build(t, &err)) << err;
    const size_t window = internal::stamp_window_steps;
    internal::stamp_window_steps = 1 + seed % 5;
    bool built = small.Build(t, &err);
    internal::stamp_window_steps = window;
    ASSERT_TRUE(built) << err;
    parked += one.stats().parked;
    ASSERT_EQ(one.stats().parked, small.stats().parked) << "seed " << seed;
    ASSERT_EQ(one.stats().forced, small.stats().forced) << "seed " << seed;
    ASSERT_EQ(one.warnings(), small.warnings());
    for (uint32_t r = 0; r < t.records.size(); ++r) {
      ASSERT_EQ(one.PreClock(r), small.PreClock(r)) << "seed " << seed << " record " << r;
      ASSERT_EQ(one.PostClock(r), small.PostClock(r)) << "seed " << seed << " record " << r;
    }
  }
  EXPECT_GT(parked, 1000u);  // the jitter made the engine wait
}

}  // namespace
}  // namespace gordian::hb
