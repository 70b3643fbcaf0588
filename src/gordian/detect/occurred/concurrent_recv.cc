// This file implements the occurred concurrent-recv warning: two goroutines
// received from the same channel at two different places in the code, the
// two receives are concurrent (neither happens before the other, by the
// happens-before engine; without it: both were waiting at the same time),
// and at least one of them got a value. Which receiver gets a value then
// depends on the schedule (ADVOCATE's A09). Many workers receiving at one
// site (a worker pool) is not reported, nor is a channel that is only closed
// (a broadcast), nor two receives of tokens from a chan struct{}
// (kZeroSize): its values are all alike, so which waiter takes one decides
// only which goes on first, the release of a gate (a test that parks tasks
// at two places on `<-release` and sends one token per task: ants'
// TestPoolTuneScaleUp). A token against the close still differs.
#include <algorithm>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "gordian/detect/occurred/detectors.h"

namespace gordian::detect {
namespace {

uint32_t End(const Record& r) { return r.tpost == 0 ? trace::kNoStamp : r.tpost; }

}  // namespace

void DetectConcurrentRecv(const OccurredIndex& ix, OccurredState* st, std::vector<Finding>* out) {
  constexpr size_t kMaxPerSite = 64;  // bounds the pairwise work per pair of sites
  // chan -> site -> the first kMaxPerSite receives at that site (user code,
  // non-nil channels): only those are compared, so only those are kept (a
  // channel received a million times at one site held 8-16 MB here).
  std::map<uint32_t, std::map<uint32_t, std::vector<uint32_t>>> recvs;
  for (uint32_t i = 0; i < ix.size(); i++) {
    const Record& r = ix.rec(i);
    if (r.kind != Kind::ChanRecv || r.obj == 0 || !ix.IsUser(i)) continue;
    if (st->hb == nullptr && r.tpost != 0 && r.tpost <= r.tpre + 1) continue;  // did not wait
    std::vector<uint32_t>& at_site = recvs[r.obj][r.site];
    if (at_site.size() < kMaxPerSite) at_site.push_back(i);
  }
  // Two receives race for values when neither happens before the other (with
  // the engine) or, without it, when both waited at the same time; and at
  // least one of them got a value (receives that only saw the close are a
  // broadcast).
  auto racing = [&](uint32_t a, uint32_t b) {
    const Record& ra = ix.rec(a);
    const Record& rb = ix.rec(b);
    if (ix.GidOf(a) == ix.GidOf(b)) return false;
    bool a_value = ra.tpost != 0 && !(ra.flags & trace::kClosed);
    bool b_value = rb.tpost != 0 && !(rb.flags & trace::kClosed);
    if (!a_value && !b_value) return false;
    if (a_value && b_value && (ra.flags & rb.flags & trace::kZeroSize)) return false;  // two tokens
    if (st->hb != nullptr) {
      return st->hb->ClockKnown(a) && st->hb->ClockKnown(b) && st->hb->Concurrent(a, b);
    }
    return std::max(ra.tpre, rb.tpre) < std::min(End(ra), End(rb));
  };
  for (auto& [chan, by_site] : recvs) {
    for (auto sa = by_site.begin(); sa != by_site.end(); ++sa) {
      for (auto sb = std::next(sa); sb != by_site.end(); ++sb) {
        uint32_t a = hb::kNoRecord, b = hb::kNoRecord;
        for (size_t x = 0; x < sa->second.size() && x < kMaxPerSite && a == hb::kNoRecord; x++) {
          for (size_t y = 0; y < sb->second.size() && y < kMaxPerSite; y++) {
            if (racing(sa->second[x], sb->second[y])) {
              a = sa->second[x];
              b = sb->second[y];
              break;
            }
          }
        }
        if (a == hb::kNoRecord) continue;
        // The first location is the receive earlier in the source, not in
        // time: the finding's de-duplication key is built from it, and the
        // same race must get one key whichever receiver waited first (across
        // the runs of a fuzz campaign and the shards of a merge).
        const trace::Site& site_a = ix.SiteOf(a);
        const trace::Site& site_b = ix.SiteOf(b);
        if (std::tie(site_b.file, site_b.line, site_b.column) <
            std::tie(site_a.file, site_a.line, site_a.column)) {
          std::swap(a, b);
        }
        Finding f = OccurredFinding(ix, FindingKind::ConcurrentRecv, a);
        f.message = fmt::format(
            "goroutines {} and {} receive from {} concurrently (also at {}); which one gets "
            "a value depends on the schedule",
            ix.StableId(ix.GidOf(a)), ix.StableId(ix.GidOf(b)), ix.DescribeChan(ObjectId(chan)),
            ShortSite(ix, b));
        f.locations.push_back(ix.Loc(a, Role::Recv));
        f.locations.push_back(ix.Loc(b, Role::Recv));
        // The interleaving stays in the order of time.
        uint32_t first = ix.rec(a).tpre <= ix.rec(b).tpre ? a : b;
        f.interleaving.push_back(ix.StepOf(first, Role::Recv, "receive"));
        f.interleaving.push_back(
            ix.StepOf(first == a ? b : a, Role::Recv, "receive, concurrent with the first"));
        FinishFinding(ix, &f);
        out->push_back(std::move(f));
      }
    }
  }
}

}  // namespace gordian::detect
