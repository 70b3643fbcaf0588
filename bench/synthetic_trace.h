// This file defines generators of large synthetic traces for the analysis
// benchmark (analysis_perftest.cc): consistent traces (exact partners,
// FIFO value numbers, stamps in a valid global order) of typical shapes.
//
//   channel-heavy: a producer feeds a buffered jobs channel, workers take
//     jobs and hand results back over an unbuffered channel (sometimes in a
//     select with a quit channel), the producer collects them.
//   lock-heavy: goroutines take a few shared mutexes and an RWMutex in
//     short critical sections, with a WaitGroup at the end.
//   lock-heavy-bug: the same with a send on closed channel predicted about
//     a small channel at the end (what a memory budget should keep).
//   fan-out: main spawns many goroutines that each do a few operations on
//     shared channels and a mutex, then Done.
//   mutex-chain: main spawns all goroutines first (wg.Add(1); go f()), then
//     each does Lock; n++; Unlock; wg.Done(), one after the other; main
//     Waits. Every goroutine is alive at once and the mutex's clock knows
//     all earlier goroutines (a mutex handed along tens of thousands of
//     goroutines, the case that made dense rows cost goroutines^2).
//   worker-pool: one goroutine per task, at most 16 running at once (a
//     buffered channel as semaphore); each task takes a mutex and Done.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gordian/trace/trace.h"
#include "gordian/util/huge_pages.h"

namespace gordian::bench {

class SynthWriter {
 public:
  explicit SynthWriter(uint32_t goroutines) : g_(goroutines) {
    sites_.push_back({});
    for (int k = 0; k < 64; ++k) {
      trace::Site s;
      s.file = "/src/app/worker.go";
      s.line = 10 + k;
      s.function = "app.worker";
      s.user = true;
      sites_.push_back(s);
    }
  }
  uint32_t Stamp() { return ++clock_; }
  trace::Record& Add(uint32_t g, trace::Kind k, uint32_t obj, uint32_t val,
                     uint8_t flags = 0, uint16_t aux = 0) {
    trace::Record r{};
    r.kind = k;
    r.flags = flags;
    r.aux = aux;
    r.obj = obj;
    r.val = val;
    r.site = 1 + (uint32_t(k) * 7 + (obj & 7)) % 64;
    r.tpre = r.tpost = Stamp();
    g_[g].push_back(r);
    ++n_;
    return g_[g].back();
  }
  uint64_t size() const { return n_; }
  // The record `index` of goroutine g (an index, not a reference: a later
  // Add to g may move g's records).
  trace::Record& At(uint32_t g, size_t index) { return g_[g][index]; }
  size_t Count(uint32_t g) const { return g_[g].size(); }
  void Spawn(uint32_t parent, uint32_t child) {
    Add(parent, trace::Kind::GoSpawn, child + 1, children_++);
    Add(child, trace::Kind::GoStart, parent + 1, 0);
  }
  // Every record must be completed (tpost set): a record left at tpost 0
  // reads as blocked forever, and the benchmark would measure a trace of
  // stuck operations (ChannelHeavy once set a select's tpost through a
  // reference its own later Adds had moved).
  trace::Trace Finish() {
    for (uint32_t g = 0; g < g_.size(); ++g) {
      for (const trace::Record& r : g_[g]) {
        if (r.tpost == 0 || r.tpost < r.tpre) {
          std::fprintf(stderr, "synthetic trace: goroutine %u has a record (kind %d) never completed\n",
                       g + 1, int(r.kind));
          std::abort();
        }
      }
    }
    trace::Trace t;
    t.sites = sites_;
    t.strings = {""};
    util::ReserveHuge(&t.records, n_);  // as trace/reader.cc
    for (uint32_t g = 0; g < g_.size(); ++g) {
      trace::Goroutine gr;
      gr.gid = g + 1;
      gr.parent = g == 0 ? 0 : 1;
      gr.child_index = g == 0 ? 0 : g - 1;
      gr.begin = uint32_t(t.records.size());
      t.records.insert(t.records.end(), g_[g].begin(), g_[g].end());
      std::vector<trace::Record>().swap(g_[g]);
      gr.end = uint32_t(t.records.size());
      gr.stable_id = g == 0 ? "1" : "1." + std::to_string(g - 1);
      t.goroutines.push_back(gr);
    }
    return t;
  }

