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
//      recorded sender nor close at all: a timer, or a context the run
//      never cancelled), a close not ordered after Q, or a send case with a
//      concurrent receive; and
//   2. no other receive could take S's value: every other receive on the
//      channel (plain, select case, blocked) happens before S (for a
//      stranded receive: every other send, and every close, happens before
//      it; a close would end the receive, not strand it).
// Then the schedule where Q takes that other case leaves S with no
// receiver: its goroutine blocks forever. The same holds with directions
// swapped (a receive whose only sender is a select's send case).
// Limits: buffered channels (a send only blocks on a full buffer) and
// partners that are themselves in a select with alternatives are skipped.
// Receives after Q in Q's own goroutine count as possible receivers (after
// taking another case the goroutine may loop back), unless the run itself
// shows that taking that case ends the goroutine's use of the channel: the
// last execution of the same select took that case, for the same reason
// (closed channel or value), and nothing on the channel followed. When the stranded goroutine is
// main, in a program without tests, and every other goroutine ended or
// blocked for good in the run, the finding is a global-deadlock instead.
#include <algorithm>

#include <fmt/format.h>

#include "gordian/detect/predicted/predict_context.h"
#include "gordian/detect/rewrite_plan.h"
#include "gordian/detect/select_default.h"

namespace gordian::detect {

namespace {

// Another case of select q (or its default) that could have fired instead
// of the chosen one; returns the case record, q itself for a default, or
// kNoRecord. A case can fire if an operation of the other direction on its
// channel, in another goroutine, is concurrent with q; for a receive case
// also if a close does not happen after q, or, on a buffered channel, if a
// send before q left a value that was taken only after q started.
uint32_t Alternative(PredictContext& c, uint32_t q, uint32_t chosen, bool* by_close) {
  *by_close = false;
  const trace::Record& s = c.rec(q);
  if ((s.flags & trace::kHasDefault) && DefaultPossible(c.hb, q)) return q;
  const GoroutineIndex gq = c.Gor(q);
  uint32_t end = c.GoroutineAt(gq).end;
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
        if (!c.hb.Before(q, cl)) {  // closed before or while q runs
          *by_close = true;
          return k;
        }
      }
      // A receive case on a channel nobody in the trace sends on or closes
      // and that was not made by user code: a timer, or a context whose
      // cancel the run never reached. Once the run shows the channel's
      // close, that close is how the case fires (a context's Done is only
      // ever closed; timers' channels are never closed), and the loop above
      // already asked whether it can come before q: a Done closed by a
      // cancel ordered after q (`defer cancel()` after the consumer's loop)
      // cannot.
      if (cr.send.empty() && cr.closes.empty() && !c.ops.Channel(d).capacity_known) return k;
    }
    if (!c.Spend(calls)) return hb::kNoRecord;
    calls = 0;
  }
  return hb::kNoRecord;
}

// Evidence from the run that taking case `alt` of select q ends its
// goroutine's use of channel ch (the `case <-quit: return` of a serving
// loop): the goroutine's last execution of the same select (site) took
// alt's case (index), for the same reason (a closed channel, or a value),
// the goroutine never touched ch afterwards, and it never saw ch closed (a
// loop that stops because ch was closed proves nothing about alt).
bool AlternativeExits(PredictContext& c, uint32_t q, uint32_t alt, bool by_close, uint32_t ch) {
  const GoroutineIndex g = c.Gor(q);
  const trace::Goroutine& gr = c.GoroutineAt(g);
  // Case records carry their select's site: cases are told apart by index.
  const uint32_t qsite = c.rec(q).site, aidx = c.rec(alt).aux;
  if (qsite == 0) return false;
  uint32_t last_on_ch = 0;  // last record of g on ch (owner), 0 if none
  for (uint32_t y : c.ops.Ops(ObjClass::Chan, ch)) {
    if (c.Gor(y) != g) continue;
    // g saw ch closed: that, not the alternative, may be why it stopped.
    uint32_t own = c.ops.Owner(y);
    bool used = own == y || c.ops.ChosenCase(own) == y;
    if (used && (c.rec(y).flags & trace::kClosed)) return false;
    last_on_ch = std::max(last_on_ch, own);
  }
  uint32_t last = hb::kNoRecord;  // the last execution of the select
  for (uint32_t i = gr.begin; i < gr.end; ++i) {
    if (c.rec(i).kind == Kind::Select && c.rec(i).site == qsite) last = i;
  }
  if (last == hb::kNoRecord || last < last_on_ch || c.rec(last).tpost == 0) return false;
  uint32_t k = c.ops.ChosenCase(last);
  if (k == hb::kNoRecord || c.rec(k).aux != aidx) return false;
  return ((c.rec(k).flags & trace::kClosed) != 0) == by_close;
}

