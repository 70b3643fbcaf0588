// This file implements two of the analysis scenarios of Sulzmann and
// Stadtmüller's two-phase analysis as information:
//
// alternative-partner (§4.3, "AC"): a receive R got its value from send S;
// a send S' of another goroutine (not S's) that is concurrent with R could
// have been R's partner in another schedule. Concurrency is tested on the
// pre clocks, as in the seed: neither operation completes before the other
// starts.
//
// select-case-alternatives ("ASC"): a select chose case k; another case j
// could have been chosen if some operation of the other direction on j's
// channel (or a close, for a receive case) is concurrent with the select.
//
// Both are reported once per source site (receive site, select site), with
// up to three example alternatives. On large channels the receives and
// selects are sampled (at most kSample per channel, evenly spread) and a
// site stops being searched once every candidate site is found: the
// scenarios are information, and the seed's quadratic search is what made
// it take minutes on 100k events.
#include <map>
#include <set>

#include <fmt/format.h>

#include "gordian/detect/predicted/op_runs.h"
#include "gordian/detect/predicted/predict_context.h"

namespace gordian::detect {

namespace {

constexpr size_t kExamples = 3;

struct SiteAlts {
  uint32_t example = hb::kNoRecord;  // the receive / select
  uint32_t partner = hb::kNoRecord;  // its actual partner / chosen case
  std::map<uint32_t, uint32_t> alts; // alternative site -> example record