 private:
  std::vector<std::vector<trace::Record>> g_;
  std::vector<trace::Site> sites_;
  uint32_t clock_ = 0, children_ = 0;
  uint64_t n_ = 0;
};

// Producer (goroutine 1) + workers; about `events` records.
inline trace::Trace ChannelHeavy(uint32_t goroutines, uint64_t events) {
  using K = trace::Kind;
  SynthWriter w(goroutines);
  const uint32_t jobs = 1, results = 2, quit = 3, cap = 16;
  w.Add(0, K::ChanMake, jobs, cap);
  w.Add(0, K::ChanMake, results, 0);
  w.Add(0, K::ChanMake, quit, 0);
  for (uint32_t g = 1; g < goroutines; ++g) w.Spawn(0, g);
  const uint32_t workers = goroutines - 1;
  uint32_t js = 0, jr = 0, rs = 0, rr = 0, next = 0;
  while (w.size() < events) {
    // The producer fills the buffer, then each of up to cap workers takes a
    // job and hands a result back (rendezvous: send stamped first).
    uint32_t batch = std::min<uint32_t>(cap, workers);
    for (uint32_t k = 0; k < batch; ++k) w.Add(0, K::ChanSend, jobs, ++js);
    for (uint32_t k = 0; k < batch; ++k) {
      uint32_t g = 1 + (next++ % workers);
      w.Add(g, K::ChanRecv, jobs, ++jr);
      if ((js & 7) == 0) {
        // select { case results <- r: case <-quit: }
        // The select is completed after its partner's receive; by index,
        // since the case records added in between may move g's records.
        const size_t select = w.Count(g);
        w.Add(g, K::Select, 0, 0, 0, 2).tpost = 0;  // completed below
        w.Add(g, K::SelectCase, results, ++rs, trace::kDirSend | trace::kChosen, 0);
        w.Add(g, K::SelectCase, quit, 0, trace::kDirRecv, 1);
        w.Add(0, K::ChanRecv, results, ++rr);
        w.At(g, select).tpost = w.Stamp();
      } else {
        w.Add(g, K::ChanSend, results, ++rs);
        w.Add(0, K::ChanRecv, results, ++rr);
      }
    }
  }
  w.Add(0, K::ChanClose, jobs, js);
  return w.Finish();
}

// Goroutines take shared mutexes in short critical sections. With
// small_bug, goroutines 1 and 2 also share a small channel: at the end, 1
// sends on it and 2 closes it with nothing ordering the two (a predicted
// send on closed channel about an object of two operations, the kind of
// prediction a memory budget should keep while it drops the huge mutexes).
inline trace::Trace LockHeavy(uint32_t goroutines, uint64_t events, bool small_bug = false) {
  using K = trace::Kind;
  SynthWriter w(goroutines);
  const uint32_t wg = 100, rw = 50, small = 200;
  if (small_bug) w.Add(0, K::ChanMake, small, 4);
  w.Add(0, K::WgAdd, wg, goroutines - 1, 0, uint16_t(goroutines - 1));
  for (uint32_t g = 1; g < goroutines; ++g) w.Spawn(0, g);
  uint64_t x = 88172645463325252ull;
  while (w.size() < events) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    uint32_t g = 1 + uint32_t(x % (goroutines - 1));
    uint32_t m = 1 + uint32_t((x >> 20) % 8);
    if (((x >> 40) & 3) == 0) {
      w.Add(g, K::RLock, rw, 0);
      w.Add(g, K::RUnlock, rw, 0);
    } else if (((x >> 40) & 15) == 1) {
      w.Add(g, K::RWLock, rw, 0);
      w.Add(g, K::RWUnlock, rw, 0);
    } else {
      w.Add(g, K::MutexLock, m, 0);
      w.Add(g, K::MutexUnlock, m, 0);
    }
  }
  if (small_bug && goroutines > 2) {
    w.Add(1, K::ChanSend, small, 1);
    w.Add(2, K::ChanClose, small, 1);
  }
  for (uint32_t g = 1; g < goroutines; ++g) w.Add(g, K::WgAdd, wg, uint32_t(-1));
  w.Add(0, K::WgWait, wg, goroutines - 1);
  return w.Finish();
}