// A main program (no tests) whose other goroutines all ended or blocked for
// good in the run: if main blocks forever, nothing is left to wake it.
bool OthersAllEnd(PredictContext& c) {
  for (const trace::Record& r : c.t.records) {
    if (r.kind == Kind::TestStart) return false;
  }
  for (uint32_t g = 1; g < c.t.goroutines.size(); ++g) {
    const trace::Goroutine& gr = c.t.goroutines[g];
    if (gr.begin == gr.end) continue;
    uint32_t last = gr.end - 1;
    while (last > gr.begin && c.rec(last).kind == Kind::SelectCase) --last;
    const trace::Record& l = c.rec(last);
    if (l.kind == Kind::GoStart && l.obj == 0) continue;  // the recorder's pseudo-goroutine
    if (l.kind != Kind::GoEnd && l.tpost != 0) return false;
  }
  return true;
}

}  // namespace

void PredictSelectLeaks(PredictContext& c) {
  const uint32_t nch = c.ops.Count(ObjClass::Chan);
  for (uint32_t ch = 0; ch < nch; ++ch) {
    if (c.ops.Channel(ch).capacity != 0 || c.Unclocked(ObjClass::Chan, ch)) continue;
    auto ops = c.ops.Ops(ObjClass::Chan, ch);
    for (uint32_t x : ops) {
      const trace::Record& r = c.rec(x);
      if ((r.kind != Kind::ChanSend && r.kind != Kind::ChanRecv) || r.tpost == 0) continue;
      uint32_t p = c.hb.Partner(x);
      if (p == hb::kNoRecord || c.rec(p).kind != Kind::SelectCase) continue;
      uint32_t q = c.ops.Owner(p);
      if (q == p) continue;
      bool by_close = false;
      uint32_t alt = Alternative(c, q, p, &by_close);
      if (alt == hb::kNoRecord) continue;
      // Any other operation on the channel that could still take x's part:
      // in each goroutine, the ones not happening before x are a suffix.
      // Q's own later operations count, unless the run shows that Q's
      // select, taking that alternative case, ends the goroutine's use of
      // the channel.
      const ChanRuns& cr = c.Runs(ch);
      const OpRuns& others = r.kind == Kind::ChanSend ? cr.recv : cr.send;
      const bool exits = alt != q && AlternativeExits(c, q, alt, by_close, ch);
      bool other = false;
      uint64_t calls = 0;
      for (const OpRuns::Run& run : others.runs()) {
        if (exits && run.g == c.Gor(q)) continue;
        uint32_t lo = others.FirstNotBefore(c.hb, run, x, &calls);
        uint32_t n = run.end - lo;
        // p (the select's case) is one of them if it lies in that suffix.
        if (n > 0 && run.g == c.Gor(p) && p >= others.rec(lo) && p <= others.rec(run.end - 1)) --n;
        if (n > 0) {
          other = true;
          break;
        }
      }
      // A receive is also completed by a close of the channel that does not
      // happen before it (a range loop over results that a closer goroutine
      // closes after wg.Wait): the receive then ends instead of waiting.
      if (!other && r.kind == Kind::ChanRecv) {
        for (uint32_t cl : cr.closes) {
          ++calls;
          if (!c.hb.Before(cl, x)) {
            other = true;
            break;
          }
        }
      }
      if (!c.Spend(calls)) return;
      if (other) continue;
      bool send = r.kind == Kind::ChanSend;
      bool global = c.Gor(x) == GoroutineIndex(0) && OthersAllEnd(c);
      report::Finding f = c.NewFinding(
          global ? report::FindingKind::GlobalDeadlock : report::FindingKind::GoroutineLeak, x,
          send ? report::Role::Send : report::Role::Recv);
      if (!global) f.primitive = send ? report::Primitive::ChanSend : report::Primitive::ChanRecv;
      c.AddLocation(&f, q, report::Role::Select);
      std::string instead;
      if (alt == q) {
        instead = "its default";
      } else {
        c.AddLocation(&f, alt, hb::DirOf(c.rec(alt)) == ChanDir::Send ? report::Role::Send
                                                                      : report::Role::Recv);
        uint32_t d = c.ops.ObjectOf(alt);
        const ChanRuns& ar = c.Runs(d);
        bool runtime_fed = hb::DirOf(c.rec(alt)) == ChanDir::Recv && ar.send.empty() &&
                           ar.closes.empty() && !c.ops.Channel(d).capacity_known;
        instead = runtime_fed ? std::string("its case on a channel only the runtime sends on "
                                            "(a timer or a context)")
                              : fmt::format("its {} case on {}",
                                            hb::DirOf(c.rec(alt)) == ChanDir::Send ? "send" : "receive",
                                            c.Chan(d));
      }
      f.message = fmt::format(
          "the {} at {} is matched only by the select at {}, which could take {} "
          "instead: goroutine {} would then block forever{}",
          send ? "send" : "receive", BaseName(c.Where(x)), BaseName(c.Where(q)), instead,
          c.Index().StableId(c.Gor(x)),
          global ? ", and with every other goroutine finished, the program deadlocks" : "");
      c.AddStep(&f, q, report::Role::Select, fmt::format("select takes {}", instead));
      c.AddStep(&f, x, send ? report::Role::Send : report::Role::Recv,
                send ? "send with no receiver left: blocked forever"
                     : "receive with no sender left: blocked forever",
                /*blocks=*/true);
      c.Emit(std::move(f));
    }
  }
}

