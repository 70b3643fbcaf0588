// This file implements the operation index: dense object ids, per-object
// operation lists (CSR arrays, one pass to count and one to fill), and the
// exact partner tables keyed by value sequence number.
#include "gordian/hb/op_index.h"

#include <algorithm>

#include <fmt/format.h>

namespace gordian::hb {

using trace::Kind;
using trace::Record;

ObjClass ClassOf(Kind k) {
  switch (k) {
    case Kind::ChanMake: case Kind::ChanSend: case Kind::ChanRecv:
    case Kind::ChanClose: case Kind::SelectCase:
      return ObjClass::Chan;
    case Kind::MutexLock: case Kind::MutexUnlock: case Kind::MutexTryLock:
      return ObjClass::Mutex;
    case Kind::RWLock: case Kind::RWUnlock: case Kind::RLock: case Kind::RUnlock:
    case Kind::RWTryLock: case Kind::RWTryRLock:
      return ObjClass::RWMutex;
    case Kind::WgAdd: case Kind::WgWait:
      return ObjClass::WaitGroup;
    case Kind::OnceDo:
      return ObjClass::Once;
    case Kind::CondWait: case Kind::CondSignal: case Kind::CondBroadcast:
      return ObjClass::Cond;
    default:
      return ObjClass::Count_;
  }
}

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

uint32_t OpIndex::Dense(ObjClass c, uint32_t raw) const {
  const Class& k = cls_[int(c)];
  if (!k.direct.empty() || k.sorted.empty()) {
    return raw < k.direct.size() ? k.direct[raw] : kNoObject;
  }
  auto it = std::lower_bound(k.sorted.begin(), k.sorted.end(),
                             std::make_pair(raw, 0u));
  return it != k.sorted.end() && it->first == raw ? it->second : kNoObject;
}

uint32_t OpIndex::Owner(uint32_t rec) const {
  const auto& rs = t_->records;
  if (rs[rec].kind != Kind::SelectCase) return rec;
  uint32_t g = gor_[rec];
  uint32_t begin = t_->goroutines[g].begin;
  uint32_t i = rec;
  while (i > begin && rs[i].kind == Kind::SelectCase) --i;
  return rs[i].kind == Kind::Select ? i : rec;
}

uint32_t OpIndex::ChosenCase(uint32_t sel) const {
  const auto& rs = t_->records;
  const Record& s = rs[sel];
  if (s.kind != Kind::Select || s.tpost == 0 || s.val == trace::kDefaultCase) {
    return kNoRecord;
  }
  uint32_t end = t_->goroutines[gor_[sel]].end;
  for (uint32_t i = sel + 1; i < end && i <= sel + s.aux && rs[i].kind == Kind::SelectCase; ++i) {
    if (rs[i].aux == s.val || (rs[i].flags & trace::kChosen)) return i;
  }
  return kNoRecord;
}

uint32_t OpIndex::SendOf(uint32_t c, uint32_t seq) const {
  if (c >= chans_.size() || seq == 0 || seq > chans_[c].values) return kNoRecord;
  return send_[seq_off_[c] + seq];
}

uint32_t OpIndex::RecvOf(uint32_t c, uint32_t seq) const {
  if (c >= chans_.size() || seq == 0 || seq > chans_[c].values) return kNoRecord;
  return recv_[seq_off_[c] + seq];
}

uint32_t OpIndex::Partner(uint32_t rec) const {
  const auto& rs = t_->records;
  if (rs[rec].kind == Kind::Select) {
    rec = ChosenCase(rec);
    if (rec == kNoRecord) return kNoRecord;
  }
  const Record& r = rs[rec];
  uint32_t c = obj_[rec];
  if (c == kNoObject || r.val == 0 || (r.flags & trace::kClosed)) return kNoRecord;
  if (rs[Owner(rec)].tpost == 0) return kNoRecord;
  switch (DirOf(r)) {
    case ChanDir::Send: return RecvOf(c, r.val);
    case ChanDir::Recv: return SendOf(c, r.val);
    default: return kNoRecord;
  }
}

uint32_t OpIndex::SignalOf(uint32_t wait) const {
  const Record& r = t_->records[wait];
  uint32_t c = obj_[wait];
  if (r.kind != Kind::CondWait || r.tpost == 0 || c == kNoObject) return kNoRecord;
  uint32_t n = sig_off_[c + 1] - sig_off_[c];
  return r.val != 0 && r.val < n ? sig_[sig_off_[c] + r.val] : kNoRecord;
}

uint32_t OpIndex::WaitersOf(uint32_t sig) const {
  auto it = std::lower_bound(waiters_.begin(), waiters_.end(), std::make_pair(sig, 0u));
  return it != waiters_.end() && it->first == sig ? it->second : 0;
}

size_t OpIndex::MemoryBytes() const {
  size_t n = (obj_.capacity() + gor_.capacity() + seq_off_.capacity() +
              send_.capacity() + recv_.capacity() + spawn_.capacity() +
              once_runner_.capacity() + sig_off_.capacity() + sig_.capacity()) * 4 +
             chans_.capacity() * sizeof(ChannelInfo) + waiters_.capacity() * 8;
  for (const Class& k : cls_) {
    n += (k.raw.capacity() + k.direct.capacity() + k.off.capacity() + k.ops.capacity()) * 4 +
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

void OpIndex::Build(const trace::Trace& t, std::vector<std::string>* warnings) {
  t_ = &t;
  const auto& rs = t.records;
  const uint32_t n = static_cast<uint32_t>(rs.size());
  const uint32_t ng = static_cast<uint32_t>(t.goroutines.size());

  gor_.assign(n, kNoObject);
  for (uint32_t g = 0; g < ng; ++g) {
    const auto& gr = t.goroutines[g];
    for (uint32_t i = gr.begin; i < gr.end && i < n; ++i) gor_[i] = g;
  }

  // Dense ids per class: direct table when raw ids are small (the recorder
  // numbers objects densely), sorted pairs otherwise.
  uint32_t maxraw[kNumObjClasses] = {};
  for (uint32_t i = 0; i < n; ++i) {
    ObjClass c = ClassOf(rs[i].kind);
    if (c != ObjClass::Count_) maxraw[int(c)] = std::max(maxraw[int(c)], rs[i].obj);
  }
  obj_.assign(n, kNoObject);
  for (int c = 0; c < kNumObjClasses; ++c) {
    Class& k = cls_[c];
    k = Class{};
    if (uint64_t(maxraw[c]) <= 4ull * n + 1024) {
      k.direct.assign(uint64_t(maxraw[c]) + 1, kNoObject);
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    int c = int(ClassOf(rs[i].kind));
    if (c == kNumObjClasses || rs[i].obj == 0) continue;
    Class& k = cls_[c];
    if (!k.direct.empty()) {
      uint32_t& d = k.direct[rs[i].obj];
      if (d == kNoObject) {
        d = static_cast<uint32_t>(k.raw.size());
        k.raw.push_back(rs[i].obj);
      }
      obj_[i] = d;
    } else {
      k.sorted.push_back({rs[i].obj, 0});
    }
  }
  for (int c = 0; c < kNumObjClasses; ++c) {
    Class& k = cls_[c];
    if (k.direct.empty() && !k.sorted.empty()) {
      std::sort(k.sorted.begin(), k.sorted.end());
      k.sorted.erase(std::unique(k.sorted.begin(), k.sorted.end()), k.sorted.end());
      for (uint32_t d = 0; d < k.sorted.size(); ++d) {
        k.sorted[d].second = d;
        k.raw.push_back(k.sorted[d].first);
      }
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    ObjClass c = ClassOf(rs[i].kind);
    if (c == ObjClass::Count_ || rs[i].obj == 0 || obj_[i] != kNoObject) continue;
    obj_[i] = Dense(c, rs[i].obj);
  }

  // Operation lists (CSR).
  for (int c = 0; c < kNumObjClasses; ++c) cls_[c].off.assign(cls_[c].raw.size() + 1, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (obj_[i] != kNoObject) ++cls_[int(ClassOf(rs[i].kind))].off[obj_[i] + 1];
  }
  for (int c = 0; c < kNumObjClasses; ++c) {
    Class& k = cls_[c];
    for (size_t d = 1; d < k.off.size(); ++d) k.off[d] += k.off[d - 1];
    k.ops.resize(k.off.back());
  }
  {
    std::vector<uint32_t> fill[kNumObjClasses];
    for (int c = 0; c < kNumObjClasses; ++c) fill[c].assign(cls_[c].off.begin(), cls_[c].off.end() - 1);
    for (uint32_t i = 0; i < n; ++i) {
      if (obj_[i] == kNoObject) continue;
      int c = int(ClassOf(rs[i].kind));
      cls_[c].ops[fill[c][obj_[i]]++] = i;
    }
  }

  // Channels: capacity, close, value count, partner tables.
  const uint32_t nch = Count(ObjClass::Chan);
  chans_.assign(nch, ChannelInfo{});
  auto is_value_op = [&](uint32_t i) -> bool {
    // A completed send/receive that carried value val (select: chosen case).
    const Record& r = rs[i];
    if (r.val == 0 || (r.flags & trace::kClosed)) return false;
    if (r.kind == Kind::ChanSend || r.kind == Kind::ChanRecv) return r.tpost != 0;
    if (r.kind == Kind::SelectCase) {
      uint32_t o = Owner(i);
      return o != i && rs[o].tpost != 0 &&
             ((r.flags & trace::kChosen) || rs[o].val == r.aux);
    }
    return false;
  };
  for (uint32_t c = 0; c < nch; ++c) {
    ChannelInfo& ci = chans_[c];
    ci.raw = cls_[int(ObjClass::Chan)].raw[c];
    for (uint32_t i : Ops(ObjClass::Chan, c)) {
      const Record& r = rs[i];
      if (r.kind == Kind::ChanMake && ci.make_rec == kNoRecord) {
        ci.make_rec = i;
        ci.capacity = r.val;
        ci.capacity_known = true;
      } else if (r.kind == Kind::ChanClose && !(r.flags & trace::kClosed)) {
        if (ci.close_rec == kNoRecord || rs[i].tpost < rs[ci.close_rec].tpost) ci.close_rec = i;
      } else if (is_value_op(i)) {
        ci.values = std::max(ci.values, r.val);
      }
    }
  }
  seq_off_.assign(nch + 1, 0);
  for (uint32_t c = 0; c < nch; ++c) seq_off_[c + 1] = seq_off_[c] + chans_[c].values + 1;
  send_.assign(seq_off_[nch], kNoRecord);
  recv_.assign(seq_off_[nch], kNoRecord);
  uint32_t dups = 0;
  for (uint32_t c = 0; c < nch; ++c) {
    for (uint32_t i : Ops(ObjClass::Chan, c)) {
      if (!is_value_op(i)) continue;
      ChanDir d = DirOf(rs[i]);
      if (d != ChanDir::Send && d != ChanDir::Recv) continue;
      uint32_t& slot = (d == ChanDir::Send ? send_ : recv_)[seq_off_[c] + rs[i].val];
      if (slot != kNoRecord) ++dups;
      else slot = i;
    }
  }
  if (dups && warnings) {
    warnings->push_back(fmt::format(
        "{} channel operations repeat a value sequence number; the later ones "
        "are analysed without their partner", dups));
  }
  uint32_t inferred = 0;
  for (uint32_t c = 0; c < nch; ++c) {
    if (chans_[c].capacity_known) continue;
    chans_[c].capacity = InferCapacity(t, *this, c);
    ++inferred;
  }
  if (inferred && warnings) {
    warnings->push_back(fmt::format(
        "{} channel(s) have no recorded make; their capacity was inferred "
        "from the trace (a lower bound)", inferred));
  }

  // Spawns, Once runners.
  spawn_.assign(ng, kNoRecord);
  once_runner_.assign(Count(ObjClass::Once), kNoRecord);
  for (uint32_t i = 0; i < n; ++i) {
    const Record& r = rs[i];
    if (r.kind == Kind::GoSpawn && r.obj >= 1 && r.obj <= ng) {
      if (spawn_[r.obj - 1] == kNoRecord) spawn_[r.obj - 1] = i;
    } else if (r.kind == Kind::OnceDo && (r.flags & trace::kSuccess) && obj_[i] != kNoObject) {
      if (once_runner_[obj_[i]] == kNoRecord) once_runner_[obj_[i]] = i;
    }
  }

  // Cond tickets (docs/trace-format.md "Cond"): Wait takes ticket t and
  // records val = t+1; Signal records the val of the waiter it woke (0 if
  // none); Broadcast records the notify counter after it (val) and how many
  // tickets it woke (aux): it woke every val in (val - aux, val]. Table:
  // per cond, for each val, the Signal/Broadcast that woke it.
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

}  // namespace gordian::hb
