// This file implements the operation index: dense object ids, per-object
// operation lists (CSR arrays, one pass to count and one to fill), and the
// exact partner tables keyed by value sequence number.
#include "gordian/hb/op_index.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "gordian/trace/ancestry.h"

namespace gordian::hb {

using trace::Kind;
using trace::Record;

ChanDir DirOf(const Record& r) {
  switch (r.kind) {
    case Kind::ChanSend: return ChanDir::Send;
    case Kind::ChanRecv: return ChanDir::Recv;
    case Kind::ChanClose: return ChanDir::Close;
    case Kind::SelectCase:
      if (r.flags & trace::kDirSend) return ChanDir::Send;
      if (r.flags & trace::kDirRecv) return ChanDir::Recv;
      return ChanDir::None;
    default: return ChanDir::None;
  }
}

uint32_t OpIndex::Dense(ObjClass c, ObjectId id) const {
  const uint32_t raw = trace::Value(id);
  const Class& k = cls_[int(c)];
  if (!k.direct.empty() || k.sorted.empty()) {
    return raw < k.direct.size() ? k.direct[raw] : kNoObject;
  }
  auto it = std::lower_bound(k.sorted.begin(), k.sorted.end(),
                             std::make_pair(raw, 0u));
  return it != k.sorted.end() && it->first == raw ? it->second : kNoObject;
}

void OpIndex::BuildGoroutineOf(const trace::Trace& t) {
  const uint32_t n = static_cast<uint32_t>(t.records.size());
  const uint32_t ng = static_cast<uint32_t>(t.goroutines.size());
  gor_.clear();
  gor_mixed_.clear();
  gor_delta_.clear();
  gor_order_.clear();
  gor_narrow_ = false;
  // The narrow form numbers the goroutines that have records in the order
  // of their ranges (a window of a trace keeps the records of a few
  // goroutines of the whole table, so goroutine indices jump), and needs
  // those ranges disjoint: then a block's goroutines are consecutive in
  // that numbering, at most 256 of them.
  for (uint32_t g = 0; g < ng; ++g) {
    const auto& gr = t.goroutines[g];
    if (gr.begin < gr.end && gr.begin < n) gor_order_.push_back(g);
  }
  auto by_begin = [&](uint32_t a, uint32_t b) {
    return t.goroutines[a].begin < t.goroutines[b].begin;
  };
  if (!std::is_sorted(gor_order_.begin(), gor_order_.end(), by_begin)) {  // the reader's order
    std::sort(gor_order_.begin(), gor_order_.end(), by_begin);
  }
  bool narrow = true;
  uint32_t last_end = 0;
  for (uint32_t g : gor_order_) {
    narrow = narrow && t.goroutines[g].begin >= last_end;
    last_end = t.goroutines[g].end;
  }
  if (narrow) {
    const uint32_t blocks = (n >> kGorBlockShift) + 1;
    gor_.assign(blocks, UINT32_MAX);
    gor_delta_.assign(n, kNoGoroutineDelta);
    for (uint32_t k = 0; k < gor_order_.size() && narrow; ++k) {
      const auto& gr = t.goroutines[gor_order_[k]];
      const uint32_t end = std::min(gr.end, n);
      for (uint32_t i = gr.begin; i < end; ++i) {
        uint32_t& base = gor_[i >> kGorBlockShift];
        if (base == UINT32_MAX) base = k;
        if (k - base >= kNoGoroutineDelta) {  // 255 goroutines of one record in a block
          narrow = false;
          break;
        }
        gor_delta_[i] = static_cast<uint8_t>(k - base);
      }
    }
    if (narrow) {
      // Keep the bytes of the mixed blocks only.
      gor_mixed_.assign(blocks, kUniformBlock);
      std::vector<uint8_t> mixed;
      for (uint32_t b = 0; b < blocks; ++b) {
        const size_t first = size_t{b} << kGorBlockShift;
        const size_t last = std::min<size_t>(first + kGorBlockMask + 1, n);
        bool uniform = true;
        for (size_t i = first; i < last && uniform; ++i) uniform = gor_delta_[i] == 0;
        if (uniform) continue;
        gor_mixed_[b] = static_cast<uint32_t>(mixed.size() >> kGorBlockShift);
        mixed.insert(mixed.end(), gor_delta_.begin() + static_cast<std::ptrdiff_t>(first),
                     gor_delta_.begin() + static_cast<std::ptrdiff_t>(last));
        mixed.resize(size_t{gor_mixed_[b] + 1} << kGorBlockShift, kNoGoroutineDelta);
      }
      mixed.shrink_to_fit();
      gor_delta_ = std::move(mixed);
      gor_narrow_ = true;
      return;
    }
    gor_delta_.clear();
    gor_delta_.shrink_to_fit();
  }
  std::vector<uint32_t>().swap(gor_order_);  // the wide form does not number
  gor_.assign(n, kNoObject);
  for (uint32_t g = 0; g < ng; ++g) {
    const auto& gr = t.goroutines[g];
    for (uint32_t i = gr.begin; i < gr.end && i < n; ++i) gor_[i] = g;
  }
}

RecordId OpIndex::Owner(RecordId rec) const {
  const auto& rs = t_->records;
  if (rs[rec].kind != Kind::SelectCase) return rec;
  uint32_t g = trace::Value(GoroutineIndexOf(rec));
  uint32_t begin = t_->goroutines[g].begin;
  uint32_t i = rec;
  while (i > begin && rs[i].kind == Kind::SelectCase) --i;
  return rs[i].kind == Kind::Select ? i : rec;
}

RecordId OpIndex::ChosenCase(RecordId sel) const {
  const auto& rs = t_->records;
  const Record& s = rs[sel];
  if (s.kind != Kind::Select || s.tpost == 0 || s.val == trace::kDefaultCase) {
    return kNoRecord;
  }
  uint32_t end = t_->goroutines[trace::Value(GoroutineIndexOf(sel))].end;
  for (uint32_t i = sel + 1; i < end && i <= sel + s.aux && rs[i].kind == Kind::SelectCase; ++i) {
    if (rs[i].aux == s.val || (rs[i].flags & trace::kChosen)) return i;
  }
  return kNoRecord;
}

RecordId OpIndex::SendOf(uint32_t c, uint32_t seq) const {
  if (c >= chans_.size() || seq == 0 || seq > chans_[c].values) return kNoRecord;
  return send_[seq_off_[c] + seq];
}

RecordId OpIndex::RecvOf(uint32_t c, uint32_t seq) const {
  if (c >= chans_.size() || seq == 0 || seq > chans_[c].values) return kNoRecord;
  return recv_[seq_off_[c] + seq];
}

RecordId OpIndex::Partner(RecordId rec) const {
  const auto& rs = t_->records;
  if (rs[rec].kind == Kind::Select) {
    rec = ChosenCase(rec);
    if (rec == kNoRecord) return kNoRecord;
  }
  const Record& r = rs[rec];
  uint32_t c = ObjectOf(rec);
  if (c == kNoObject || r.val == 0 || (r.flags & trace::kClosed)) return kNoRecord;
  if (rs[Owner(rec)].tpost == 0) return kNoRecord;
  switch (DirOf(r)) {
    case ChanDir::Send: return RecvOf(c, r.val);
    case ChanDir::Recv: return SendOf(c, r.val);
    default: return kNoRecord;
  }
}

RecordId OpIndex::SignalOf(RecordId wait) const {
  const Record& r = t_->records[wait];
  uint32_t c = ObjectOf(wait);
  if (r.kind != Kind::CondWait || r.tpost == 0 || c == kNoObject) return kNoRecord;
  uint32_t n = sig_off_[c + 1] - sig_off_[c];
  return r.val != 0 && r.val < n ? sig_[sig_off_[c] + r.val] : kNoRecord;
}

uint32_t OpIndex::WaitersOf(RecordId sig) const {
  auto it = std::lower_bound(waiters_.begin(), waiters_.end(), std::make_pair(sig, 0u));
  return it != waiters_.end() && it->first == sig ? it->second : 0;
}

size_t OpIndex::MemoryBytes() const {
  size_t n = gor_delta_.capacity() + send_.MemoryBytes() + recv_.MemoryBytes() +
             (obj_.capacity() + gor_.capacity() + gor_mixed_.capacity() + gor_order_.capacity() +
              seq_off_.capacity() + spawn_.capacity() + test_calls_.capacity() +
              once_runner_.capacity() + sig_off_.capacity() + sig_.capacity()) * 4 +
             chans_.capacity() * sizeof(ChannelInfo) + waiters_.capacity() * 8;
  for (const Class& k : cls_) {
    n += (k.raw.capacity() + k.direct.capacity() + k.off.capacity()) * 4 + k.ops.MemoryBytes() +
         k.sorted.capacity() * 8;
  }
  return n;
}

namespace {

// Lower bound on a channel's capacity from stamps, for channels whose
// ChanMake was not recorded: a value that was sent (tpost) before its
// receive started (tpre), or never received, sat in the buffer. The largest
// number of such values at one moment is a lower bound; a smaller capacity
// means more happens-before edges, so the guess errs towards fewer reports.
int64_t InferCapacity(const trace::Trace& t, const OpIndex& ix, uint32_t c) {
  const ChannelInfo& ci = ix.Channel(c);
  std::vector<std::pair<uint32_t, int>> ev;
  for (uint32_t v = 1; v <= ci.values; ++v) {
    uint32_t s = ix.SendOf(c, v);
    if (s == kNoRecord) continue;
    uint32_t sp = t.records[ix.Owner(s)].tpost;
    uint32_t r = ix.RecvOf(c, v);
    if (r == kNoRecord) {
      ev.push_back({sp, +1});
      continue;
    }
    uint32_t rp = t.records[ix.Owner(r)].tpre;
    if (rp > sp) {
      ev.push_back({sp, +1});
      ev.push_back({rp, -1});
    }
  }
  std::sort(ev.begin(), ev.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  });
  int64_t cur = 0, best = 0;
  for (const auto& e : ev) {
    cur += e.second;
    best = std::max(best, cur);
  }
  return best;
}

}  // namespace

