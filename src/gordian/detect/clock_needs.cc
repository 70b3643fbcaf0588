// This file implements UnneededClocks (clock_needs.h): one walk over each
// goroutine's records with the locks it holds, marking the locks some
// detector asks about and the channel records some detector can ask about
// as the b of Before(a, b), and gathering what the channel rules need of
// every channel (its users, receive sites, whether a receive saw its
// close); then the rules that look at a whole channel, on the few channels
// they apply to; then the mask, in one pass over the records.
//
// Why so (speed at 10,000 goroutines, docs/scale.md): the operations of a
// channel lie in every goroutine's part of the trace, so a pass over one channel's operations reads a
// record at a new place each time, and a rule that follows a partner (the
// select a plain operation met) reads two. With one such pass per rule,
// deciding the needs cost more than a tenth of the engine at 10,000
// goroutines; the walk and the mask read the records in order instead.
#include "gordian/detect/clock_needs.h"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "gordian/util/phase_timing.h"

namespace gordian::detect {

namespace {

using hb::ChanDir;
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

// Per channel: the directions of operations whose clocks select leak's
// search for another ready case reads (bits of DirBit).
uint8_t DirBit(ChanDir d) { return d == ChanDir::Send ? 1 : d == ChanDir::Recv ? 2 : 0; }

// concurrent_recv.cc compares at most this many receives of each site.
constexpr uint32_t kConcurrentRecvPerSite = 64;

// Per channel, which goroutines send on it (but for sends that
// panicked), receive from it, and whether a close that did not panic
// closed it: what MayTakeAnotherCase asks.
struct Goroutines {
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t first = kNone;
  bool several = false;
  void Add(uint32_t g) {
    if (first == kNone) first = g;
    else if (first != g) several = true;
  }
  bool Other(uint32_t g) const { return several || (first != kNone && first != g); }
};
struct Users {
  Goroutines send, recv;
  bool closed = false;
};

class Marker {
 public:
  explicit Marker(const hb::OpIndex& ops) : ops_(ops), t_(ops.trace()) {
    for (int c = 0; c < trace::kNumObjClasses; ++c) {
      needed_[c].assign(ops.Count(ObjClass(c)), 0);
    }
    keep_.assign(t_.records.size(), 0);
    const uint32_t nch = ops.Count(ObjClass::Chan);
    want_dirs_.assign(nch, 0);
    users_.assign(nch, {});
    has_cases_.assign(nch, 0);
    saw_close_.assign(nch, {});
    other_case_.assign(nch, 0);
    sites_.assign(nch, {});
  }
  // The whole object keeps its clocks (the lock rules).
  void Need(ObjClass c, uint32_t obj) {
    if (obj != hb::kNoObject && Eligible(c)) needed_[int(c)][obj] = 1;
  }
  // This record keeps its clock: on a channel, or a select, the record
  // itself (the channel rules are per record), on a lock its whole object.
  void NeedRecord(uint32_t rec) {
    const ObjClass c = trace::ClassOf(Rec(rec).kind);
    if (c == ObjClass::Chan || Rec(rec).kind == Kind::Select) keep_[rec] |= kKeep;
    else Need(c, ops_.ObjectOf(rec));
  }
  bool Needed(ObjClass c, uint32_t obj) const { return needed_[int(c)][obj] != 0; }
  bool Kept(uint32_t rec) const { return (keep_[rec] & kKeep) != 0; }
  // A select's record holds the clock of its cases: it keeps it when some
  // rule keeps the select or one of its cases, or when one of its channels
  // is small (an object of up to min_ops operations keeps every clock).
  bool SelectKept(uint32_t q, uint32_t min_ops) const {
    if (Kept(q)) return true;
    const uint32_t end = t_.goroutines[trace::Value(ops_.GoroutineIndexOf(q))].end;
    for (uint32_t k = q + 1; k < end && k <= q + Rec(q).aux && Rec(k).kind == Kind::SelectCase; ++k) {
      if (Kept(k)) return true;
      uint32_t d = ops_.ObjectOf(k);
      if (d != hb::kNoObject && ops_.Ops(ObjClass::Chan, d).size() <= min_ops) return true;
    }
    return false;
  }
  const trace::Record& Rec(uint32_t i) const { return t_.records[i]; }

