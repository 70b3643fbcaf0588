// This file implements the recv-on-closed prediction (warning; ADVOCATE
// P02, narrowed): a receive that got a value in the recorded run but could
// get the zero value of a closed channel in another schedule.
//
// Rule: on a channel closed at C, a receive R that got a value and does not
// happen before C, when either
//  - R is concurrent with a receive R' (another goroutine) that observed the
//    channel closed: R' could have run first and taken R's value, leaving R
//    to run after C on an empty channel; or
//  - the send S of R's value does not happen before C either: the close can
//    come before S delivers it (S then panics: send-on-closed), and R finds
//    the channel closed and empty.
// R then gets the zero value (and, without `v, ok :=`, treats it as data).
//
// Why narrowed: a receive merely concurrent with the close still finds its
// value in the buffer (channels are FIFO), so ADVOCATE's "receive
// concurrent with close" mostly flags the normal shutdown idiom. Requiring a
// competing receive that actually saw the close keeps the warning to cases
// where the value count really can run out. A receive from a chan struct{}
// (kZeroSize) is never warned about: the zero value is the only value, so
// getting it from a closed channel cannot mislead the program. A channel
// that is only ever closed (a done channel) has no receive that got a value,
// so nothing is predicted there. The report step drops the warning at
// `for range`, comma-ok and value-dropping receives (report/columns.h).
#include <fmt/format.h>

#include "gordian/detect/predicted/predict_context.h"
#include "gordian/detect/rewrite_plan.h"

namespace gordian::detect {

void PredictRecvOnClosed(PredictContext& c) {
  const uint32_t nch = c.ops.Count(ObjClass::Chan);
  std::vector<uint32_t> closed_recvs;
  // The receives of channel ch that completed (a select's: its chosen case).
  auto completed_recv = [&](uint32_t i) {
    const trace::Record& r = c.rec(i);
    if (hb::DirOf(r) != ChanDir::Recv) return false;
    uint32_t own = c.ops.Owner(i);
    if (c.rec(own).tpost == 0) return false;
    return own == i || c.ops.ChosenCase(own) == i;
  };
  for (uint32_t ch = 0; ch < nch; ++ch) {
    if (c.Unclocked(ObjClass::Chan, ch)) continue;
    uint32_t close = c.ops.Channel(ch).close_rec;
    if (close == hb::kNoRecord) continue;
    closed_recvs.clear();
    for (uint32_t i : c.ops.Ops(ObjClass::Chan, ch)) {
      if ((c.rec(i).flags & trace::kClosed) && completed_recv(i)) closed_recvs.push_back(i);
    }
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
        continue;
      }
      for (uint32_t rc : closed_recvs) {
        if (!c.Spend(1)) return;
        if (!c.hb.Concurrent(rv, rc)) continue;
        c.Report(report::FindingKind::RecvOnClosed,
                 {{rv, report::Role::Recv}, {close, report::Role::Close}, {rc, report::Role::Recv}},
                 fmt::format("the receive at {} got a value, but the receive at {} could take "
                             "it first: after the close at {} this one then gets the zero "
                             "value of {}",
                             BaseName(c.Where(rv)), BaseName(c.Where(rc)),
                             BaseName(c.Where(close)), c.Chan(ch)),
                 {{rc, report::Role::Recv, "takes the last value instead"},
                  {close, report::Role::Close, "close(ch)"},
                  {rv, report::Role::Recv, "receives the zero value"}});
        break;
      }
    }
  }
}

// ---- Rewrite (schedule/rewrite.h)
// [rv, close, s] -> past, the close, then rv: the close comes before s
// delivers rv's value, so rv finds the channel closed and empty; expected:
// rv has kClosed.
// [rv, close, rc] -> past, rv's sender, rc (which saw the channel closed in
// the run) takes that value, then the close, then rv; expected: rc
// completed, rv has kClosed.
// A receive's pre clock does not include its partner's (happens_before.h),
// so rv's and rc's pasts do not drag their recorded partners in.
namespace {

bool PlanRecvOnClosed(const PlanInput& in, std::vector<Plan>* plans, std::string*) {
  const trace::Trace& t = in.t;
  const hb::OpIndex& ops = in.hb.ops();
  const report::Finding& f = in.f;
  if (f.records.size() < 3) return true;
  uint32_t rv = f.records[0], close = f.records[1], other = f.records[2];
  BugOp cl{close, kChoiceRecorded, Expect::Completed, false};
  BugOp zero = ChanBugOp(t, ops, rv, Expect::Closed, true);
  if (hb::DirOf(t.records[other]) == ChanDir::Send) {
    plans->push_back({false, {cl, zero},
                      fmt::format("close at {} before the send at {}, then the receive at {}",
                                  SiteAt(t, close), SiteAt(t, other), SiteAt(t, rv))});
    return true;
  }
  Plan p;
  uint32_t s = in.hb.Partner(rv);
  if (s != hb::kNoRecord && ops.Owner(s) != ops.Owner(other)) {
    p.bug.push_back(ChanBugOp(t, ops, s, Expect::Completed, false));
  }
  p.bug.push_back(ChanBugOp(t, ops, other, Expect::Completed, true));
  p.bug.push_back(cl);
  p.bug.push_back(zero);
  p.how = fmt::format("the receive at {} takes the value, then the close at {}, then the "
                      "receive at {} finds the channel closed",
                      SiteAt(t, other), SiteAt(t, close),
                      SiteAt(t, rv));
  plans->push_back(std::move(p));
  return true;
}

}  // namespace

extern const RewriteSpec kRecvOnClosedRewrite{PlanRecvOnClosed, false};

}  // namespace gordian::detect