namespace {
std::atomic<uint64_t> builds{0};
}  // namespace

uint64_t OpIndex::Builds() { return builds.load(); }

void OpIndex::Build(const trace::Trace& t) {
  // Sequential passes over the records (random access per channel would
  // cost a cache miss per operation on large traces), each a step below.
  builds.fetch_add(1);
  t_ = &t;
  warnings_.clear();
  tests_.clear();
  test_calls_.clear();
  exit_rec_ = kNoRecord;
  by_stamp_built_ = false;

  BuildGoroutineOf(t);
  uint8_t cls_of[256];
  for (int k = 0; k < 256; ++k) cls_of[k] = uint8_t(ClassOf(Kind(k)));
  NumberObjects(cls_of);
  std::vector<RecordId> test_ends;
  NoteOperations(cls_of, &test_ends);
  const uint32_t dups = PlaceOperations(cls_of);
  BuildTests(test_ends);
  exited_ = exit_rec_ != kNoRecord;
  if (auto it = t.meta.find("exit_status"); !exited_ && it != t.meta.end()) {
    uint32_t v = 0;
    const std::string& m = it->second;
    exited_ = std::from_chars(m.data(), m.data() + m.size(), v).ec == std::errc();
  }
  if (dups) {
    warnings_.push_back(fmt::format(
        "{} channel operations repeat a value sequence number; the later ones "
        "are analysed without their partner", dups));
  }
  InferCapacities();
  BuildCondTables();
}