  // One goroutine's records in program order, with the locks it holds.
  void Walk(uint32_t begin, uint32_t end) {
    held_.clear();
    uint32_t select = hb::kNoRecord;
    for (uint32_t i = begin; i < end; ++i) {
      const trace::Record& r = Rec(i);
      const ObjClass cls = trace::ClassOf(r.kind);
      const uint32_t obj = ops_.ObjectOf(i);
      if (r.kind == Kind::Select) selects_.push_back(i);
      if (cls == ObjClass::Chan && obj != hb::kNoObject) ChannelFacts(i, obj);
      // Never completed (leaks: Before(partner, x) reads x), failed or saw
      // a closed channel (recv on closed asks Concurrent(rv, rc) of the
      // receives that saw the close), a close (send and recv on closed:
      // Before(send, close)).
      // (A select case's own stamps do not say: its select's do.)
      // (OpIndex::Owner from the walk: the Select right before this run of
      // cases, if any.)
      if (r.kind == Kind::Select) select = i;
      else if (r.kind != Kind::SelectCase) select = hb::kNoRecord;
      const uint32_t owner = r.kind == Kind::SelectCase && select != hb::kNoRecord ? select : i;
      const bool stuck = Rec(owner).tpost == 0;
      if (stuck || (r.flags & (trace::kFailed | trace::kClosed)) || r.kind == Kind::ChanClose) {
        NeedRecord(i);
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
      // A channel operation or select done under a lock: itself (mixed
      // deadlock's partner search for it asks this engine). The locks
      // themselves, and locks taken under others, are asked about only by
      // the engine without lock edges, which picks its own clocks
      // (predicted/weak_unneeded.cc).
      const bool chan_op = cls == ObjClass::Chan || r.kind == Kind::Select;
      const size_t others = held_.size() - (releases < held_.size() ? 1 : 0);
      if (chan_op && others > 0) NeedRecord(i);
      if (releases < held_.size()) held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(releases));
      if (Acquired(r) && obj != hb::kNoObject) {
        for (const Held& h : held_) {
          if (h.cls == cls && h.obj == obj) Need(cls, obj);  // locked again while held
        }
        held_.push_back({cls, obj, ReaderSide(r.kind)});
      }
    }
  }

  // What the channel rules need to know of operation i on channel d, read
  // in the walk (in trace order) rather than by a pass per channel and rule.
  void ChannelFacts(uint32_t i, uint32_t d) {
    const trace::Record& r = Rec(i);
    if (r.kind == Kind::SelectCase) has_cases_[d] = 1;
    // Who uses the channel (MayTakeAnotherCase).
    const ChanDir dir = hb::DirOf(r);
    const uint32_t g = trace::Value(ops_.GoroutineIndexOf(i));
    Users& u = users_[d];
    if (dir == ChanDir::Send && !(r.flags & trace::kClosed)) u.send.Add(g);
    if (dir == ChanDir::Recv) u.recv.Add(g);
    if (dir == ChanDir::Close && !(r.flags & trace::kClosed)) u.closed = true;
    // Its receive sites (ReceiveSites).
    if (r.kind == Kind::ChanRecv && r.obj != 0) {
      ChannelSites& st = sites_[d];
      if (!st.any) st.first = r.site, st.any = true;
      else st.several = st.several || r.site != st.first;
    }
    const uint32_t close = ops_.Channel(d).close_rec;
    if (close == hb::kNoRecord) return;
    // A receive that saw the close (Channel()'s value receives).
    if ((r.flags & trace::kClosed) && dir == ChanDir::Recv) {
      const uint32_t own = ops_.Owner(i);
      if (Rec(own).tpost != 0 && (own == i || ops_.ChosenCase(own) == i)) saw_close_[d].Add(g);
    }
    // Send on closed asks Before(close, send) of a plain send only when the
    // send started after the close completed (send_on_closed.cc): earlier,
    // the close cannot be before it.
    const trace::Record& cl = Rec(close);
    if (r.kind == Kind::ChanSend && !(r.flags & trace::kClosed) && r.tpost != 0 && cl.tpost != 0 &&
        r.tpre > cl.tpost) {
      keep_[i] |= kKeep;
    }
  }

