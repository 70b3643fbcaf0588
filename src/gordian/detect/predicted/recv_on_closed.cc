// This file implements the recv-on-closed prediction (warning; ADVOCATE
// P02, narrowed): a receive that got a value in the recorded run but could
// get the zero value of a closed channel in another schedule.
//
// Rule: on a channel closed at C, a receive R that got a value sent by S,
// when neither R nor S happens before C: the close can come before S
// delivers the value, so S panics (send-on-closed) and R finds the channel
// closed and empty: the value is lost and R gets the zero value instead
// (and, without `v, ok :=`, treats it as data).
//
// Why narrowed: ADVOCATE's "receive concurrent with close" mostly flags the
// normal shutdown idiom, and so did a second rule this detector had (a
// receive concurrent with another receive that saw the close: the other
// could take the last value first). Receiving the zero value of a closed
// channel is the intended path of countless Go programs (`defer
// close(errCh)` and `if err := <-errCh; err != nil`): only a value that a
// send can lose is worth a warning. A receive from a chan struct{}
// (kZeroSize) is never warned about: the zero value is the only value. A
// channel that is only ever closed (a done channel) has no receive that got
// a value, so nothing is predicted there. The report step drops the
// warning at `for range`, comma-ok and value-dropping receives
// (report/columns.h).
#include <fmt/format.h>

#include "gordian/detect/predicted/predict_context.h"
#include "gordian/detect/rewrite_plan.h"

namespace gordian::detect {

void PredictRecvOnClosed(PredictContext& c) {
  const uint32_t nch = c.ops.Count(ObjClass::Chan);
  // The receives of channel ch that completed (a select's: its chosen case).
  auto completed_recv = [&](uint32_t i) {
    const trace::Record& r = c.rec(i);
    if (hb::DirOf(r) != ChanDir::Recv) return false;
    uint32_t own = c.ops.Owner(i);
    if (c.rec(own).tpost == 0) return false;
    return own == i || c.ops.ChosenCase(own) == i;
  };
  for (uint32_t ch = 0; ch < nch; ++ch) {
    uint32_t close = c.ClockedClose(ch);
    if (close == hb::kNoRecord) continue;
    // The value receives, in the channel's order, one at a time (a channel
    // of a million values held a list of them here).
    for (uint32_t rv : c.ops.Ops(ObjClass::Chan, ch)) {
      const trace::Record& r = c.rec(rv);
      if ((r.flags & trace::kClosed) || r.val == 0 || (r.flags & trace::kZeroSize) ||
          !completed_recv(rv)) {
        continue;
      }
      if (c.hb.Before(rv, close)) continue;
      uint32_t s = c.hb.Partner(rv);
      if (s != hb::kNoRecord && !c.hb.Before(s, close)) {
        c.Report(report::FindingKind::RecvOnClosed,
                 {{rv, report::Role::Recv}, {close, report::Role::Close}, {s, report::Role::Send}},
                 fmt::format("the receive at {} got the value sent at {}, but the close at {} "
                             "is not ordered after that send: in another schedule it receives "
                             "the zero value of {}",
                             BaseName(c.Where(rv)), BaseName(c.Where(s)),
                             BaseName(c.Where(close)), c.Chan(ch)),
                 {{close, report::Role::Close, "close(ch) comes before the send"},
                  {rv, report::Role::Recv, "receives the zero value"}});
      }
    }
  }
}

// ---- Rewrite (rewrite/rewrite.h)
// [rv, close, s] -> past, the close, then rv: the close comes before s
// delivers rv's value, so rv finds the channel closed and empty; expected:
// rv has kClosed.
namespace {

bool PlanRecvOnClosed(const PlanInput& in, std::vector<Plan>* plans, std::string*) {
  const trace::Trace& t = in.t;
  const hb::OpIndex& ops = in.hb.ops();
  const report::Finding& f = in.f;
  if (f.records.size() < 3) return true;
  uint32_t rv = f.records[0], close = f.records[1], s = f.records[2];
  if (hb::DirOf(t.records[s]) != ChanDir::Send) return true;
  BugOp cl{close, kChoiceRecorded, Expect::Completed, false};
  BugOp zero = ChanBugOp(t, ops, rv, Expect::Closed, true);
  plans->push_back({false, {cl, zero},
                    fmt::format("close at {} before the send at {}, then the receive at {}",
                                SiteAt(t, close), SiteAt(t, s), SiteAt(t, rv))});
  return true;
}

}  // namespace

extern const RewriteSpec kRecvOnClosedRewrite{PlanRecvOnClosed, false};

}  // namespace gordian::detect