  // Records alt (at site) as an alternative of example, whose actual
  // partner is partner; the first example of the site is the one reported.
  void Add(uint32_t ex, uint32_t actual, uint32_t site, uint32_t alt) {
    if (example == hb::kNoRecord) {
      example = ex;
      partner = actual;
    }
    alts.emplace(site, alt);
  }
};

void AlternativePartners(PredictContext& c) {
  const uint32_t nch = c.ops.Count(ObjClass::Chan);
  std::map<uint32_t, SiteAlts> by_site;  // receive site -> what was found
  uint64_t calls = 0;
  // The send runs still worth asking about for the receives of one
  // goroutine (LiveRuns): without it, a goroutine draining a channel that
  // 100,000 finished goroutines sent on asked about all 100,000 runs again
  // at each of its receives (4096 x 100,000 queries).
  LiveRuns live;
  for (uint32_t ch = 0; ch < nch; ++ch) {
    if (c.PartlyUnclocked(ObjClass::Chan, ch)) continue;
    const ChanRuns& cr = c.Runs(ch);
    if (cr.send.runs().size() < 2 && cr.recv.empty()) continue;
    std::set<uint32_t> send_sites;
    for (uint32_t k = 0; k < cr.send.size(); ++k) send_sites.insert(c.rec(cr.send.rec(k)).site);
    live.Reset(trace::kNoGoroutine);
    uint32_t stride = SampleStride(cr.recv.size());
    for (uint32_t k = 0; k < cr.recv.size(); k += stride) {
      uint32_t rv = cr.recv.rec(k);
      uint32_t own = c.ops.Owner(rv);
      if (c.rec(own).tpost == 0) continue;
      if (own != rv && c.ops.ChosenCase(own) != rv) continue;  // not the chosen case
      uint32_t s = c.hb.Partner(rv);
      if (s == hb::kNoRecord) continue;
      SiteAlts& sa = by_site[c.rec(rv).site];
      auto all_found = [&] {
        return sa.alts.size() + 1 >= send_sites.size() && sa.example != hb::kNoRecord;
      };
      if (all_found()) continue;
      GoroutineIndex gr = c.Gor(own), gs = c.Gor(c.ops.Owner(s));
      if (gr != live.goroutine()) live.Reset(gr);
      live.ForEach(cr.send, [&](uint32_t i) {
        const OpRuns::Run& run = cr.send.runs()[i];
        if (run.g == gs) return LiveRuns::Verdict::Keep;
        uint32_t lo = cr.send.FirstNotBefore(c.hb, run, rv, &calls);
        if (lo == run.end) return LiveRuns::Verdict::Drop;  // all before rv
        ++calls;
        uint32_t alt = cr.send.rec(lo);
        if (c.hb.Before(rv, alt)) return LiveRuns::Verdict::Keep;
        sa.Add(rv, s, c.rec(alt).site, alt);
        return all_found() ? LiveRuns::Verdict::Stop : LiveRuns::Verdict::Keep;
      });
      if (!c.Spend(calls)) break;
      calls = 0;
    }
    if (c.exhausted()) break;
  }
  for (const auto& [site, sa] : by_site) {
    if (sa.example == hb::kNoRecord || sa.alts.empty()) continue;
    report::Finding f = c.NewFinding(report::FindingKind::AlternativePartner, sa.example,
                                     report::Role::Recv);
    c.AddLocation(&f, sa.partner, report::Role::Send);
    std::string where;
    size_t n = 0;
    for (const auto& [s, rec] : sa.alts) {
      if (n++ == kExamples) break;
      c.AddLocation(&f, rec, report::Role::Send);
      where += (where.empty() ? "" : ", ") + BaseName(c.Where(rec));
    }
    f.message = fmt::format(
        "the receive at {} got its value from the send at {} (goroutine {}); the send{} at {} "
        "of other goroutines could have been its partner in another schedule",
        BaseName(c.Where(sa.example)), BaseName(c.Where(sa.partner)),
        c.Index().StableId(c.Gor(sa.partner)), sa.alts.size() > 1 ? "s" : "", where);
    c.Emit(std::move(f));
  }
}

void SelectAlternatives(PredictContext& c) {
  // Completed selects that chose a case, grouped by select site.
  std::map<uint32_t, SiteAlts> by_site;
  uint64_t calls = 0;
  std::map<uint32_t, uint32_t> seen_per_site;
  const uint32_t n = static_cast<uint32_t>(c.t.records.size());
  for (uint32_t q = 0; q < n; ++q) {
    const trace::Record& s = c.rec(q);
    if (s.kind != Kind::Select || s.tpost == 0 || s.aux < 2) continue;
    uint32_t chosen = c.ops.ChosenCase(q);
    if (chosen == hb::kNoRecord) continue;
    if (++seen_per_site[s.site] > kSample) continue;
    SiteAlts& sa = by_site[s.site];
    uint32_t end = c.GoroutineAt(c.Gor(q)).end;
    for (uint32_t k = q + 1; k < end && k <= q + s.aux && c.rec(k).kind == Kind::SelectCase; ++k) {
      if (k == chosen || sa.alts.count(c.rec(k).site)) continue;
      uint32_t d = c.ops.ObjectOf(k);
      if (d == hb::kNoObject || c.PartlyUnclocked(ObjClass::Chan, d)) continue;
      const ChanRuns& cr = c.Runs(d);
      ChanDir dir = hb::DirOf(c.rec(k));
      const OpRuns& other = dir == ChanDir::Send ? cr.recv : cr.send;
      uint32_t found = hb::kNoRecord;
      for (const OpRuns::Run& run : other.runs()) {
        if (run.g == c.Gor(q)) continue;
        found = other.FirstConcurrent(c.hb, run, q, &calls);
        if (found != hb::kNoRecord) break;
      }
      if (found == hb::kNoRecord && dir == ChanDir::Recv) {
        for (uint32_t cl : cr.closes) {
          ++calls;
          if (!c.hb.Before(q, cl)) {
            found = cl;
            break;
          }
        }
      }
      if (found == hb::kNoRecord) continue;
      sa.Add(q, chosen, c.rec(k).site, found);
    }
    if (!c.Spend(calls)) break;
    calls = 0;
  }
  for (const auto& [site, sa] : by_site) {
    if (sa.example == hb::kNoRecord || sa.alts.empty()) continue;
    report::Finding f = c.NewFinding(report::FindingKind::SelectCaseAlternatives, sa.example,
                                     report::Role::Select);
    std::string where;
    size_t k = 0;
    for (const auto& [s, rec] : sa.alts) {
      if (k++ == kExamples) break;
      const trace::Record& r = c.rec(rec);
      c.AddLocation(&f, rec, hb::DirOf(r) == ChanDir::Close ? report::Role::Close
                             : hb::DirOf(r) == ChanDir::Send ? report::Role::Send
                                                             : report::Role::Recv);
      where += (where.empty() ? "" : ", ") + BaseName(c.Where(rec));
    }
    f.message = fmt::format(
        "the select at {} could also have taken {} other case{}: a partner for {} at {} "
        "was concurrent with it",
        BaseName(c.Where(sa.example)), sa.alts.size(), sa.alts.size() > 1 ? "s" : "",
        sa.alts.size() > 1 ? "them" : "it", where);
    c.Emit(std::move(f));
  }
}

}  // namespace

void InfoAlternatives(PredictContext& c) {
  AlternativePartners(c);
  c.SetShare(c.opt.work_limit);
  SelectAlternatives(c);
}

}  // namespace gordian::detect
