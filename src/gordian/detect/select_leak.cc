// This file implements the goroutine leaks that another schedule of the
// same run would cause: the classic "forgotten sender" of Go,
//
//   ch := make(chan T)                 // unbuffered
//   go func() { ch <- work() }()       // S
//   select {                           // Q
//   case v := <-ch:                    // chosen in the run
//   case <-time.After(d): return       // K: could fire instead
//   }
//
// Rule: a completed send S (a plain ChanSend) on an unbuffered channel
// whose partner is a receive case of a select Q, when
//   1. Q could have taken another case instead: a default, a receive case
//      on a channel with a possible sender (a send concurrent with Q, or on
//      a buffered channel a send whose value could still be buffered, or no
//      recorded sender at all: a timer or another runtime channel), a close
//      not ordered after Q, or a send case with a concurrent receive; and
//   2. no other receive could take S's value: every other receive on the
//      channel (plain, select case, blocked) happens before S.
// Then the schedule where Q takes that other case leaves S with no
// receiver: its goroutine blocks forever. The same holds with directions
// swapped (a receive whose only sender is a select's send case).
// Limits: buffered channels (a send only blocks on a full buffer) and
// partners that are themselves in a select with alternatives are skipped.
// Receives after Q in Q's own goroutine count as possible receivers, which
// errs towards silence when Q sits in a loop.
#include <fmt/format.h>

#include "gordian/detect/predict_context.h"

namespace gordian::detect {

using hb::ChanDir;
using hb::ObjClass;
using trace::Kind;

namespace {

// Another case of select q (or its default) that could have fired instead
// of the chosen one; returns the case record, q itself for a default, or
// kNoRecord. A case can fire if an operation of the other direction on its
// channel, in another goroutine, is concurrent with q; for a receive case
// also if a close does not happen after q, or, on a buffered channel, if a
// send before q left a value that was taken only after q started.
uint32_t Alternative(PredictContext& c, uint32_t q, uint32_t chosen) {
  const trace::Record& s = c.rec(q);
  if (s.flags & trace::kHasDefault) return q;
  const uint32_t gq = c.Gor(q);
  uint32_t end = c.t.goroutines[gq].end;
  uint64_t calls = 0;
  for (uint32_t k = q + 1; k < end && k <= q + s.aux && c.rec(k).kind == Kind::SelectCase; ++k) {
    if (k == chosen) continue;
    uint32_t d = c.ops.ObjectOf(k);
    if (d == hb::kNoObject) continue;  // nil channel: never ready
    const ChanRuns& cr = c.Runs(d);
    ChanDir dir = hb::DirOf(c.rec(k));
    const OpRuns& other = dir == ChanDir::Recv ? cr.send : cr.recv;
    bool buffered = c.ops.Channel(d).capacity > 0;
    for (const OpRuns::Run& run : other.runs()) {
      if (run.g == gq) continue;
      uint32_t lo = other.FirstNotBefore(c.hb, run, q, &calls);
      if (lo < run.end && !c.hb.Before(q, other.rec(lo))) return k;
      if (buffered && dir == ChanDir::Recv && lo > run.begin) {
        uint32_t taker = c.hb.Partner(other.rec(lo - 1));
        if (taker == hb::kNoRecord || !c.hb.Before(taker, q)) return k;
      }
    }
    if (dir == ChanDir::Recv) {
      for (uint32_t cl : cr.closes) {
        ++calls;
        if (!c.hb.Before(q, cl)) return k;  // closed before or while q runs
      }
      // A receive case on a channel nobody in the trace sends on and that
      // was not made by user code: a timer, a context, a library channel.
      if (cr.send.empty() && !c.ops.Channel(d).capacity_known) return k;
    }
    if (!c.Spend(calls)) return hb::kNoRecord;
    calls = 0;
  }
  return hb::kNoRecord;
}

}  // namespace

void PredictSelectLeaks(PredictContext& c) {
  const uint32_t nch = c.ops.Count(ObjClass::Chan);
  for (uint32_t ch = 0; ch < nch; ++ch) {
    if (c.ops.Channel(ch).capacity != 0) continue;
    auto ops = c.ops.Ops(ObjClass::Chan, ch);
    for (uint32_t x : ops) {
      const trace::Record& r = c.rec(x);
      if ((r.kind != Kind::ChanSend && r.kind != Kind::ChanRecv) || r.tpost == 0) continue;
      uint32_t p = c.hb.Partner(x);
      if (p == hb::kNoRecord || c.rec(p).kind != Kind::SelectCase) continue;
      uint32_t q = c.ops.Owner(p);
      if (q == p) continue;
      uint32_t alt = Alternative(c, q, p);
      if (alt == hb::kNoRecord) continue;
      // Any other operation on the channel that could still take x's part:
      // in each goroutine, the ones not happening before x are a suffix.
      const ChanRuns& cr = c.Runs(ch);
      const OpRuns& others = r.kind == Kind::ChanSend ? cr.recv : cr.send;
      bool other = false;
      uint64_t calls = 0;
      for (const OpRuns::Run& run : others.runs()) {
        uint32_t lo = others.FirstNotBefore(c.hb, run, x, &calls);
        uint32_t n = run.end - lo;
        // p (the select's case) is one of them if it lies in that suffix.
        if (n > 0 && run.g == c.Gor(p) && p >= others.rec(lo) && p <= others.rec(run.end - 1)) --n;
        if (n > 0) {
          other = true;
          break;
        }
      }
      if (!c.Spend(calls)) return;
      if (other) continue;
      bool send = r.kind == Kind::ChanSend;
      report::Finding f = c.NewFinding(report::FindingKind::GoroutineLeak, x,
                                       send ? report::Role::Send : report::Role::Recv);
      f.primitive = send ? report::Primitive::ChanSend : report::Primitive::ChanRecv;
      c.AddLocation(&f, q, report::Role::Select);
      std::string instead;
      if (alt == q) {
        instead = "its default";
      } else {
        c.AddLocation(&f, alt, hb::DirOf(c.rec(alt)) == ChanDir::Send ? report::Role::Send
                                                                      : report::Role::Recv);
        instead = fmt::format("its case at {}", BaseName(c.Where(alt)));
      }
      f.message = fmt::format(
          "the {} at {} is matched only by the select at {}, which could take {} "
          "instead: goroutine {} would then block forever",
          send ? "send" : "receive", BaseName(c.Where(x)), BaseName(c.Where(q)), instead,
          c.Index().StableId(c.Gor(x) + 1));
      c.AddStep(&f, q, report::Role::Select, fmt::format("select takes {}", instead));
      c.AddStep(&f, x, send ? report::Role::Send : report::Role::Recv,
                send ? "send with no receiver left: blocked forever"
                     : "receive with no sender left: blocked forever");
      c.Emit(std::move(f));
    }
  }
}

}  // namespace gordian::detect
