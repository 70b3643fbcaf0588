// This file implements the delay-point strategy (strategies.h).
#include "gordian/fuzz/strategies.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "gordian/schedule/from_trace.h"

namespace gordian::fuzz {

using trace::Record;

namespace {

// A point a delay line can name: the nth operation at site.
struct Point {
  std::string site;
  uint32_t nth = 0;
};

// The run's controlled operations at known user sites, each as "the nth at
// its site", in the order the goroutines reached them (their start).
std::vector<Point> PointsOf(const trace::Trace& t) {
  std::vector<uint32_t> recs;
  for (uint32_t i = 0; i < t.records.size(); i++) {
    const Record& r = t.records[i];
    if (!schedule::IsControlled(r.kind) || r.site == 0 || !t.SiteOf(r).user) continue;
    recs.push_back(i);
  }
  std::sort(recs.begin(), recs.end(), [&](uint32_t a, uint32_t b) {
    return t.records[a].tpre != t.records[b].tpre ? t.records[a].tpre < t.records[b].tpre : a < b;
  });
  std::vector<Point> out;
  out.reserve(recs.size());
  std::unordered_map<uint32_t, uint32_t> seen;  // site id -> operations so far
  for (uint32_t i : recs) {
    const Record& r = t.records[i];
    out.push_back(Point{schedule::SiteText(t, r), ++seen[r.site]});
  }
  return out;
}

}  // namespace

void DelayPoints::Propose(const AnalysedRun& run, std::vector<Candidate>* out) {
  std::vector<Point> points = PointsOf(run.t);
  if (points.empty() || waits_ms.empty() || max_depth == 0) return;
  for (size_t k = 0; k < per_run; k++) {
    uint32_t depth = 1 + static_cast<uint32_t>(run.rng.Below(max_depth));
    uint32_t wait = waits_ms[run.rng.Below(waits_ms.size())];
    std::vector<size_t> chosen;
    for (uint32_t d = 0; d < depth && d < points.size(); d++) {
      size_t p = run.rng.Below(points.size());
      if (std::find(chosen.begin(), chosen.end(), p) == chosen.end()) chosen.push_back(p);
    }
    std::sort(chosen.begin(), chosen.end());
    Candidate cand;
    cand.key = fmt::format("delay {}ms", wait);
    for (size_t p : chosen) {
      cand.key += fmt::format(" {}#{}", points[p].site, points[p].nth);
      cand.schedule.delays.push_back(schedule::Delay{points[p].nth, wait, points[p].site});
    }
    cand.schedule.cmd = schedule::InvocationOf(run.t, run.trace_dir);
    cand.schedule.origin = "fuzz " + cand.key;
    cand.schedule.goroutines = {"1"};
    cand.strategy = Name();
    out->push_back(std::move(cand));
  }
}

}  // namespace gordian::fuzz
