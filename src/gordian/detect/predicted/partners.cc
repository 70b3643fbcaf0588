// This file implements FindPossiblePartners (predict.h): the "deadlock
// recovery" scenario of Sulzmann and Stadtmüller's two-phase analysis, and
// what ADVOCATE's leak analysis calls a possible partner. For an operation X on channel c:
//  - a send, a receive or a select case of the other direction on c, in
//    another goroutine, that does not happen before X: in some schedule it
//    is still pending when X is, and the two can meet (for a select case:
//    its select could have chosen that case);
//  - for a receive, a close of c that does not happen before X;
//  - on a buffered channel, for a receive, also a send that happened before
//    X whose value was taken by a receive that does not happen before X
//    (X could have taken that value first).
// A blocked X never happens before anything, so these are exactly the
// operations whose reordering could have completed it. For a mutex lock the
// partner is the acquisition that still held the lock when the trace ended.
#include <algorithm>

#include "gordian/detect/predict.h"

namespace gordian::detect {

using hb::ChanDir;
using hb::ObjClass;
using trace::Kind;

namespace {

void ChannelPartners(const hb::HappensBefore& hb, uint32_t x, std::vector<uint32_t>* out) {
  const hb::OpIndex& ops = hb.ops();
  const auto& rs = hb.trace().records;
  uint32_t ch = ops.ObjectOf(x);
  ChanDir dir = hb::DirOf(rs[x]);
  if (ch == hb::kNoObject || (dir != ChanDir::Send && dir != ChanDir::Recv)) return;
  const trace::GoroutineIndex gx = ops.GoroutineIndexOf(x);
  const bool buffered = ops.Channel(ch).capacity > 0;
  for (uint32_t y : ops.Ops(ObjClass::Chan, ch)) {
    if (ops.GoroutineIndexOf(y) == gx) continue;
    ChanDir dy = hb::DirOf(rs[y]);
    bool opposite = (dir == ChanDir::Send && dy == ChanDir::Recv) ||
                    (dir == ChanDir::Recv && (dy == ChanDir::Send || dy == ChanDir::Close));
    if (!opposite) continue;
    if (dy == ChanDir::Close && (rs[y].flags & trace::kClosed)) continue;  // a second close panics
    if (!hb.Before(y, x)) {
      out->push_back(y);
      continue;
    }
    if (buffered && dir == ChanDir::Recv && dy == ChanDir::Send) {
      uint32_t taker = hb.Partner(y);
      if (taker != hb::kNoRecord && !hb.Before(taker, x)) out->push_back(y);
    }
  }
}

}  // namespace

void FindPossiblePartners(const hb::HappensBefore& hb, trace::RecordId rec,
                          std::vector<trace::RecordId>* partners) {
  partners->clear();
  const auto& rs = hb.trace().records;
  const hb::OpIndex& ops = hb.ops();
  const trace::Record& r = rs[rec];
  switch (r.kind) {
    case Kind::ChanSend:
    case Kind::ChanRecv:
    case Kind::SelectCase:
      ChannelPartners(hb, rec, partners);
      break;
    case Kind::Select: {
      uint32_t end = hb.trace().goroutines[trace::Value(ops.GoroutineIndexOf(rec))].end;
      for (uint32_t k = rec + 1; k < end && k <= rec + r.aux && rs[k].kind == Kind::SelectCase; ++k) {
        ChannelPartners(hb, k, partners);
      }
      break;
    }
    case Kind::MutexLock: case Kind::RWLock: case Kind::RLock: {
      // Replay the lock's acquisitions and releases in stamp order; what is
      // left holding it at the end is what the blocked lock waited for.
      uint32_t d = ops.ObjectOf(rec);
      if (d == hb::kNoObject) break;
      ObjClass cls = hb::ClassOf(r.kind);
      std::vector<uint32_t> seq(ops.Ops(cls, d).begin(), ops.Ops(cls, d).end());
      std::stable_sort(seq.begin(), seq.end(), [&](uint32_t a, uint32_t b) {
        uint32_t ta = rs[a].tpost ? rs[a].tpost : ~0u, tb = rs[b].tpost ? rs[b].tpost : ~0u;
        return ta < tb;
      });
      uint32_t writer = hb::kNoRecord;
      std::vector<uint32_t> readers;
      for (uint32_t i : seq) {
        const trace::Record& x = rs[i];
        bool ok = x.tpost != 0;
        switch (x.kind) {
          case Kind::MutexLock: case Kind::RWLock:
            if (ok) writer = i;
            break;
          case Kind::MutexTryLock: case Kind::RWTryLock:
            if (x.flags & trace::kSuccess) writer = i;
            break;
          case Kind::RLock:
            if (ok) readers.push_back(i);
            break;
          case Kind::RWTryRLock:
            if (x.flags & trace::kSuccess) readers.push_back(i);
            break;
          case Kind::MutexUnlock: case Kind::RWUnlock:
            if (!(x.flags & trace::kFailed)) writer = hb::kNoRecord;
            break;
          case Kind::RUnlock:
            if (!(x.flags & trace::kFailed) && !readers.empty()) {
              // Drop a reader of the unlocking goroutine, else the oldest.
              auto it = std::find_if(readers.begin(), readers.end(), [&](uint32_t q) {
                return ops.GoroutineIndexOf(q) == ops.GoroutineIndexOf(i);
              });
              readers.erase(it != readers.end() ? it : readers.begin());
            }
            break;
          default:
            break;
        }
      }
      if (writer != hb::kNoRecord && writer != rec) partners->push_back(writer);
      if (r.kind != Kind::RLock) {
        for (uint32_t q : readers) {
          if (q != rec) partners->push_back(q);
        }
      }
      break;
    }
    default:
      break;
  }
  std::sort(partners->begin(), partners->end());
  partners->erase(std::unique(partners->begin(), partners->end()), partners->end());
}

}  // namespace gordian::detect
