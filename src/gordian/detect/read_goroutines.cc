// This file implements ReadGoroutinesOf (read_goroutines.h): one pass over
// the records for the goroutines on needed objects, and per WaitGroup the
// check that its Dones are covered by the Adds made before their spawns.
#include "gordian/detect/read_goroutines.h"

#include <algorithm>

namespace gordian::detect {

namespace {

using trace::Kind;
using trace::ObjClass;

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
  for (const auto& [d, weight] : dones) {
    // The record of the adder after which d's goroutine was spawned.
    uint32_t cut = d;
    uint32_t g = trace::Value(ops.GoroutineIndexOf(d));
    for (uint32_t hops = 0; g != adder && cut != kNone; ++hops) {
      const uint32_t sp = trace::Value(ops.SpawnOfIndex(trace::GoroutineIndex(g)));
      if (hops > ng || sp == hb::kNoRecord) cut = kNone;
      else {
        cut = sp;
        g = trace::Value(ops.GoroutineIndexOf(sp));
      }
    }
    const size_t seen =
        cut == kNone ? 0 : size_t(std::lower_bound(adds.begin(), adds.end(), cut) - adds.begin());
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

ReadGoroutines ReadGoroutinesOf(const hb::OpIndex& ops, const std::vector<uint8_t>* unneeded) {
  ReadGoroutines out;
  const trace::Trace& t = ops.trace();
  if (unneeded == nullptr || unneeded->size() != t.records.size()) return out;
  const uint32_t nw = ops.Count(ObjClass::WaitGroup);
  std::vector<uint8_t> wg_safe(nw);
  for (uint32_t w = 0; w < nw; ++w) wg_safe[w] = SafeBySpawns(ops, w);
  // An object is asked about when any of its records keeps a clock: the
  // questions' b. Their a's are the object's other records, which may keep
  // none (clock_needs.h exempts records no question takes as b: the sends
  // that a close's clock is compared with), so every goroutine with a
  // record on the object is read, not only those with a clocked record.
  std::vector<std::vector<uint8_t>> asked(trace::kNumObjClasses);
  for (int c = 0; c < trace::kNumObjClasses; ++c) asked[c].assign(ops.Count(ObjClass(c)), 0);
  for (uint32_t i = 0; i < t.records.size(); ++i) {
    const uint32_t obj = ops.ObjectOf(i);
    // (A SelectCase stands for its Select, the record that keeps a clock.)
    if (obj == hb::kNoObject || (*unneeded)[ops.Owner(i)]) continue;
    asked[int(trace::ClassOf(t.records[i].kind))][obj] = 1;
  }
  auto read = std::make_shared<std::vector<uint8_t>>(t.goroutines.size(), 0);
  for (uint32_t i = 0; i < t.records.size(); ++i) {
    const uint32_t obj = ops.ObjectOf(i);
    if (obj == hb::kNoObject) continue;
    const trace::Record& r = t.records[i];
    bool reads;
    if (trace::ClassOf(r.kind) == ObjClass::WaitGroup) {
      reads = (r.kind == Kind::WgAdd && int32_t(r.val) > 0) || !wg_safe[obj];
    } else {
      reads = asked[int(trace::ClassOf(r.kind))][obj] != 0;
    }
    if (reads) (*read)[trace::Value(ops.GoroutineIndexOf(i))] = 1;
  }
  out.count = static_cast<uint32_t>(std::count(read->begin(), read->end(), 1));
  if (out.count == read->size()) return ReadGoroutines{};  // every one: no projection
  out.read = std::move(read);
  return out;
}

}  // namespace gordian::detect