  // After the walk: the cases p of every select q (on an unbuffered
  // channel) with which q may have had another case ready
  // (MayTakeAnotherCase), for select leak's rule in Channel(). From the
  // select's side, whose cases are next to it in the trace; most selects
  // have none, and their channels then need no pass at all.
  void OtherCases() {
    for (uint32_t q : selects_) {
      const uint32_t end = t_.goroutines[trace::Value(ops_.GoroutineIndexOf(q))].end;
      // Every case whose Owner() is q: the cases right after it.
      for (uint32_t p = q + 1; p < end && Rec(p).kind == Kind::SelectCase; ++p) {
        const uint32_t d = ops_.ObjectOf(p);
        if (d == hb::kNoObject || ops_.Channel(d).capacity != 0 || !MayTakeAnotherCase(q, p)) continue;
        keep_[p] |= kOtherCase;
        other_case_[d] = 1;
      }
    }
  }

  // The rules of one channel d that look at all of its operations.
  void Channel(uint32_t d) {
    auto recs = ops_.Ops(ObjClass::Chan, d);
    const hb::ChannelInfo& info = ops_.Channel(d);
    // Send on closed asks Before(send, close) (the close's clock), and
    // Before(close, send) of a plain send only when the send started after
    // the close completed (send_on_closed.cc): earlier, the close cannot
    // be before it.
    // Recv on closed asks Before(rv, close) and Before(sender, close) (the
    // close's clock), and, when some receive saw the channel closed,
    // Concurrent(rv, rc) of each value receive rv with those receives.
    // (The sends are decided in ChannelFacts.) Concurrent reads no clock
    // for two records of one goroutine (program order answers), so rv keeps
    // its clock only when a receive of another goroutine saw the close: a
    // pipeline stage that ranges over its input until the close keeps none.
    const Goroutines& saw = saw_close_[d];
    if (info.close_rec != hb::kNoRecord && saw.first != Goroutines::kNone) {
      for (uint32_t i : recs) {
        const trace::Record& r = Rec(i);
        if ((r.flags & trace::kClosed) || hb::DirOf(r) != ChanDir::Recv) continue;
        if (!saw.Other(trace::Value(ops_.GoroutineIndexOf(i)))) continue;
        const uint32_t own = ops_.Owner(i);
        if (Rec(own).tpost == 0) continue;
        // A value receive, plain or the chosen case of a select.
        if (own == i || ops_.ChosenCase(own) == i) keep_[i] |= kKeep;
      }
    }
    // Select leak, on an unbuffered channel: a plain operation x whose
    // partner is a select case; it asks Before(y, x) of x's clock for the
    // other operations y, and, for each other case of that select, whether
    // an operation of the other direction on the case's channel (or its
    // close, kept above) is concurrent with the select: their clocks.
    // Neither is asked when the select cannot have taken another case:
    // select_leak.cc's Alternative() finds none without a clock.
    // (Which cases may: OtherCases.)
    if (info.capacity == 0 && has_cases_[d] && other_case_[d]) {
      for (uint32_t x : recs) {
        const trace::Record& r = Rec(x);
        if ((r.kind != Kind::ChanSend && r.kind != Kind::ChanRecv) || r.tpost == 0) continue;
        uint32_t p = ops_.Partner(x);
        if (p == hb::kNoRecord || !(keep_[p] & kOtherCase)) continue;
        uint32_t q = ops_.Owner(p);
        keep_[x] |= kKeep;
        keep_[q] |= kKeep;  // Alternative() asks Before(y, q)
        const uint32_t end = t_.goroutines[trace::Value(ops_.GoroutineIndexOf(q))].end;
        for (uint32_t k = q + 1; k < end && k <= q + Rec(q).aux && Rec(k).kind == Kind::SelectCase;
             ++k) {
          uint32_t d2 = ops_.ObjectOf(k);
          if (k == p || d2 == hb::kNoObject) continue;
          want_dirs_[d2] |= DirBit(hb::DirOf(Rec(k)) == ChanDir::Send ? ChanDir::Recv : ChanDir::Send);
        }
      }
    }
  }