// ---- Rewrite (rewrite/rewrite.h)
// [x, q, alt?] (goroutine-leak, or global-deadlock for main) -> past, the
// select q forced to alt (or its default), then x: its only partner went
// elsewhere; expected: q completed, x never did. q's pre clock does not
// include x (its recorded partner), so q's past does not need x; x is listed
// after q and blocks for good.
namespace {

// The operation that can make case alt of select q ready: the close of a
// receive case's channel when it does not happen after q, else the first
// operation of the other direction on that channel in another goroutine
// concurrent with q; kNoRecord if there is none (a timer's channel).
uint32_t AltPartner(const hb::HappensBefore& e, uint32_t q, uint32_t alt) {
  const trace::Trace& t = e.trace();
  const hb::OpIndex& ops = e.ops();
  uint32_t d = ops.ObjectOf(alt);
  if (d == hb::kNoObject) return hb::kNoRecord;
  ChanDir want = hb::DirOf(t.records[alt]) == ChanDir::Send ? ChanDir::Recv : ChanDir::Send;
  uint32_t close = ops.Channel(d).close_rec;
  if (want == ChanDir::Send && close != hb::kNoRecord && !e.Before(q, close)) return close;
  for (uint32_t i : ops.Ops(ObjClass::Chan, d)) {
    if (hb::DirOf(t.records[i]) != want || t.records[ops.Owner(i)].tpost == 0) continue;
    uint32_t own = ops.Owner(i);
    if (own != i && ops.ChosenCase(own) != i) continue;  // a case that did not fire
    if (e.Concurrent(own, q)) return i;
  }
  return hb::kNoRecord;
}

bool PlanSelectLeak(const PlanInput& in, std::vector<Plan>* plans, std::string*) {
  const trace::Trace& t = in.t;
  const hb::OpIndex& ops = in.hb.ops();
  const report::Finding& f = in.f;
  if (f.records.size() < 2 || t.records[f.records[1]].kind != Kind::Select) return true;
  uint32_t x = f.records[0], q = f.records[1];
  BugOp sel{q, kChoiceDefault, Expect::Completed, true};
  if (f.records.size() >= 3) {
    uint32_t alt = f.records[2];
    if (t.records[alt].kind != Kind::SelectCase || ops.Owner(alt) != q) return true;
    sel.choice = static_cast<int32_t>(t.records[alt].aux);
  }
  BugOp stuck = ChanBugOp(t, ops, x, Expect::Blocked, true);
  stuck.choice = kChoiceRecorded;
  Plan p;
  p.bug = {sel, stuck};
  p.how = fmt::format("the select at {} takes {}, then the {} at {} has no partner",
                      SiteAt(t, q),
                      sel.choice == kChoiceDefault
                          ? std::string("its default")
                          : fmt::format("its {} case instead",
                                        hb::DirOf(t.records[f.records[2]]) == ChanDir::Send
                                            ? "send"
                                            : "receive"),
                      hb::DirOf(t.records[x]) == ChanDir::Send ? "send" : "receive",
                      SiteAt(t, x));
  // The operation that makes alt ready goes first when the run has one: a
  // close of its channel or an operation of the other direction concurrent
  // with q. Otherwise the forced select waits for it (until the stall
  // time), which a timer's channel needs anyway.
  if (f.records.size() >= 3) {
    uint32_t partner = AltPartner(in.hb, q, f.records[2]);
    if (partner != hb::kNoRecord) {
      Plan with = p;
      with.bug.insert(with.bug.begin(), ChanBugOp(t, ops, partner, Expect::Completed, false));
      plans->push_back(std::move(with));
    }
  }
  plans->push_back(std::move(p));
  return true;
}

}  // namespace

extern const RewriteSpec kSelectLeakRewrite{PlanSelectLeak, false};

}  // namespace gordian::detect
