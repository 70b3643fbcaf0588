// This file defines TraceBuilder, a helper for tests and benchmarks that
// writes a trace::Trace in memory, operation by operation, in the global
// order the operations happen. It assigns stamps from one counter, value
// sequence numbers per channel (FIFO), signal counts per Cond, sites (one
// per call unless told otherwise) and spawn-path goroutine ids.
//
//   TraceBuilder b;                       // goroutine 1 = main
//   uint32_t ch = b.MakeChan(1, 0);       // unbuffered
//   uint32_t w = b.Go(1);                 // GoSpawn in 1, GoStart in w
//   auto s = b.SendBegin(w, ch);          // pre of a blocking send
//   auto r = b.Recv(1, ch);               // receive completes ...
//   b.Complete(s);                        // ... then the send's post
//   trace::Trace t = b.Finish();
//   trace::RecordId i = b.Index(r);       // record index in t
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gordian/trace/ids.h"
#include "gordian/trace/trace.h"

namespace gordian::hb::testing {

class TraceBuilder {
 public:
  // A record handle: goroutine index (gid - 1) and position in it.
  struct H {
    uint32_t g = 0;
    uint32_t pos = 0;
  };

  TraceBuilder() {
    gors_.push_back({});
    parent_.push_back(0);
    child_index_.push_back(0);
    children_.push_back(0);
    sites_.push_back({});
  }

  // Source sites: Site(file, line) makes one; At(h, site) sets a record's.
  uint32_t Site(const std::string& file, uint32_t line, const std::string& fn = "main.f") {
    trace::Site s;
    s.file = file;
    s.line = line;
    s.function = fn;
    s.user = true;
    sites_.push_back(s);
    return static_cast<uint32_t>(sites_.size() - 1);
  }
  H At(H h, uint32_t site) {
    Rec(h).site = site;
    return h;
  }

  uint32_t Stamp() { return ++clock_; }
  // Off: records get site 0 unless At() sets one (benchmarks: no site per record).
  void set_auto_sites(bool on) { auto_sites_ = on; }

  // Appends a record to goroutine gid. Non-blocking: tpre == tpost == now.
  H Add(uint32_t gid, trace::Kind k, uint32_t obj = 0, uint32_t val = 0,
        uint8_t flags = 0, uint16_t aux = 0) {
    trace::Record r{};
    r.kind = k;
    r.flags = flags;
    r.aux = aux;
    r.obj = obj;
    r.val = val;
    r.tpre = r.tpost = Stamp();
    r.site = auto_sites_ ? Site("test.go", r.tpre) : 0;
    gors_[gid - 1].push_back(r);
    return H{gid - 1, static_cast<uint32_t>(gors_[gid - 1].size() - 1)};
  }
  // Pre of a blocking operation (tpost = 0 until Complete).
  H AddBegin(uint32_t gid, trace::Kind k, uint32_t obj = 0, uint32_t val = 0,
             uint8_t flags = 0, uint16_t aux = 0) {
    H h = Add(gid, k, obj, val, flags, aux);
    Rec(h).tpost = 0;
    return h;
  }
  H Complete(H h) {
    Rec(h).tpost = Stamp();
    return h;
  }
  trace::Record& Rec(H h) { return gors_[h.g][h.pos]; }

  // --- goroutines
  uint32_t Go(uint32_t parent) {
    uint32_t child = GoLater(parent);
    Start(child);
    return child;
  }
  // Spawn without running the child's GoStart yet (it starts on Start()).
  uint32_t GoLater(uint32_t parent) {
    uint32_t child = static_cast<uint32_t>(gors_.size() + 1);
    gors_.push_back({});
    parent_.push_back(parent);
    child_index_.push_back(children_[parent - 1]++);
    children_.push_back(0);
    last_spawn_ = Add(parent, trace::Kind::GoSpawn, child, child_index_.back());
    return child;
  }
  H Start(uint32_t child) {
    return Add(child, trace::Kind::GoStart, parent_[child - 1], child_index_[child - 1]);
  }
  H last_spawn() const { return last_spawn_; }
  H End(uint32_t gid) { return Add(gid, trace::Kind::GoEnd); }

