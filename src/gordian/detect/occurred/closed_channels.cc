// This file implements the occurred detectors for closed and nil channels:
// send-on-closed, close-of-closed and close-of-nil (bugs: each one panics;
// warnings when the test recovered the panic, recovered.cc)
// and recv-on-closed (information: the receiver got the zero value of a
// closed channel, which most programs mean; not on a chan struct{},
// kZeroSize, whose zero value is its only value: `<-ctx.Done()`, done
// channels, semaphores). The recorder flags
// the operation that met a closed channel with kClosed; the close that
// closed it is the channel's first close.
#include <algorithm>

#include <fmt/format.h>

#include "gordian/detect/occurred/detectors.h"

namespace gordian::detect {
namespace {

// The close that closed chan: its first close that did not itself fail
// (at most one close of a channel succeeds). The index keeps it; OpsOf
// would sort every object's operations by stamp for it (2 s on a trace of
// 4M records whose only closed-channel operations end range loops).
uint32_t FirstClose(const OccurredIndex& ix, ObjectId chan) {
  uint32_t d = ix.ops().Dense(ObjClass::Chan, chan);
  if (d == hb::kNoObject) return hb::kNoRecord;
  return ix.ops().Channel(d).close_rec;
}

// Adds the closing close (if known) as a second location and step.
void AddCloser(const OccurredIndex& ix, uint32_t closer, Finding* f) {
  if (closer == hb::kNoRecord) return;
  f->locations.push_back(ix.Loc(closer, Role::Close));
  f->interleaving.push_back(ix.StepOf(closer, Role::Close, "close: the channel is now closed"));
}

// " (closed by goroutine 1.2 at x.go:5)", or "by the same goroutine" when
// the closer is the goroutine of rec.
std::string ByWhom(const OccurredIndex& ix, uint32_t closer, uint32_t rec) {
  if (closer == hb::kNoRecord) return "";
  std::string who = ix.GidOf(closer) == ix.GidOf(rec)
                        ? std::string("the same goroutine")
                        : fmt::format("goroutine {}", ix.StableId(ix.GidOf(closer)));
  return fmt::format(" (closed by {} at {})", who, ShortSite(ix, closer));
}

// The finding of record i, an operation that met the closed channel: i, the
// close that closed it, and (st non-null) the panic it raised. message
// takes the goroutine, the channel and ByWhom.
void EmitAfterClose(const OccurredIndex& ix, uint32_t i, FindingKind kind, Role role,
                    fmt::format_string<std::string, std::string, std::string> message,
                    const char* step, OccurredState* st, std::vector<Finding>* out) {
  const Record& r = ix.rec(i);
  uint32_t closer = FirstClose(ix, trace::ObjectIdOf(r));
  Finding f = OccurredFinding(ix, kind, i);
  f.message = fmt::format(message, ix.StableId(ix.GidOf(i)), ix.DescribeChan(trace::ObjectIdOf(r)),
                          ByWhom(ix, closer, i));
  f.locations.push_back(ix.Loc(i, role));
  f.interleaving.push_back(ix.StepOf(i, role, step));
  AddCloser(ix, closer, &f);
  if (st != nullptr) SettlePanic(ix, i, st, &f);
  FinishFinding(ix, &f);
  out->push_back(std::move(f));
}

}  // namespace

void DetectClosedChannelOps(const OccurredIndex& ix, OccurredState* st,
                            std::vector<Finding>* out) {
  for (uint32_t i = 0; i < ix.size(); i++) {
    const Record& r = ix.rec(i);
    bool closed = (r.flags & trace::kClosed) != 0;
    bool chosen_case = r.kind == Kind::SelectCase && (r.flags & trace::kChosen);
    bool is_send = r.kind == Kind::ChanSend ||
                   (chosen_case && (r.flags & trace::kDirSend));
    bool is_recv = r.kind == Kind::ChanRecv ||
                   (chosen_case && (r.flags & trace::kDirRecv));
    if (is_send && closed) {
      EmitAfterClose(ix, i, FindingKind::SendOnClosed, Role::Send,
                     "goroutine {} sent on {} after it was closed{}; the send panics",
                     "send on the closed channel: panic", st, out);
    } else if (is_recv && closed && ix.IsUser(i) && !(r.flags & trace::kZeroSize)) {
      EmitAfterClose(ix, i, FindingKind::RecvOnClosed, Role::Recv,
                     "goroutine {} received the zero value from {} because it was closed{}",
                     "receive: gets the zero value", nullptr, out);
      // The zero value of a closed channel is the intended "nothing more"
      // of countless programs (`defer close(errCh)`, then `if err :=
      // <-errCh; err != nil`): what happened is information; the warning
      // is the prediction that a send's value can be lost
      // (predicted/recv_on_closed.cc).
      out->back().severity = report::Severity::Info;
    } else if (r.kind == Kind::ChanClose && r.obj == 0) {
      Finding f = OccurredFinding(ix, FindingKind::CloseOfNil, i);
      f.message = fmt::format("goroutine {} closed a nil channel; close panics",
                              ix.StableId(ix.GidOf(i)));
      f.locations.push_back(ix.Loc(i, Role::Close));
      f.interleaving.push_back(ix.StepOf(i, Role::Close, "close of a nil channel: panic"));
      SettlePanic(ix, i, st, &f);
      FinishFinding(ix, &f);
      out->push_back(std::move(f));
    } else if (r.kind == Kind::ChanClose && closed) {
      EmitAfterClose(ix, i, FindingKind::CloseOfClosed, Role::Close,
                     "goroutine {} closed {} a second time{}; close panics",
                     "second close: panic", st, out);
    }
  }
}

}  // namespace gordian::detect