// Passes 1 and 2: dense object ids and the offsets of each object's
// operation list. Pass 1: the largest raw id per class decides between a
// direct table (the recorder numbers objects densely) and sorted pairs.
// Pass 2: dense ids in order of first appearance, operation counts.
void OpIndex::NumberObjects(const uint8_t* cls_of) {
  const auto& rs = t_->records;
  const uint32_t n = static_cast<uint32_t>(rs.size());
  uint32_t maxraw[kNumObjClasses] = {};
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t c = cls_of[uint8_t(rs[i].kind)];
    if (c != kNumObjClasses) maxraw[c] = std::max(maxraw[c], rs[i].obj);
  }
  bool any_sorted = false;
  for (int c = 0; c < kNumObjClasses; ++c) {
    Class& k = cls_[c];
    k = Class{};
    k.off.push_back(0);
    if (uint64_t(maxraw[c]) <= 4ull * n + 1024) {
      k.direct.assign(uint64_t(maxraw[c]) + 1, kNoObject);
    } else {
      any_sorted = true;
    }
  }

  if (any_sorted) {
    obj_.assign(n, kNoObject);
  } else {
    obj_.clear();
    obj_.shrink_to_fit();
  }
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t c = cls_of[uint8_t(rs[i].kind)];
    if (c == kNumObjClasses || rs[i].obj == 0) continue;
    Class& k = cls_[c];
    if (k.direct.empty()) {
      k.sorted.push_back({rs[i].obj, 0});
      continue;
    }
    uint32_t& d = k.direct[rs[i].obj];
    if (d == kNoObject) {
      d = static_cast<uint32_t>(k.raw.size());
      k.raw.push_back(rs[i].obj);
      k.off.push_back(0);
    }
    if (any_sorted) obj_[i] = d;
    ++k.off[d + 1];
  }
  if (any_sorted) {
    for (int c = 0; c < kNumObjClasses; ++c) {
      Class& k = cls_[c];
      if (!k.direct.empty()) continue;
      std::sort(k.sorted.begin(), k.sorted.end());
      k.sorted.erase(std::unique(k.sorted.begin(), k.sorted.end()), k.sorted.end());
      for (uint32_t d = 0; d < k.sorted.size(); ++d) {
        k.sorted[d].second = d;
        k.raw.push_back(k.sorted[d].first);
      }
      k.off.assign(k.raw.size() + 1, 0);
    }
    for (uint32_t i = 0; i < n; ++i) {
      uint8_t c = cls_of[uint8_t(rs[i].kind)];
      if (c == kNumObjClasses || rs[i].obj == 0 || !cls_[c].direct.empty()) continue;
      obj_[i] = Dense(ObjClass(c), trace::ObjectIdOf(rs[i]));
      ++cls_[c].off[obj_[i] + 1];
    }
  }
  for (int c = 0; c < kNumObjClasses; ++c) {
    Class& k = cls_[c];
    for (size_t d = 1; d < k.off.size(); ++d) k.off[d] += k.off[d - 1];
  }
}