  // Whether select q, which took case p, may have had another case ready
  // in some schedule as select_leak.cc's Alternative() looks for one: a
  // default; or another case whose channel some other goroutine operates
  // on in the other direction, or, for a receive case, that is closed or
  // that no one sends on or closes and no make(chan) of the run made (a
  // timer, a context). Without any, Alternative() reads no clock.
  bool MayTakeAnotherCase(uint32_t q, uint32_t p) const {
    const trace::Record& s = Rec(q);
    if (s.flags & trace::kHasDefault) return true;
    const uint32_t gq = trace::Value(ops_.GoroutineIndexOf(q));
    const uint32_t end = t_.goroutines[gq].end;
    for (uint32_t k = q + 1; k < end && k <= q + s.aux && Rec(k).kind == Kind::SelectCase; ++k) {
      uint32_t d = ops_.ObjectOf(k);
      if (k == p || d == hb::kNoObject) continue;
      const Users& u = users_[d];
      if (hb::DirOf(Rec(k)) == ChanDir::Send) {
        if (u.recv.Other(gq)) return true;
      } else if (u.send.Other(gq) || u.closed ||
                 (u.send.first == Goroutines::kNone && !ops_.Channel(d).capacity_known)) {
        return true;
      }
    }
    return false;
  }

  // Per class and object: whether some record of it keeps its clock (one
  // pass over the keep bits; the records read are the few kept).
  std::array<std::vector<uint8_t>, trace::kNumObjClasses> KeptObjects() const {
    std::array<std::vector<uint8_t>, trace::kNumObjClasses> out;
    for (int c = 0; c < trace::kNumObjClasses; ++c) out[c].assign(ops_.Count(ObjClass(c)), 0);
    for (uint32_t i = 0; i < keep_.size(); ++i) {
      if (!(keep_[i] & kKeep)) continue;
      const uint32_t obj = ops_.ObjectOf(i);
      if (obj != hb::kNoObject) out[int(trace::ClassOf(Rec(i).kind))][obj] = 1;
    }
    return out;
  }

  // The operations select leak wants of channel d (after every Channel()).
  void WantedDirections(uint32_t d) {
    if (want_dirs_[d] == 0) return;
    for (uint32_t i : ops_.Ops(ObjClass::Chan, d)) {
      if (DirBit(hb::DirOf(Rec(i))) & want_dirs_[d]) keep_[i] |= kKeep;
    }
  }

