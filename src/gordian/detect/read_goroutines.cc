// This file implements ReadGoroutinesOf (read_goroutines.h): one pass over
// the records for the goroutines on needed objects, and per WaitGroup the
// check that its Dones are covered by the Adds made before their spawns.
#include "gordian/detect/read_goroutines.h"

#include <algorithm>

#include "gordian/util/phase_timing.h"

namespace gordian::detect {

namespace {

using trace::Kind;
using trace::ObjClass;

// No goroutine (an index, as ops.GoroutineIndexOf's value).
constexpr uint32_t kNone = UINT32_MAX;

// Whether WaitGroup w cannot go negative by spawn edges alone (see the
// header): one goroutine makes every positive Add, and a Done of goroutine
// g is matched to the Adds that goroutine made before the spawn record
// leading (through its ancestors) to g, or before the Done itself when g is
// that goroutine. Hall's condition on these nested prefixes: every prefix
// of Adds supplies the Dones that see no more than it. The engine's Before
// sees at least these Adds, so its matching succeeds too.
bool SafeBySpawns(const hb::OpIndex& ops, uint32_t w) {
  const trace::Trace& t = ops.trace();
  std::vector<uint32_t> adds;                        // record indices, in order
  std::vector<uint64_t> add_weight;
  std::vector<std::pair<uint32_t, uint64_t>> dones;  // (record, weight)
  uint32_t adder = kNone;
  for (uint32_t i : ops.Ops(ObjClass::WaitGroup, w)) {
    const trace::Record& r = t.records[i];
    if (r.kind != Kind::WgAdd) continue;
    if (r.flags & trace::kFailed) return false;
    const int32_t delta = int32_t(r.val);
    if (delta > 0) {
      const uint32_t g = trace::Value(ops.GoroutineIndexOf(i));
      if (adder != kNone && adder != g) return false;
      adder = g;
      adds.push_back(i);
      add_weight.push_back(uint64_t(delta));
    } else if (delta < 0) {
      dones.push_back({i, uint64_t(-int64_t(delta))});
    }
  }
  if (dones.empty()) return true;
  if (adder == kNone) return false;
  std::sort(adds.begin(), adds.end());  // Ops is in record order; cheap if so
  const uint32_t ng = static_cast<uint32_t>(t.goroutines.size());
  std::vector<uint64_t> demand(adds.size() + 1, 0);
  // The Adds before each Done's cut: the cuts mostly grow from one Done to
  // the next (goroutines spawned in turn, their Dones in trace order), so
  // the search gallops on from the last one instead of bisecting all the
  // Adds (a million Dones: most of the time of deciding the read
  // goroutines went to those bisections).
  size_t at = 0;  // adds before the previous cut
  for (const auto& [d, weight] : dones) {
    // The record of the adder after which d's goroutine was spawned.
    trace::RecordId cut = d;
    uint32_t g = trace::Value(ops.GoroutineIndexOf(d));
    for (uint32_t hops = 0; g != adder && cut != hb::kNoRecord; ++hops) {
      const trace::RecordId sp = ops.SpawnOfIndex(trace::GoroutineIndex(g));
      if (hops > ng || sp == hb::kNoRecord) cut = hb::kNoRecord;
      else {
        cut = sp;
        g = trace::Value(ops.GoroutineIndexOf(sp));
      }
    }
    size_t seen = 0;
    if (cut != hb::kNoRecord) {
      if (at > 0 && adds[at - 1] >= cut) at = 0;  // the cut went back: search from the start
      size_t step = 1, hi = at;
      while (hi < adds.size() && adds[hi] < cut) {
        at = hi + 1;
        hi = at + step;
        step *= 2;
      }
      // adds[at - 1] < cut (or at == 0), and cut <= adds[hi] (or hi past the end).
      at = size_t(std::lower_bound(adds.begin() + at, adds.begin() + std::min(hi, adds.size()), cut) -
                  adds.begin());
      seen = at;
    }
    demand[seen] += weight;
  }
  uint64_t need = 0, supply = 0;
  for (size_t p = 0; p <= adds.size(); ++p) {
    if (p > 0) supply += add_weight[p - 1];
    need += demand[p];
    if (need > supply) return false;
  }
  return true;
}

}  // namespace

ReadGoroutines ReadGoroutinesOf(const hb::OpIndex& ops, const hb::RecordMask* unneeded) {
  ReadGoroutines out;
  const trace::Trace& t = ops.trace();
  if (unneeded == nullptr || unneeded->size() != t.records.size()) return out;
  util::PhaseTimer timer("read-g");  // GORDIAN_TIMING=1
  const uint32_t nw = ops.Count(ObjClass::WaitGroup);
  std::vector<uint8_t> wg_safe(nw);
  for (uint32_t w = 0; w < nw; ++w) wg_safe[w] = SafeBySpawns(ops, w);
  timer.Lap("waitgroups");
  // An object is asked about when any of its records keeps a clock: the
  // questions' b. Their a's are the object's other records, which may keep
  // none (clock_needs.h exempts records no question takes as b: the sends
  // that a close's clock is compared with), so every goroutine with a
  // record on the object is read, not only those with a clocked record.
  std::vector<std::vector<uint8_t>> asked(trace::kNumObjClasses);
  for (int c = 0; c < trace::kNumObjClasses; ++c) asked[c].assign(ops.Count(ObjClass(c)), 0);
  for (uint32_t i = 0; i < t.records.size(); ++i) {
    const uint32_t obj = ops.ObjectOf(i);
    if (obj == hb::kNoObject) continue;
    const Kind k = t.records[i].kind;
    uint8_t& a = asked[int(trace::ClassOf(k))][obj];
    // (A SelectCase stands for its Select, the record that keeps a clock.)
    if (!a && !(*unneeded)[k == Kind::SelectCase ? ops.Owner(i) : i]) a = 1;
  }
  timer.Lap("asked objects");
  // Per object (its records' goroutines from the index; the records
  // themselves only for WaitGroups), so that objects no question is asked
  // about cost nothing.
  auto read = std::make_shared<std::vector<uint8_t>>(t.goroutines.size(), 0);
  for (int c = 0; c < trace::kNumObjClasses; ++c) {
    const bool wg = ObjClass(c) == ObjClass::WaitGroup;
    for (uint32_t obj = 0; obj < ops.Count(ObjClass(c)); ++obj) {
      if (!wg && !asked[c][obj]) continue;
      for (uint32_t i : ops.Ops(ObjClass(c), obj)) {
        if (wg && wg_safe[obj]) {
          const trace::Record& r = t.records[i];
          if (r.kind != Kind::WgAdd || int32_t(r.val) <= 0) continue;
        }
        (*read)[trace::Value(ops.GoroutineIndexOf(i))] = 1;
      }
    }
  }
  // Testing after end: Before(call, TestEnd) reads the caller's entry.
  for (uint32_t i : ops.TestCalls()) (*read)[trace::Value(ops.GoroutineIndexOf(i))] = 1;
  timer.Lap("goroutines");
  out.count = static_cast<uint32_t>(std::count(read->begin(), read->end(), 1));
  if (out.count == read->size()) return ReadGoroutines{};  // every one: no projection
  out.read = std::move(read);
  return out;
}

}  // namespace gordian::detect