// A completed send/receive that carried value val (select: the chosen
// case; sel is its Select record).
bool OpIndex::IsValueOp(RecordId i, RecordId sel) const {
  const auto& rs = t_->records;
  const Record& r = rs[i];
  if (r.val == 0 || (r.flags & trace::kClosed)) return false;
  if (r.kind == Kind::ChanSend || r.kind == Kind::ChanRecv) return r.tpost != 0;
  if (r.kind == Kind::SelectCase) {
    return sel != kNoRecord && rs[sel].tpost != 0 &&
           ((r.flags & trace::kChosen) || rs[sel].val == r.aux);
  }
  return false;
}

// The Select owning SelectCase i in a sequential scan, given the last
// Select the scan passed (sel), or kNoRecord.
RecordId OpIndex::SelectOwning(RecordId i, RecordId sel) const {
  const auto& rs = t_->records;
  return sel != kNoRecord && GoroutineIndexOf(sel) == GoroutineIndexOf(i) && i - sel <= rs[sel].aux
             ? sel
             : kNoRecord;
}

// Pass 3: channel facts, spawns, Once runners, tests, the exit, and where
// each record goes in its object's operation list (Class::ops, packed in
// two passes, packed_ids.h: a plain array of them beside the packed one
// was the peak of a pipeline's analysis, docs/analysis-needs.md).
void OpIndex::NoteOperations(const uint8_t* cls_of, std::vector<RecordId>* test_ends) {
  const trace::Trace& t = *t_;
  const auto& rs = t.records;
  const uint32_t n = static_cast<uint32_t>(rs.size());
  const uint32_t ng = static_cast<uint32_t>(t.goroutines.size());
  std::vector<uint32_t> fill[kNumObjClasses];
  for (int c = 0; c < kNumObjClasses; ++c) {
    cls_[c].ops.Begin(cls_[c].off.back());
    fill[c].assign(cls_[c].off.begin(), cls_[c].off.end() - 1);
  }
  const uint32_t nch = Count(ObjClass::Chan);
  chans_.assign(nch, ChannelInfo{});
  for (uint32_t c = 0; c < nch; ++c) chans_[c].raw = Raw(ObjClass::Chan, c);
  spawn_.assign(ng, kNoRecord);
  once_runner_.assign(Count(ObjClass::Once), kNoRecord);
  uint32_t sel = kNoRecord;
  for (uint32_t i = 0; i < n; ++i) {
    const Record& r = rs[i];
    if (r.kind == Kind::Select) sel = i;
    uint32_t d = ObjectOf(i);
    if (d == kNoObject) {
      if (r.kind == Kind::GoSpawn && r.obj >= 1 && r.obj <= ng && spawn_[r.obj - 1] == kNoRecord) {
        spawn_[r.obj - 1] = i;
      } else if (r.kind == Kind::ProgramExit) {
        exit_rec_ = i;  // the last one, should a trace hold several
      } else if (r.kind == Kind::TestStart) {
        TestInfo ti;
        ti.index = r.obj;
        ti.name = r.val < t.strings.size() ? t.strings[r.val] : std::string();
        ti.gid = GidOf(i);
        ti.start = r.tpre;
        tests_.push_back(std::move(ti));
      } else if (r.kind == Kind::TestEnd) {
        test_ends->push_back(i);
      } else if (r.kind == Kind::TestCall) {
        test_calls_.push_back(i);
      }
      continue;
    }
    uint8_t c = cls_of[uint8_t(r.kind)];
    cls_[c].ops.Note(fill[c][d]++, i);
    if (c == uint8_t(ObjClass::Chan)) {
      ChannelInfo& ci = chans_[d];
      if (r.kind == Kind::ChanMake) {
        if (ci.make_rec == kNoRecord) {
          ci.make_rec = i;
          ci.capacity = r.val;
          ci.capacity_known = true;
        }
      } else if (r.kind == Kind::ChanClose) {
        if (!(r.flags & trace::kClosed) &&
            (ci.close_rec == kNoRecord || r.tpost < rs[ci.close_rec].tpost)) {
          ci.close_rec = i;
        }
      } else if (IsValueOp(i, r.kind == Kind::SelectCase ? SelectOwning(i, sel) : kNoRecord)) {
        ci.values = std::max(ci.values, r.val);
      }
    } else if (r.kind == Kind::OnceDo && (r.flags & trace::kSuccess) &&
               once_runner_[d] == kNoRecord) {
      once_runner_[d] = i;
    }
  }
}

