// This file implements UnneededClocks (clock_needs.h): one walk over each
// goroutine's records with the locks it holds, marking the objects some
// detector asks about, then the operations of the large unmarked ones.
#include "gordian/detect/clock_needs.h"

#include <algorithm>
#include <array>

namespace gordian::detect {

namespace {

using trace::Kind;
using trace::ObjClass;

bool Eligible(ObjClass c) {
  return c == ObjClass::Chan || c == ObjClass::Mutex || c == ObjClass::RWMutex;
}

bool IsUnlock(Kind k) {
  return k == Kind::MutexUnlock || k == Kind::RWUnlock || k == Kind::RUnlock;
}

// A lock this record acquired (a Lock or RLock that completed, a TryLock
// that succeeded).
bool Acquired(const trace::Record& r) {
  switch (r.kind) {
    case Kind::MutexLock: case Kind::RWLock: case Kind::RLock:
      return r.tpost != 0;
    case Kind::MutexTryLock: case Kind::RWTryLock: case Kind::RWTryRLock:
      return (r.flags & trace::kSuccess) != 0;
    default:
      return false;
  }
}

bool ReaderSide(Kind k) { return k == Kind::RLock || k == Kind::RUnlock || k == Kind::RWTryRLock; }

struct Held {
  ObjClass cls;
  uint32_t obj;
  bool reader;
};

class Marker {
 public:
  explicit Marker(const hb::OpIndex& ops) : ops_(ops) {
    for (int c = 0; c < trace::kNumObjClasses; ++c) {
      needed_[c].assign(ops.Count(ObjClass(c)), 0);
    }
    receiver_.assign(ops.Count(ObjClass::Chan), kNone);
  }
  void Need(ObjClass c, uint32_t obj) {
    if (obj != hb::kNoObject && Eligible(c)) needed_[int(c)][obj] = 1;
  }
  void NeedRecord(uint32_t rec) { Need(trace::ClassOf(Rec(rec).kind), ops_.ObjectOf(rec)); }
  bool Needed(ObjClass c, uint32_t obj) const { return needed_[int(c)][obj] != 0; }
  const trace::Record& Rec(uint32_t i) const { return ops_.trace().records[i]; }

  // One goroutine's records in program order, with the locks it holds.
  void Walk(uint32_t g, uint32_t begin, uint32_t end) {
    held_.clear();
    for (uint32_t i = begin; i < end; ++i) {
      const trace::Record& r = Rec(i);
      const ObjClass cls = trace::ClassOf(r.kind);
      const uint32_t obj = ops_.ObjectOf(i);
      if (r.tpost == 0 || (r.flags & (trace::kFailed | trace::kClosed))) Need(cls, obj);
      if (r.kind == Kind::ChanClose || r.kind == Kind::SelectCase) Need(cls, obj);
      // A channel two goroutines receive from (concurrent receives).
      if (r.kind == Kind::ChanRecv && obj != hb::kNoObject) {
        if (receiver_[obj] == kNone) receiver_[obj] = g;
        else if (receiver_[obj] != g) Need(cls, obj);
      }
      // The lock this record releases, if it holds it.
      size_t releases = held_.size();
      if (IsUnlock(r.kind) && obj != hb::kNoObject) {
        const bool reader = ReaderSide(r.kind);
        for (size_t k = held_.size(); k-- > 0;) {
          if (held_[k].cls == cls && held_[k].obj == obj && held_[k].reader == reader) {
            releases = k;
            break;
          }
        }
        if (releases == held_.size()) Need(cls, obj);  // unlocks what it does not hold
      }
      // Anything done under a lock (but releasing that lock): the
      // operation and every lock held.
      const bool operation = cls != ObjClass::None || r.kind == Kind::Select;
      const size_t others = held_.size() - (releases < held_.size() ? 1 : 0);
      if (operation && others > 0) {
        Need(cls, obj);
        for (size_t k = 0; k < held_.size(); ++k) {
          if (k != releases) Need(held_[k].cls, held_[k].obj);
        }
      }
      if (releases < held_.size()) held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(releases));
      if (Acquired(r) && obj != hb::kNoObject) {
        for (const Held& h : held_) {
          if (h.cls == cls && h.obj == obj) Need(cls, obj);  // locked again while held
        }
        held_.push_back({cls, obj, ReaderSide(r.kind)});
      }
    }
  }

 private:
  const hb::OpIndex& ops_;
  std::array<std::vector<uint8_t>, trace::kNumObjClasses> needed_;
  std::vector<Held> held_;
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> receiver_;  // per channel: the first goroutine that received
};

}  // namespace

ClockNeeds UnneededClocks(const hb::OpIndex& ops, uint32_t min_ops) {
  ClockNeeds out;
  const trace::Trace& t = ops.trace();
  // Nothing to save unless some eligible object is large.
  bool large = false;
  for (ObjClass c : {ObjClass::Chan, ObjClass::Mutex, ObjClass::RWMutex}) {
    for (uint32_t d = 0; d < ops.Count(c) && !large; ++d) large = ops.Ops(c, d).size() > min_ops;
  }
  if (!large) return out;

  Marker m(ops);
  for (uint32_t g = 0; g < t.goroutines.size(); ++g) {
    m.Walk(g, t.goroutines[g].begin, t.goroutines[g].end);
  }
  // The operation each goroutine was in when a test ended: a goroutine
  // blocked there is a leak candidate, whose partners are searched.
  for (const hb::TestInfo& test : ops.tests()) {
    if (test.end == UINT32_MAX) continue;
    for (const trace::Goroutine& g : t.goroutines) {
      if (g.begin == g.end || t.records[g.begin].tpre >= test.end) continue;
      auto first = t.records.begin() + g.begin, last = t.records.begin() + g.end;
      auto it = std::partition_point(first, last,
                                     [&](const trace::Record& r) { return r.tpre < test.end; });
      if (it == first) continue;
      uint32_t i = static_cast<uint32_t>(std::prev(it) - t.records.begin());
      const trace::Record& r = t.records[i];
      if (r.tpost == 0 || r.tpost > test.end) m.NeedRecord(i);
    }
  }

  auto mask = std::make_shared<std::vector<uint8_t>>();
  for (ObjClass c : {ObjClass::Chan, ObjClass::Mutex, ObjClass::RWMutex}) {
    for (uint32_t d = 0; d < ops.Count(c); ++d) {
      auto recs = ops.Ops(c, d);
      if (recs.size() <= min_ops || m.Needed(c, d)) continue;
      if (mask->empty()) mask->assign(t.records.size(), 0);
      for (uint32_t r : recs) (*mask)[r] = 1;
      out.records += recs.size();
      ++out.objects;
    }
  }
  if (out.records > 0) out.unneeded = std::move(mask);
  return out;
}

}  // namespace gordian::detect