  // --- channels
  uint32_t MakeChan(uint32_t gid, uint32_t cap) {
    uint32_t c = ++chans_;
    Add(gid, trace::Kind::ChanMake, c, cap);
    return c;
  }
  // A channel with no ChanMake record (capacity must be inferred).
  uint32_t ForeignChan() { return ++chans_; }
  // Completed send: the value's sequence number is the next on the channel.
  H Send(uint32_t gid, uint32_t ch) { return Add(gid, trace::Kind::ChanSend, ch, ++sent_[ch]); }
  H Recv(uint32_t gid, uint32_t ch) { return Add(gid, trace::Kind::ChanRecv, ch, ++recvd_[ch]); }
  // Blocking forms: begin now, Complete() later. SendBegin numbers the value
  // at begin (call it in the order values enter the channel).
  H SendBegin(uint32_t gid, uint32_t ch) { return AddBegin(gid, trace::Kind::ChanSend, ch, ++sent_[ch]); }
  H RecvBegin(uint32_t gid, uint32_t ch) { return AddBegin(gid, trace::Kind::ChanRecv, ch, ++recvd_[ch]); }
  // Never completed (blocked at the end): no value.
  H BlockedSend(uint32_t gid, uint32_t ch) { return AddBegin(gid, trace::Kind::ChanSend, ch, 0); }
  H BlockedRecv(uint32_t gid, uint32_t ch) { return AddBegin(gid, trace::Kind::ChanRecv, ch, 0); }
  H Close(uint32_t gid, uint32_t ch) {
    bool again = closed_[ch];
    closed_[ch] = true;
    return Add(gid, trace::Kind::ChanClose, ch, sent_[ch], again ? trace::kClosed : 0);
  }
  H RecvClosed(uint32_t gid, uint32_t ch) { return Add(gid, trace::Kind::ChanRecv, ch, 0, trace::kClosed); }
  H SendClosed(uint32_t gid, uint32_t ch) { return Add(gid, trace::Kind::ChanSend, ch, 0, trace::kClosed); }

  // --- select. Cases: {chan, send?}. chosen = case index or -1 for default,
  // -2 for a select that blocked forever. A chosen case takes the next
  // value number of its direction (or closed=true: a receive of closed).
  struct Case {
    uint32_t ch;
    bool send;
  };
  H Select(uint32_t gid, const std::vector<Case>& cases, int chosen, bool has_default = false,
           bool closed = false) {
    uint8_t fl = has_default ? trace::kHasDefault : 0;
    uint32_t val = chosen >= 0 ? uint32_t(chosen) : trace::kDefaultCase;
    H h = Add(gid, trace::Kind::Select, 0, val, fl, static_cast<uint16_t>(cases.size()));
    if (chosen == -2) {
      Rec(h).tpost = 0;
      Rec(h).val = 0;
    }
    for (size_t k = 0; k < cases.size(); ++k) {
      uint8_t cf = cases[k].send ? trace::kDirSend : trace::kDirRecv;
      uint32_t v = 0;
      if (int(k) == chosen) {
        cf |= trace::kChosen;
        if (closed) cf |= trace::kClosed;
        else v = cases[k].send ? ++sent_[cases[k].ch] : ++recvd_[cases[k].ch];
      }
      trace::Record r{};
      r.kind = trace::Kind::SelectCase;
      r.flags = cf;
      r.aux = static_cast<uint16_t>(k);
      r.obj = cases[k].ch;
      r.val = v;
      r.tpre = Rec(h).tpre;
      r.tpost = Rec(h).tpost;
      r.site = auto_sites_ ? Site("test.go", 10000 + r.tpre * 16 + uint32_t(k)) : 0;
      gors_[gid - 1].push_back(r);
    }
    return h;
  }
  // Handle of case k of a select.
  static H CaseOf(H sel, uint32_t k) { return H{sel.g, sel.pos + 1 + k}; }