  // Concurrent receives: Concurrent(a, b) of plain receives of one channel
  // (trace object id, as concurrent_recv.cc groups them) at two different
  // sites, the first 64 of each site. A channel received from at one site
  // only (a worker pool) needs none.
  void ReceiveSites() {
    // Per trace object id (one or more channels of the index): its first
    // receive site and whether it has others, from each channel's
    // (ChannelFacts).
    struct Sites {
      uint32_t first;
      bool several;
    };
    std::unordered_map<uint32_t, Sites> sites;
    const uint32_t nch = ops_.Count(ObjClass::Chan);
    for (uint32_t d = 0; d < nch; ++d) {
      const ChannelSites& st = sites_[d];
      if (!st.any) continue;
      const uint32_t raw = trace::Value(ops_.Channel(d).raw);
      auto [it, fresh] = sites.try_emplace(raw, Sites{st.first, st.several});
      if (!fresh) {
        it->second.several = it->second.several || st.several || it->second.first != st.first;
      }
    }
    // The receives of those ids in trace order, the first 64 per site.
    std::vector<uint32_t> recvs;
    std::unordered_map<uint64_t, uint32_t> seen;  // (object id, site) -> receives so far
    for (uint32_t d = 0; d < nch; ++d) {
      auto it = sites.find(trace::Value(ops_.Channel(d).raw));
      if (it == sites.end() || !it->second.several) continue;
      for (uint32_t i : ops_.Ops(ObjClass::Chan, d)) {
        if (Rec(i).kind == Kind::ChanRecv && Rec(i).obj != 0) recvs.push_back(i);
      }
    }
    std::sort(recvs.begin(), recvs.end());
    for (uint32_t i : recvs) {
      const trace::Record& r = Rec(i);
      if (seen[(uint64_t(r.obj) << 32) | r.site]++ < kConcurrentRecvPerSite) keep_[i] |= kKeep;
    }
  }

 private:
  // keep_ bits: the record keeps its clock; a select case with which its
  // select may have had another case ready (OtherCases).
  static constexpr uint8_t kKeep = 1, kOtherCase = 2;
  struct ChannelSites {
    uint32_t first = 0;
    bool any = false, several = false;
  };
  const hb::OpIndex& ops_;
  const trace::Trace& t_;
  std::array<std::vector<uint8_t>, trace::kNumObjClasses> needed_;
  std::vector<uint8_t> keep_;       // per record: kKeep, kOtherCase
  std::vector<uint8_t> want_dirs_;  // per channel: DirBit of the operations select leak reads
  std::vector<Users> users_;        // per channel
  std::vector<uint8_t> has_cases_;  // per channel: some select has a case on it
  std::vector<Goroutines> saw_close_;  // per channel: the goroutines of the receives that saw it closed
  std::vector<uint8_t> other_case_; // per channel: some case on it has kOtherCase
  std::vector<ChannelSites> sites_; // per channel: its receive sites
  std::vector<uint32_t> selects_;   // every Select record
  std::vector<Held> held_;
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

  util::PhaseTimer timer("needs");  // GORDIAN_TIMING=1
  Marker m(ops);
  for (uint32_t g = 0; g < t.goroutines.size(); ++g) {
    m.Walk(t.goroutines[g].begin, t.goroutines[g].end);
  }
  timer.Lap("walk");
  const uint32_t nch = ops.Count(ObjClass::Chan);
  m.OtherCases();
  for (uint32_t d = 0; d < nch; ++d) m.Channel(d);
  for (uint32_t d = 0; d < nch; ++d) m.WantedDirections(d);
  m.ReceiveSites();
  timer.Lap("channel rules");
  // The operation each goroutine was in when a test ended: a goroutine
  // blocked there is a leak candidate, whose partners are searched.
  for (const hb::TestInfo& test : ops.tests()) {
    if (test.end == trace::kNoStamp) continue;
    for (const trace::Goroutine& g : t.goroutines) {
      if (g.begin == g.end || t.records[g.begin].tpre >= test.end) continue;
      auto first = t.records.begin() + g.begin, last = t.records.begin() + g.end;
      auto it = std::partition_point(first, last,
                                     [&](const trace::Record& r) { return r.tpre < test.end; });
      if (it == first) continue;
      uint32_t i = static_cast<uint32_t>(std::prev(it) - t.records.begin());
      const trace::Record& r = t.records[ops.Owner(i)];  // a case: its select's stamps
      if (r.tpost == 0 || r.tpost > test.end) m.NeedRecord(i);
    }
  }

