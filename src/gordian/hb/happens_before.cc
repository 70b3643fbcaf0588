// This file implements the happens-before queries over the clocks that the
// clock builder (clock_builder.cc) stored: epochs, knowledge of one goroutine, whole
// clocks, and the Before/Concurrent relation.
#include "gordian/hb/happens_before.h"

#include <algorithm>

namespace gordian::hb {

HappensBefore::HappensBefore(HbOptions opt) : opt_(opt) {}
HappensBefore::~HappensBefore() = default;

void HappensBefore::IndexTrace(const trace::Trace& t) {
  if (shared_ops_ == nullptr || &shared_ops_->trace() != &t) {
    shared_ops_ = nullptr;
    own_ops_.Build(t);
  }
  ops_ = shared_ops_ != nullptr ? shared_ops_ : &own_ops_;
  warnings_.insert(warnings_.end(), ops().warnings().begin(), ops().warnings().end());
}

bool HappensBefore::Build(const OpIndex& ops, std::string* err) {
  shared_ops_ = &ops;
  return Build(ops.trace(), err);
}

bool HappensBefore::Completed(RecordId rec) const {
  return t_->records[ops().Owner(rec)].tpost != 0;
}

bool HappensBefore::ClockKnown(RecordId rec) const {
  rec = ops().Owner(rec);
  return snaps_.Pre(rec) != ClockStore::kUnknown && snaps_.Post(rec) != ClockStore::kUnknown;
}

uint64_t HappensBefore::RecordsWithoutClock() const {
  if (!store_.exhausted() && (opt_.unclocked == nullptr || opt_.unclocked->empty())) return 0;
  const RecordMask* unneeded =
      opt_.unneeded != nullptr && opt_.unneeded->size() == snaps_.size() ? opt_.unneeded.get()
                                                                          : nullptr;
  uint64_t n = 0;
  for (uint32_t i = 0; i < snaps_.size(); i++) {
    if (unneeded != nullptr && (*unneeded)[i]) continue;
    n += snaps_.Pre(i) == ClockStore::kUnknown || snaps_.Post(i) == ClockStore::kUnknown;
  }
  return n;
}


Epoch HappensBefore::PreEpoch(RecordId rec) const {
  rec = ops().Owner(rec);
  return PreEpochAt(rec - gbegin_[trace::Value(ops().GoroutineIndexOf(rec))]);
}

Epoch HappensBefore::PostEpoch(RecordId rec) const {
  rec = ops().Owner(rec);
  const trace::Record& r = t_->records[rec];
  if (r.kind == trace::Kind::OnceDo && (r.flags & trace::kSuccess) && r.tpost != 0) {
    auto it = std::lower_bound(once_post_.begin(), once_post_.end(), std::make_pair(rec, Epoch{0}));
    if (it != once_post_.end() && it->first == rec) return it->second;
  }
  return PostEpochAt(rec - gbegin_[trace::Value(ops().GoroutineIndexOf(rec))]);
}

Epoch HappensBefore::Knows(RecordId rec, bool post, uint32_t gid) const {
  rec = ops().Owner(rec);
  const GoroutineIndex g = trace::IndexOf(Gid(gid));
  if (post && !Completed(rec)) post = false;
  if (g == ops().GoroutineIndexOf(rec)) return post ? PostEpoch(rec) : PreEpoch(rec);
  uint32_t s = post ? snaps_.Post(rec) : snaps_.Pre(rec);
  if (s == ClockStore::kUnknown) return 0xffffffffu;  // unknown: assume it knows all
  const uint32_t slot = SlotOf(trace::Value(g));
  if (slot == kNoSlot) {  // not in the read goroutines: as unknown, counted
    outside_questions_->fetch_add(1, std::memory_order_relaxed);
    return 0xffffffffu;
  }
  return store_.Get(s, slot);
}

bool HappensBefore::KnowledgeGained(RecordId prev, RecordId rec,
                                    std::vector<uint32_t>* out) const {
  rec = ops().Owner(rec);
  uint32_t b = snaps_.Pre(rec);
  uint32_t a = ClockStore::kZero;
  if (prev != kNoRecord) a = snaps_.Pre(ops().Owner(prev));
  if (a == ClockStore::kUnknown || b == ClockStore::kUnknown) return false;
  const uint32_t own = trace::Value(ops().GoroutineIndexOf(rec));
  size_t from = out->size();
  store_.Differences(a, b, out);
  if (!slot_goroutine_.empty()) {
    for (size_t k = from; k < out->size(); ++k) (*out)[k] = slot_goroutine_[(*out)[k]];
  }
  out->erase(std::remove(out->begin() + static_cast<std::ptrdiff_t>(from), out->end(), own),
             out->end());
  return true;
}

// The clock of snapshot s over every goroutine: the read goroutines'
// entries, unknown (all ones, as an unclocked record's) for the others.
void HappensBefore::MaterializeAll(uint32_t s, VectorClock* vc) const {
  if (s == ClockStore::kUnknown) {
    for (uint32_t i = 0; i < num_g_; ++i) (*vc)[i] = 0xffffffffu;
    return;
  }
  if (clock_width_ == num_g_) {
    store_.Materialize(s, vc->data());
    return;
  }
  std::vector<uint32_t> row(store_.width());
  store_.Materialize(s, row.data());
  for (uint32_t i = 0; i < num_g_; ++i) {
    (*vc)[i] = SlotOf(i) == kNoSlot ? 0xffffffffu : row[SlotOf(i)];
  }
}

VectorClock HappensBefore::PreClock(RecordId rec) const {
  rec = ops().Owner(rec);
  VectorClock vc(num_g_);
  MaterializeAll(snaps_.Pre(rec), &vc);
  vc[trace::Value(ops().GoroutineIndexOf(rec))] = PreEpoch(rec);
  return vc;
}

VectorClock HappensBefore::PostClock(RecordId rec) const {
  rec = ops().Owner(rec);
  if (!Completed(rec)) return PreClock(rec);
  VectorClock vc(num_g_);
  MaterializeAll(snaps_.Post(rec), &vc);
  vc[trace::Value(ops().GoroutineIndexOf(rec))] = PostEpoch(rec);
  return vc;
}

bool HappensBefore::Before(RecordId a, RecordId b) const {
  a = ops().Owner(a);
  b = ops().Owner(b);
  if (a == b || !Completed(a)) return false;
  GoroutineIndex ga = ops().GoroutineIndexOf(a);
  GoroutineIndex gb = ops().GoroutineIndexOf(b);
  if (ga == gb) return PostEpoch(a) <= PreEpoch(b);
  return PostEpoch(a) <= Knows(b, false, trace::Value(trace::GidAt(ga)));
}

int64_t HappensBefore::LastBefore(std::span<const RecordId> recs, RecordId b) const {
  if (recs.empty()) return -1;
  b = ops().Owner(b);
  const GoroutineIndex ga = ops().GoroutineIndexOf(ops().Owner(recs[0]));
  const GoroutineIndex gb = ops().GoroutineIndexOf(b);
  // As Before(a, b) for each a of the goroutine: the bound is the same.
  const Epoch known =
      ga == gb ? PreEpoch(b) : Knows(b, false, trace::Value(trace::GidAt(ga)));
  auto before = [&](uint32_t a) {
    a = ops().Owner(a);
    return a != b && Completed(a) && PostEpoch(a) <= known;
  };
  int64_t lo = -1, hi = static_cast<int64_t>(recs.size()) - 1;
  while (lo < hi) {
    int64_t mid = (lo + hi + 1) / 2;
    if (before(recs[mid])) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

std::unique_ptr<HappensBefore> BuildWithoutMutexEdges(const HappensBefore& hb,
                                                      HbOptions options) {
  options.mutex_edges = false;
  auto weak = std::make_unique<HappensBefore>(std::move(options));
  weak->outside_questions_ = hb.outside_questions_;
  std::string err;
  if (!weak->Build(hb.ops(), &err)) return nullptr;
  return weak;
}

}  // namespace gordian::hb