// The value slot of channel operation i on channel c, or null when i
// carried no value (sel: its Select, for a SelectCase).
PackedIds* OpIndex::ValueSlot(RecordId i, uint32_t c, RecordId sel, size_t* slot) {
  const Record& r = t_->records[i];
  if (r.kind != Kind::ChanSend && r.kind != Kind::ChanRecv && r.kind != Kind::SelectCase) return nullptr;
  if (!IsValueOp(i, r.kind == Kind::SelectCase ? sel : kNoRecord)) return nullptr;
  const ChanDir dir = DirOf(r);
  if (dir != ChanDir::Send && dir != ChanDir::Recv) return nullptr;
  *slot = seq_off_[c] + r.val;
  return dir == ChanDir::Send ? &send_ : &recv_;
}

// Pass 4: the operation lists put in place; the exact partner tables, by
// value sequence number, noted (packed like the lists). Pass 5: the
// partners put in place. Returns how many operations repeat a value
// number (the first operation with that value keeps it).
uint32_t OpIndex::PlaceOperations(const uint8_t* cls_of) {
  const trace::Trace& t = *t_;
  const auto& rs = t.records;
  const uint32_t n = static_cast<uint32_t>(rs.size());
  const uint32_t nch = Count(ObjClass::Chan);
  std::vector<uint32_t> fill[kNumObjClasses];
  for (int c = 0; c < kNumObjClasses; ++c) {
    cls_[c].ops.Allocate();
    fill[c].assign(cls_[c].off.begin(), cls_[c].off.end() - 1);
  }
  seq_off_.assign(nch + 1, 0);
  for (uint32_t c = 0; c < nch; ++c) seq_off_[c + 1] = seq_off_[c] + chans_[c].values + 1;
  uint32_t dups = 0;
  send_.Begin(seq_off_[nch]);
  recv_.Begin(seq_off_[nch]);
  uint32_t sel = kNoRecord;
  for (uint32_t i = 0; i < n; ++i) {
    const Record& r = rs[i];
    if (r.kind == Kind::Select) sel = i;
    const uint8_t k = cls_of[uint8_t(r.kind)];
    if (k == kNumObjClasses) continue;
    const uint32_t c = ObjectOf(i);
    if (c == kNoObject) continue;
    cls_[k].ops.Put(fill[k][c]++, i);
    size_t slot = 0;
    if (k != uint8_t(ObjClass::Chan)) continue;
    if (PackedIds* table = ValueSlot(i, c, SelectOwning(i, sel), &slot)) table->Note(slot, i);
  }
  send_.Allocate();
  recv_.Allocate();
  // Pass 5 walks the channels' operation lists, not the whole trace.
  for (uint32_t c = 0; c < nch; ++c) {
    for (uint32_t i : Ops(ObjClass::Chan, c)) {
      uint32_t owner = kNoRecord;
      if (rs[i].kind == Kind::SelectCase) {
        // The last Select before i, as the walk of pass 4 had it (aux, a
        // select's cases, is at most 65,535).
        const uint32_t begin = t.goroutines[trace::Value(GoroutineIndexOf(i))].begin;
        uint32_t j = i;
        while (j > begin && i - j <= 0xffff && rs[j].kind != Kind::Select) --j;
        owner = SelectOwning(i, rs[j].kind == Kind::Select ? j : kNoRecord);
      }
      size_t slot = 0;
      PackedIds* table = ValueSlot(i, c, owner, &slot);
      if (table == nullptr) continue;
      if ((*table)[slot] != kNoRecord) ++dups;  // the first operation with that value keeps it
      else table->Put(slot, i);
    }
  }
  return dups;
}