  // --- sync
  uint32_t NewObject() { return ++objects_; }
  H Lock(uint32_t gid, uint32_t m) { return Add(gid, trace::Kind::MutexLock, m); }
  H Unlock(uint32_t gid, uint32_t m) { return Add(gid, trace::Kind::MutexUnlock, m); }
  H RWLock(uint32_t gid, uint32_t m) { return Add(gid, trace::Kind::RWLock, m); }
  H RWUnlock(uint32_t gid, uint32_t m) { return Add(gid, trace::Kind::RWUnlock, m); }
  H RLock(uint32_t gid, uint32_t m) { return Add(gid, trace::Kind::RLock, m); }
  H RUnlock(uint32_t gid, uint32_t m) { return Add(gid, trace::Kind::RUnlock, m); }
  H WgAdd(uint32_t gid, uint32_t wg, int32_t delta) {
    wg_[wg] += delta;
    int64_t c = wg_[wg];
    return Add(gid, trace::Kind::WgAdd, wg, uint32_t(delta),
               c < 0 ? trace::kFailed : 0, static_cast<uint16_t>(int16_t(c)));
  }
  H Done(uint32_t gid, uint32_t wg) { return WgAdd(gid, wg, -1); }
  H Wait(uint32_t gid, uint32_t wg) { return Add(gid, trace::Kind::WgWait, wg, uint32_t(wg_[wg])); }
  H WaitBegin(uint32_t gid, uint32_t wg) { return AddBegin(gid, trace::Kind::WgWait, wg, uint32_t(wg_[wg])); }
  H OnceDo(uint32_t gid, uint32_t o, bool ran) {
    return Add(gid, trace::Kind::OnceDo, o, 0, ran ? trace::kSuccess : 0);
  }
  H OnceBegin(uint32_t gid, uint32_t o, bool ran) {
    return AddBegin(gid, trace::Kind::OnceDo, o, 0, ran ? trace::kSuccess : 0);
  }
  // Cond tickets as the recorder writes them (docs/trace-format.md "Cond").
  H CondWaitBegin(uint32_t gid, uint32_t c) {
    return AddBegin(gid, trace::Kind::CondWait, c, ++tickets_[c]);
  }
  H CondWoken(H w) { return Complete(w); }
  // Wakes the oldest unwoken ticket (val 0 if none).
  H Signal(uint32_t gid, uint32_t c) {
    uint32_t v = 0;
    if (notified_[c] < tickets_[c]) v = ++notified_[c];
    return Add(gid, trace::Kind::CondSignal, c, v);
  }
  H Broadcast(uint32_t gid, uint32_t c) {
    uint32_t woke = tickets_[c] - notified_[c];
    notified_[c] = tickets_[c];
    return Add(gid, trace::Kind::CondBroadcast, c, tickets_[c], 0, static_cast<uint16_t>(woke));
  }

  // --- tests
  H TestStart(uint32_t gid, uint32_t index, const std::string& name) {
    strings_.push_back(name);
    return Add(gid, trace::Kind::TestStart, index, uint32_t(strings_.size() - 1));
  }
  H TestEnd(uint32_t gid, uint32_t index) { return Add(gid, trace::Kind::TestEnd, index); }

  uint32_t num_goroutines() const { return static_cast<uint32_t>(gors_.size()); }
  size_t num_records() const {
    size_t n = 0;
    for (const auto& g : gors_) n += g.size();
    return n;
  }

  // Builds the trace: records grouped by goroutine in gid order.
  trace::Trace Finish() {
    trace::Trace t;
    t.sites = sites_;
    t.strings = strings_;
    begin_.assign(gors_.size(), 0);
    size_t total = num_records();
    t.records.reserve(total);
    for (uint32_t g = 0; g < gors_.size(); ++g) {
      trace::Goroutine gr;
      gr.gid = g + 1;
      gr.parent = parent_[g];
      gr.child_index = child_index_[g];
      gr.begin = static_cast<uint32_t>(t.records.size());
      begin_[g] = gr.begin;
      t.records.insert(t.records.end(), gors_[g].begin(), gors_[g].end());
      gr.end = static_cast<uint32_t>(t.records.size());
      gr.stable_id = g == 0 ? "1" : t.goroutines[parent_[g] - 1].stable_id + "." +
                                        std::to_string(child_index_[g]);
      t.goroutines.push_back(gr);
    }
    return t;
  }
  // Record index of a handle in the trace Finish() returned.
  trace::RecordId Index(H h) const { return begin_[h.g] + h.pos; }

 private:
  std::vector<std::vector<trace::Record>> gors_;
  std::vector<uint32_t> parent_, child_index_, children_;
  std::vector<trace::RecordId> begin_;
  std::vector<trace::Site> sites_;
  std::vector<std::string> strings_{""};
  std::map<uint32_t, uint32_t> sent_, recvd_, tickets_, notified_;
  std::map<uint32_t, bool> closed_;
  std::map<uint32_t, int64_t> wg_;
  uint32_t clock_ = 0, chans_ = 0, objects_ = 0;
  bool auto_sites_ = true;
  H last_spawn_;
};

}  // namespace gordian::hb::testing