// Main spawns many goroutines; each sends a result on a shared buffered
// channel, updates a counter under a mutex, and calls Done.
inline trace::Trace FanOut(uint32_t goroutines, uint64_t events) {
  using K = trace::Kind;
  SynthWriter w(goroutines);
  const uint32_t ch = 1, mu = 2, wg = 3;
  w.Add(0, K::ChanMake, ch, 64);
  w.Add(0, K::WgAdd, wg, goroutines - 1);
  for (uint32_t g = 1; g < goroutines; ++g) w.Spawn(0, g);
  uint32_t s = 0, r = 0;
  uint32_t rounds = uint32_t(events / (goroutines * 6)) + 1;
  for (uint32_t round = 0; round < rounds; ++round) {
    for (uint32_t g = 1; g < goroutines; ++g) {
      if (s - r == 64) w.Add(0, K::ChanRecv, ch, ++r);
      w.Add(g, K::ChanSend, ch, ++s);
      w.Add(g, K::MutexLock, mu, 0);
      w.Add(g, K::MutexUnlock, mu, 0);
    }
    while (r < s) w.Add(0, K::ChanRecv, ch, ++r);
  }
  for (uint32_t g = 1; g < goroutines; ++g) w.Add(g, K::WgAdd, wg, uint32_t(-1));
  w.Add(0, K::WgWait, wg, goroutines - 1);
  return w.Finish();
}

// Main spawns `goroutines - 1` goroutines (each after wg.Add(1)), then each
// in turn does Lock, Unlock, Done; main Waits. About 5 records per goroutine.
inline trace::Trace MutexChain(uint32_t goroutines) {
  using K = trace::Kind;
  SynthWriter w(goroutines);
  const uint32_t mu = 1, wg = 2;
  for (uint32_t g = 1; g < goroutines; ++g) {
    w.Add(0, K::WgAdd, wg, 1);
    w.Spawn(0, g);
  }
  for (uint32_t g = 1; g < goroutines; ++g) {
    w.Add(g, K::MutexLock, mu, 0);
    w.Add(g, K::MutexUnlock, mu, 0);
    w.Add(g, K::WgAdd, wg, uint32_t(-1));
  }
  w.Add(0, K::WgWait, wg, goroutines - 1);
  return w.Finish();
}

// One goroutine per task, at most `limit` running: main sends on the
// semaphore channel (capacity limit) before each spawn, the task receives
// from it when done. Each task: Lock, Unlock, a send on a shared results
// channel (buffered, drained by main), Done.
inline trace::Trace WorkerPool(uint32_t goroutines, uint32_t limit = 16) {
  using K = trace::Kind;
  SynthWriter w(goroutines);
  const uint32_t sem = 1, mu = 2, wg = 3, res = 4;
  w.Add(0, K::ChanMake, sem, limit);
  w.Add(0, K::ChanMake, res, 1 << 20);
  uint32_t sends = 0, recvs = 0, rs = 0, rr = 0;
  std::vector<uint32_t> running;
  auto finish_one = [&]() {
    uint32_t g = running.front();
    running.erase(running.begin());
    w.Add(g, K::MutexLock, mu, 0);
    w.Add(g, K::MutexUnlock, mu, 0);
    w.Add(g, K::ChanSend, res, ++rs);
    w.Add(g, K::ChanRecv, sem, ++recvs);
    w.Add(g, K::WgAdd, wg, uint32_t(-1));
  };
  for (uint32_t g = 1; g < goroutines; ++g) {
    if (sends - recvs == limit) finish_one();
    w.Add(0, K::ChanSend, sem, ++sends);
    w.Add(0, K::WgAdd, wg, 1);
    w.Spawn(0, g);
    running.push_back(g);
  }
  while (!running.empty()) finish_one();
  w.Add(0, K::WgWait, wg, 0);  // every task finished before Wait started
  while (rr < rs) w.Add(0, K::ChanRecv, res, ++rr);
  return w.Finish();
}

}  // namespace gordian::bench