  // Large objects: a lock no rule needs is exempt whole; a channel keeps
  // the records its rules need. A channel that keeps some also keeps its
  // first record: PredictContext::Unclocked takes an object whose first
  // record is exempt for one exempt whole (and skips it). Select cases
  // stand for their select (decided below). Per object first, then one
  // pass over the records in order.
  timer.Lap("tests");
  enum : uint8_t { kNotExempt, kWhole, kPartial };
  std::array<std::vector<uint8_t>, trace::kNumObjClasses> exempt;   // per object
  std::array<std::vector<uint32_t>, trace::kNumObjClasses> first;   // kPartial: its first record
  std::array<std::vector<uint8_t>, trace::kNumObjClasses> counted;  // some record masked
  const auto kept_objects = m.KeptObjects();
  for (ObjClass c : {ObjClass::Chan, ObjClass::Mutex, ObjClass::RWMutex}) {
    const int ci = int(c);
    exempt[ci].assign(ops.Count(c), kNotExempt);
    first[ci].assign(ops.Count(c), hb::kNoRecord);
    counted[ci].assign(ops.Count(c), 0);
    for (uint32_t d = 0; d < ops.Count(c); ++d) {
      auto recs = ops.Ops(c, d);
      if (recs.size() <= min_ops || m.Needed(c, d)) continue;
      exempt[ci][d] = kept_objects[ci][d] ? kPartial : kWhole;
      first[ci][d] = recs.front();
    }
  }
  const std::vector<uint8_t>& partial_chan = exempt[int(ObjClass::Chan)];
  const std::vector<uint32_t>& first_chan = first[int(ObjClass::Chan)];
  auto mask = std::make_shared<hb::RecordMask>(t.records.size());
  for (uint32_t i = 0; i < t.records.size(); ++i) {
    const Kind k = t.records[i].kind;
    const ObjClass c = trace::ClassOf(k);
    if (c != ObjClass::None) {
      if (!Eligible(c)) continue;
      const uint32_t d = ops.ObjectOf(i);
      if (d == hb::kNoObject || exempt[int(c)][d] == kNotExempt) continue;
      const bool is_case = k == Kind::SelectCase;
      if (exempt[int(c)][d] == kPartial && (i == first[int(c)][d] || m.Kept(i) || is_case)) continue;
      mask->Set(i);
      if (!counted[int(c)][d]) {
        counted[int(c)][d] = 1;
        ++out.objects;
      }
      // A case marked with its whole channel counts with its select below.
      out.records += !is_case;
      continue;
    }
    // A test's end, when some goroutine called a testing method: testing
    // after end asks Before(call, TestEnd) (of the call's test and its
    // subtests).
    if (k == Kind::TestEnd && !ops.TestCalls().empty()) continue;
    // Other records of no object (spawns, goroutine starts and ends, tests,
    // panics): no detector asks about them at all. A select: as its cases;
    // an exempt select's cases are exempt too (but the first record of a
    // partly exempt channel).
    if (k == Kind::Select) {
      if (m.SelectKept(i, min_ops)) continue;
      const uint32_t end = t.goroutines[trace::Value(ops.GoroutineIndexOf(i))].end;
      for (uint32_t cs = i + 1; cs < end && cs <= i + t.records[i].aux &&
                                t.records[cs].kind == Kind::SelectCase;
           ++cs) {
        uint32_t d = ops.ObjectOf(cs);
        if (d != hb::kNoObject && partial_chan[d] == kPartial && first_chan[d] == cs) continue;
        mask->Set(cs);
        ++out.records;
        ++out.no_object;
      }
    }
    mask->Set(i);
    ++out.records;
    ++out.no_object;
  }
  timer.Lap("mask");
  if (out.records > 0) out.unneeded = std::move(mask);
  return out;
}

}  // namespace gordian::detect
