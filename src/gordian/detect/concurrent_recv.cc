// This file implements the occurred concurrent-recv warning: two goroutines
// were waiting to receive from the same channel at the same time, at two
// different places in the code, and at least one of them got a value. Which
// receiver gets a value then depends on the schedule (seed 004's A09). Many
// workers receiving at one site (a worker pool) is not reported, nor is a
// channel that is only closed (a broadcast).
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "gordian/detect/occurred.h"

namespace gordian::detect {
namespace {

using report::Finding;
using report::FindingKind;
using report::Role;
using trace::Kind;
using trace::Record;

uint32_t End(const Record& r) { return r.tpost == 0 ? UINT32_MAX : r.tpost; }

}  // namespace

void DetectConcurrentRecv(const OccurredIndex& ix, OccurredState*, std::vector<Finding>* out) {
  std::map<uint32_t, std::vector<uint32_t>> waits;  // chan -> receives that waited
  for (uint32_t i = 0; i < ix.size(); i++) {
    const Record& r = ix.rec(i);
    if (r.kind != Kind::ChanRecv || r.obj == 0 || !ix.IsUser(i)) continue;
    if (r.tpost != 0 && r.tpost <= r.tpre + 1) continue;  // did not wait
    waits[r.obj].push_back(i);
  }
  for (auto& [chan, recvs] : waits) {
    std::set<std::pair<uint32_t, uint32_t>> reported;  // site pairs
    for (size_t x = 0; x < recvs.size(); x++) {
      for (size_t y = x + 1; y < recvs.size(); y++) {
        uint32_t a = recvs[x], b = recvs[y];
        const Record& ra = ix.rec(a);
        const Record& rb = ix.rec(b);
        if (ix.GidOf(a) == ix.GidOf(b) || ra.site == rb.site) continue;
        if (std::max(ra.tpre, rb.tpre) >= std::min(End(ra), End(rb))) continue;
        bool a_value = ra.tpost != 0 && !(ra.flags & trace::kClosed);
        bool b_value = rb.tpost != 0 && !(rb.flags & trace::kClosed);
        if (!a_value && !b_value) continue;
        if (ra.tpre > rb.tpre) std::swap(a, b);
        const Record& first = ix.rec(a);
        const Record& second = ix.rec(b);
        auto key = std::minmax(first.site, second.site);
        if (!reported.insert(key).second) continue;
        Finding f;
        f.kind = FindingKind::ConcurrentRecv;
        f.status = report::Status::Occurred;
        f.severity = report::DefaultSeverity(f.kind);
        f.test = ix.TestOf(a);
        const trace::Site& sb = ix.SiteOf(b);
        f.message = fmt::format(
            "goroutines {} and {} waited to receive from {} at the same time (also at {}:{}); "
            "which one gets a value depends on the schedule",
            ix.StableId(ix.GidOf(a)), ix.StableId(ix.GidOf(b)), ix.DescribeChan(chan),
            BaseName(sb.file), sb.line);
        f.locations.push_back(ix.Loc(a, Role::Recv));
        f.locations.push_back(ix.Loc(b, Role::Recv));
        f.interleaving.push_back(ix.StepOf(a, Role::Recv, "receive: starts waiting"));
        f.interleaving.push_back(ix.StepOf(b, Role::Recv, "receive: starts waiting"));
        FinishFinding(ix, &f);
        out->push_back(std::move(f));
      }
    }
  }
}

}  // namespace gordian::detect