// The capacity of every channel without a recorded make, inferred from
// the trace (InferCapacity: a lower bound), with a warning that says so.
void OpIndex::InferCapacities() {
  const uint32_t nch = Count(ObjClass::Chan);
  uint32_t inferred = 0;
  for (uint32_t c = 0; c < nch; ++c) {
    if (chans_[c].capacity_known) continue;
    chans_[c].capacity = InferCapacity(*t_, *this, c);
    ++inferred;
  }
  if (inferred) {
    warnings_.push_back(fmt::format(
        "{} channel(s) have no recorded make; their capacity was inferred "
        "from the trace (a lower bound)", inferred));
  }
}

// Cond tickets (docs/trace-format.md "Cond"): Wait takes ticket t and
// records val = t+1; Signal records the val of the waiter it woke (0 if
// none); Broadcast records the notify counter after it (val) and how many
// tickets it woke (aux): it woke every val in (val - aux, val]. Table:
// per cond, for each val, the Signal/Broadcast that woke it; and per
// Signal/Broadcast, how many waits it woke.
void OpIndex::BuildCondTables() {
  const auto& rs = t_->records;
  const uint32_t ncond = Count(ObjClass::Cond);
  sig_off_.assign(ncond + 1, 0);
  for (uint32_t c = 0; c < ncond; ++c) {
    uint32_t top = 0;
    for (uint32_t i : Ops(ObjClass::Cond, c)) top = std::max(top, rs[i].val);
    sig_off_[c + 1] = sig_off_[c] + top + 1;
  }
  sig_.assign(sig_off_[ncond], kNoRecord);
  for (uint32_t c = 0; c < ncond; ++c) {
    // Ops are in trace order, not time order: assign in stamp order so that
    // a saturated Broadcast only claims tickets no earlier wake claimed.
    std::vector<uint32_t> wakes;
    for (uint32_t i : Ops(ObjClass::Cond, c)) {
      if (rs[i].kind == Kind::CondSignal || rs[i].kind == Kind::CondBroadcast) wakes.push_back(i);
    }
    std::sort(wakes.begin(), wakes.end(),
              [&](uint32_t a, uint32_t b) { return rs[a].tpost < rs[b].tpost; });
    for (uint32_t i : wakes) {
      const Record& r = rs[i];
      if (r.val == 0) continue;
      uint32_t lo = r.val;
      if (r.kind == Kind::CondBroadcast) {
        lo = r.aux == 0xffff || r.aux >= r.val ? 1 : r.val - r.aux + 1;
        if (r.aux == 0) continue;
      }
      for (uint32_t v = lo; v <= r.val; ++v) {
        uint32_t& s = sig_[sig_off_[c] + v];
        if (s == kNoRecord) s = i;
      }
    }
  }
  std::vector<uint32_t> woke;
  for (uint32_t c = 0; c < ncond; ++c) {
    for (uint32_t i : Ops(ObjClass::Cond, c)) {
      uint32_t s = SignalOf(i);
      if (s != kNoRecord) woke.push_back(s);
    }
  }
  std::sort(woke.begin(), woke.end());
  waiters_.clear();
  for (size_t i = 0; i < woke.size();) {
    size_t j = i;
    while (j < woke.size() && woke[j] == woke[i]) ++j;
    waiters_.push_back({woke[i], static_cast<uint32_t>(j - i)});
    i = j;
  }
}


