// This file implements the occurred detectors for closed and nil channels:
// send-on-closed, close-of-closed and close-of-nil (bugs: each one panics;
// warnings when the test recovered the panic, recovered.cc)
// and recv-on-closed (a warning: the receiver got a zero value it may take
// for real data; not on a chan struct{}, kZeroSize, whose zero value is its
// only value: `<-ctx.Done()`, done channels, semaphores). The recorder flags
// the operation that met a closed channel with kClosed; the close that
// closed it is the channel's first close.
#include <algorithm>

#include <fmt/format.h>

#include "gordian/detect/occurred.h"

namespace gordian::detect {
namespace {

using report::Finding;
using report::FindingKind;
using report::Role;
using trace::Kind;
using trace::Record;

// The close that closed chan: its first close that did not itself fail
// (at most one close of a channel succeeds). The index keeps it; OpsOf
// would sort every object's operations by stamp for it (2 s on a trace of
// 4M records whose only closed-channel operations end range loops).
uint32_t FirstClose(const OccurredIndex& ix, uint32_t chan) {
  uint32_t d = ix.ops().Dense(ObjClass::Chan, chan);
  if (d == hb::kNoObject) return UINT32_MAX;
  uint32_t c = ix.ops().Channel(d).close_rec;
  return c == hb::kNoRecord ? UINT32_MAX : c;
}

Finding Make(const OccurredIndex& ix, FindingKind kind, uint32_t rec) {
  Finding f;
  f.kind = kind;
  f.status = report::Status::Occurred;
  f.severity = report::DefaultSeverity(kind);
  f.test = ix.TestOf(rec);
  return f;
}

// Adds the closing close (if known) as a second location and step.
void AddCloser(const OccurredIndex& ix, uint32_t closer, Finding* f) {
  if (closer == UINT32_MAX) return;
  f->locations.push_back(ix.Loc(closer, Role::Close));
  f->interleaving.push_back(ix.StepOf(closer, Role::Close, "close: the channel is now closed"));
}

// " (closed by goroutine 1.2 at x.go:5)", or "by the same goroutine" when
// the closer is the goroutine of rec.
std::string ByWhom(const OccurredIndex& ix, uint32_t closer, uint32_t rec) {
  if (closer == UINT32_MAX) return "";
  const trace::Site& s = ix.SiteOf(closer);
  std::string who = ix.GidOf(closer) == ix.GidOf(rec)
                        ? std::string("the same goroutine")
                        : fmt::format("goroutine {}", ix.StableId(ix.GidOf(closer)));
  return fmt::format(" (closed by {} at {}:{})", who, BaseName(s.file), s.line);
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
      uint32_t closer = FirstClose(ix, r.obj);
      Finding f = Make(ix, FindingKind::SendOnClosed, i);
      f.message = fmt::format("goroutine {} sent on {} after it was closed{}; the send panics",
                              ix.StableId(ix.GidOf(i)), ix.DescribeChan(r.obj),
                              ByWhom(ix, closer, i));
      f.locations.push_back(ix.Loc(i, Role::Send));
      f.interleaving.push_back(ix.StepOf(i, Role::Send, "send on the closed channel: panic"));
      AddCloser(ix, closer, &f);
      SettlePanic(ix, i, st, &f);
      FinishFinding(ix, &f);
      out->push_back(std::move(f));
    } else if (is_recv && closed && ix.IsUser(i) && !(r.flags & trace::kZeroSize)) {
      uint32_t closer = FirstClose(ix, r.obj);
      Finding f = Make(ix, FindingKind::RecvOnClosed, i);
      f.message = fmt::format(
          "goroutine {} received the zero value from {} because it was closed{}",
          ix.StableId(ix.GidOf(i)), ix.DescribeChan(r.obj), ByWhom(ix, closer, i));
      f.locations.push_back(ix.Loc(i, Role::Recv));
      f.interleaving.push_back(ix.StepOf(i, Role::Recv, "receive: gets the zero value"));
      AddCloser(ix, closer, &f);
      FinishFinding(ix, &f);
      out->push_back(std::move(f));
    } else if (r.kind == Kind::ChanClose && r.obj == 0) {
      Finding f = Make(ix, FindingKind::CloseOfNil, i);
      f.message = fmt::format("goroutine {} closed a nil channel; close panics",
                              ix.StableId(ix.GidOf(i)));
      f.locations.push_back(ix.Loc(i, Role::Close));
      f.interleaving.push_back(ix.StepOf(i, Role::Close, "close of a nil channel: panic"));
      SettlePanic(ix, i, st, &f);
      FinishFinding(ix, &f);
      out->push_back(std::move(f));
    } else if (r.kind == Kind::ChanClose && closed) {
      uint32_t closer = FirstClose(ix, r.obj);
      Finding f = Make(ix, FindingKind::CloseOfClosed, i);
      f.message = fmt::format("goroutine {} closed {} a second time{}; close panics",
                              ix.StableId(ix.GidOf(i)), ix.DescribeChan(r.obj),
                              ByWhom(ix, closer, i));
      f.locations.push_back(ix.Loc(i, Role::Close));
      f.interleaving.push_back(ix.StepOf(i, Role::Close, "second close: panic"));
      AddCloser(ix, closer, &f);
      SettlePanic(ix, i, st, &f);
      FinishFinding(ix, &f);
      out->push_back(std::move(f));
    }
  }
}

}  // namespace gordian::detect
