// This file implements the send-on-closed prediction (Sulzmann and
// Stadtmüller §4.2, ADVOCATE P01): a send that did not panic in the recorded run but would in
// another schedule of it.
//
// Rule: for a channel closed at C (the first close, which did not panic),
// report every completed send S on it (a ChanSend, or a send case of a
// completed select, chosen or not) such that S does not happen before C
// (for a select that ran after C and took another ready case: it could
// have taken the send case just as well).
// Then some schedule consistent with the run's happens-before relation
// runs C before S completes: a plain send (blocked or not) panics when it
// finds the channel closed, and a select whose send case is ready because
// the channel is closed may pick that case, which panics.
//
// Soundness (no false bug): happens-before here keeps every edge the run
// forces (exact partners, buffer slots, locks in their observed order,
// WaitGroups, Once, Cond, spawn), so a send that is ordered before the close
// by any of them, e.g. senders that finish before wg.Wait() and a close
// after it, is never reported. What it cannot see are orders enforced
// through unrecorded shared memory (an atomic flag checked before sending):
// those are the predictive analysis's known false positives, which replay
// confirms or refutes.
#include <fmt/format.h>

#include "gordian/detect/predicted/predict_context.h"
#include "gordian/detect/rewrite_plan.h"

namespace gordian::detect {

void PredictSendOnClosed(PredictContext& c) {
  const uint32_t nch = c.ops.Count(ObjClass::Chan);
  for (uint32_t ch = 0; ch < nch; ++ch) {
    uint32_t close = c.ClockedClose(ch);
    if (close == hb::kNoRecord) continue;
    for (uint32_t i : c.ops.Ops(ObjClass::Chan, ch)) {
      const trace::Record& r = c.rec(i);
      if (hb::DirOf(r) != ChanDir::Send || (r.flags & trace::kClosed)) continue;
      uint32_t own = c.ops.Owner(i);
      if (c.rec(own).tpost == 0) continue;  // blocked: see the occurred detectors
      if (!c.Spend(1)) return;
      bool in_select = r.kind == Kind::SelectCase;
      if (c.hb.Before(own, close)) continue;
      // A plain send ordered after the close would have panicked (occurred);
      // a select that ran after the close and took another ready case could
      // just as well have taken this one. The run's order bounds
      // happens-before: a send that started before the close completed
      // cannot be after it, so its clock is not read (and need not be kept:
      // clock_needs.h).
      const trace::Record& cl = c.rec(close);
      if (!in_select && cl.tpost != 0 && c.rec(own).tpre > cl.tpost && c.hb.Before(close, own)) {
        continue;
      }
      c.Report(report::FindingKind::SendOnClosed,
               {{i, report::Role::Send}, {close, report::Role::Close}},
               fmt::format("{} at {} can run after {} is closed at {}: another schedule "
                           "panics with \"send on closed channel\"",
                           in_select ? "the select's send case" : "the send",
                           BaseName(c.Where(i)), c.Chan(ch), BaseName(c.Where(close))),
               {{close, report::Role::Close, "close(ch) runs first"},
                {i, report::Role::Send, "send on the closed channel: panic"}});
    }
  }
}

// ---- Rewrite (rewrite/rewrite.h)
// [send, close] -> past(send) ∪ past(close), then the close, then the send
// (a select is forced to the send case). Followed, the send finds the
// channel closed: it panics ("send on closed channel"); expected: the send's
// record has kClosed.
namespace {

bool PlanSendOnClosed(const PlanInput& in, std::vector<Plan>* plans, std::string*) {
  const trace::Trace& t = in.t;
  const report::Finding& f = in.f;
  if (f.records.size() < 2) return true;
  uint32_t send = f.records[0], close = f.records[1];
  plans->push_back({false,
                    {BugOp{close, kChoiceRecorded, Expect::Completed, false},
                     ChanBugOp(t, in.hb.ops(), send, Expect::Closed, true)},
                    fmt::format("close at {}, then the send at {}", SiteAt(t, close),
                                SiteAt(t, send))});
  return true;
}

}  // namespace

extern const RewriteSpec kSendOnClosedRewrite{PlanSendOnClosed, false};

}  // namespace gordian::detect