void OpIndex::BuildTests(const std::vector<RecordId>& test_ends) {
  const trace::Trace& t = *t_;
  const uint32_t ng = static_cast<uint32_t>(t.goroutines.size());
  std::map<uint32_t, size_t> test_pos;  // test index -> tests_ position (the last start)
  for (size_t k = 0; k < tests_.size(); ++k) test_pos[tests_[k].index] = k;
  for (uint32_t i : test_ends) {
    const Record& r = t.records[i];
    auto it = test_pos.find(r.obj);
    if (it == test_pos.end()) continue;
    tests_[it->second].end = r.tpre;
    tests_[it->second].end_rec = i;
    tests_[it->second].failed = (r.flags & trace::kFailed) != 0;
  }

  // A goroutine belongs to the test it started (exactly one TestStart), or
  // else to the test of its nearest ancestor; -2 marks "ambiguous: decide by
  // time window", -3 "outside every test": its spawn chain reaches the main
  // goroutine without a TestStart (TestMain, init, an Example function, which
  // runs on the main goroutine). Only a chain that breaks off (a goroutine
  // the runtime started) is left to the time window (-1).
  std::vector<int> starts(ng + 1, 0);
  std::vector<int32_t> own(ng + 1, -1);
  for (size_t k = 0; k < tests_.size(); k++) {
    uint32_t g = trace::Value(tests_[k].gid);
    if (g <= ng) {
      starts[g]++;
      own[g] = static_cast<int32_t>(k);
    }
  }
  // Each goroutine's answer is its own (a TestStart, the main goroutine) or
  // its nearest ancestor's; a chain that breaks off is -1.
  test_of_gid_ = trace::ByNearestAncestor<int32_t>(
      t,
      [&](uint32_t g) -> std::optional<int32_t> {
        if (starts[g] == 1) return own[g];
        if (starts[g] > 1) return -2;
        if (g == 1) return -3;
        return std::nullopt;
      },
      -1);
}

const TestInfo* OpIndex::TestByIndex(uint32_t index) const {
  for (const TestInfo& ti : tests_) {
    if (ti.index == index) return &ti;
  }
  return nullptr;
}

std::string OpIndex::TestOfGoroutine(Gid id, uint32_t stamp) const {
  const uint32_t gid = trace::Value(id);
  if (gid < test_of_gid_.size() && test_of_gid_[gid] >= 0) {
    return tests_[static_cast<size_t>(test_of_gid_[gid])].name;
  }
  if (gid < test_of_gid_.size() && test_of_gid_[gid] == -3) return "";
  // Ambiguous or unknown: the innermost test whose window holds the stamp.
  const TestInfo* best = nullptr;
  for (const TestInfo& ti : tests_) {
    if (ti.start <= stamp && stamp <= ti.end && (best == nullptr || ti.start > best->start)) {
      best = &ti;
    }
  }
  return best != nullptr ? best->name : "";
}

void OpIndex::BuildStampOrder() const {
  const auto& rs = t_->records;
  auto by_tpre = [&](uint32_t a, uint32_t b) { return rs[a].tpre < rs[b].tpre; };
  for (int c = 0; c < kNumObjClasses; ++c) {
    const Class& k = cls_[c];
    by_stamp_[c].resize(k.ops.size());
    for (size_t i = 0; i < k.ops.size(); ++i) by_stamp_[c][i] = k.ops[i];
    for (size_t d = 0; d + 1 < k.off.size(); ++d) {
      std::stable_sort(by_stamp_[c].begin() + k.off[d], by_stamp_[c].begin() + k.off[d + 1], by_tpre);
    }
    raw0_[c].clear();
  }
  for (uint32_t i = 0; i < rs.size(); ++i) {
    ObjClass c = ClassOf(rs[i].kind);
    if (c != ObjClass::None && rs[i].obj == 0) raw0_[int(c)].push_back(i);
  }
  for (auto& v : raw0_) std::stable_sort(v.begin(), v.end(), by_tpre);
  by_stamp_built_ = true;
}

std::span<const RecordId> OpIndex::OpsByStamp(ObjClass c, ObjectId raw) const {
  if (c == ObjClass::None) return {};
  if (!by_stamp_built_) BuildStampOrder();
  if (raw == ObjectId(0)) return raw0_[int(c)];
  uint32_t d = Dense(c, raw);
  if (d == kNoObject) return {};
  const Class& k = cls_[int(c)];
  return {by_stamp_[int(c)].data() + k.off[d], k.off[d + 1] - k.off[d]};
}

}  // namespace gordian::hb
