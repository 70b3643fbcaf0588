// This file implements the message contention scenario of Sulzmann and
// Stadtmüller's two-phase analysis (§4.1, "MP") as information, and its lock-contention variant: several goroutines that
// send (or receive, or lock) on the same object concurrently, where a slow
// partner makes the others wait.
//
// Rule: an operation is contended if an operation of the same direction by
// another goroutine is concurrent with it (pre clocks incomparable). One
// finding per channel direction / mutex with contended operations from at
// least two goroutines, naming up to three of them. Objects with many
// operations are sampled (at most kSample operations, evenly spread), and
// each sampled operation is compared with at most kRunsPerOp runs of other
// goroutines (those not already known to be wholly before it).
#include <set>

#include <fmt/format.h>

#include "gordian/detect/predicted/op_runs.h"
#include "gordian/detect/predicted/predict_context.h"

namespace gordian::detect {

namespace {

// Runs asked about per sampled operation: an operation that none of the
// first kRunsPerOp live runs is concurrent with counts as uncontended. A
// pool's lock taken once by each of 100,000 short-lived goroutines would
// otherwise cost a query per goroutine at each sampled Lock (a worker-pool
// suite spent its whole 200M-query budget here, minutes at ~1 us a query).
constexpr uint32_t kRunsPerOp = 1024;

// Counts sampled operations of `runs` concurrent with one of another
// goroutine; fills up to three examples from distinct goroutines.
uint32_t Contended(PredictContext& c, const OpRuns& runs, uint32_t* sampled,
                   std::vector<uint32_t>* examples) {
  uint32_t n = 0;
  *sampled = 0;
  uint64_t calls = 0;
  std::set<GoroutineIndex> goroutines;
  // An uncontended lock taken by many goroutines cost, without LiveRuns, a
  // query per run at each of its kSample sampled Locks.
  LiveRuns live;
  uint32_t stride = SampleStride(runs.size());
  for (uint32_t k = 0; k < runs.size(); k += stride) {
    uint32_t x = runs.rec(k);
    GoroutineIndex gx = c.Gor(x);
    ++*sampled;
    if (gx != live.goroutine()) live.Reset(gx);
    uint32_t asked = 0;
    live.ForEach(runs, [&](uint32_t i) {
      if (++asked > kRunsPerOp) return LiveRuns::Verdict::Stop;
      const OpRuns::Run& r = runs.runs()[i];
      uint32_t lo = runs.FirstNotBefore(c.hb, r, x, &calls);
      if (lo == r.end) return LiveRuns::Verdict::Drop;  // all before x
      ++calls;
      uint32_t y = runs.rec(lo);
      if (c.hb.Before(x, y)) return LiveRuns::Verdict::Keep;
      ++n;
      if (goroutines.insert(gx).second && examples->size() < 3) examples->push_back(x);
      if (goroutines.insert(r.g).second && examples->size() < 3) examples->push_back(y);
      return LiveRuns::Verdict::Stop;
    });
    if (!c.Spend(calls)) break;
    calls = 0;
  }
  return goroutines.size() >= 2 ? n : 0;
}

void Report(PredictContext& c, uint32_t primary, report::Role primary_role, report::Role role,
            const std::vector<uint32_t>& examples, std::string message) {
  report::Finding f = c.NewFinding(report::FindingKind::MessageContention, primary, primary_role);
  for (uint32_t e : examples) {
    if (e != primary) c.AddLocation(&f, e, role);
  }
  f.message = std::move(message);
  c.Emit(std::move(f));
}

}  // namespace

void InfoContention(PredictContext& c) {
  OpRuns send, recv;
  const uint32_t nch = c.ops.Count(ObjClass::Chan);
  for (uint32_t ch = 0; ch < nch && !c.exhausted(); ++ch) {
    if (c.PartlyUnclocked(ObjClass::Chan, ch)) continue;
    send.Clear();
    recv.Clear();
    for (uint32_t y : c.ops.Ops(ObjClass::Chan, ch)) {
      ChanDir d = hb::DirOf(c.rec(y));
      // Select cases that were not chosen did not contend for the channel.
      uint32_t own = c.ops.Owner(y);
      if (own != y && c.ops.ChosenCase(own) != y) continue;
      if (d == ChanDir::Send) send.Add(c.Gor(y), y);
      else if (d == ChanDir::Recv) recv.Add(c.Gor(y), y);
    }
    uint32_t make = c.ops.Channel(ch).make_rec;
    for (int dir = 0; dir < 2; ++dir) {
      const OpRuns& runs = dir == 0 ? send : recv;
      if (runs.runs().size() < 2) continue;
      std::vector<uint32_t> ex;
      uint32_t sampled = 0;
      uint32_t n = Contended(c, runs, &sampled, &ex);
      if (n == 0) continue;
      const char* what = dir == 0 ? "sends" : "receives";
      report::Role role = dir == 0 ? report::Role::Send : report::Role::Recv;
      uint32_t primary = make != hb::kNoRecord ? make : ex[0];
      Report(c, primary, make != hb::kNoRecord ? report::Role::Make : role, role, ex,
             fmt::format("message contention: {} of {} {} on {} were concurrent with {} of "
                         "another goroutine",
                         n, sampled, what, c.Chan(ch), what));
    }
  }
  // Lock contention: acquisitions of one mutex by several goroutines.
  for (ObjClass cls : {ObjClass::Mutex, ObjClass::RWMutex}) {
    const uint32_t nm = c.ops.Count(cls);
    for (uint32_t m = 0; m < nm && !c.exhausted(); ++m) {
      if (c.PartlyUnclocked(cls, m)) continue;
      send.Clear();
      for (uint32_t y : c.ops.Ops(cls, m)) {
        Kind k = c.rec(y).kind;
        if (k == Kind::MutexLock || k == Kind::RWLock) send.Add(c.Gor(y), y);
      }
      if (send.runs().size() < 2) continue;
      std::vector<uint32_t> ex;
      uint32_t sampled = 0;
      uint32_t n = Contended(c, send, &sampled, &ex);
      if (n == 0) continue;
      Report(c, ex[0], report::Role::Lock, report::Role::Lock, ex,
             fmt::format("lock contention: {} of {} Lock calls on the mutex locked at {} were "
                         "concurrent with a Lock of another goroutine",
                         n, sampled, BaseName(c.Where(ex[0]))));
    }
  }
}

}  // namespace gordian::detect
