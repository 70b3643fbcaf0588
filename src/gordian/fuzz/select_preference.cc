// This file implements the select-preference strategy (strategies.h).
#include "gordian/fuzz/strategies.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "gordian/schedule/from_trace.h"

namespace gordian::fuzz {

using trace::Kind;
using trace::Record;

namespace {

// The cases of each select site the run executed (a select that finished,
// at a known site): site -> (case index -> taken in some execution).
// A one-case select with default is a non-blocking operation the runtime
// does not run through select, so it gets no preference.
std::map<std::string, std::map<int32_t, bool>> SelectCases(const trace::Trace& t) {
  std::map<std::string, std::map<int32_t, bool>> out;
  for (uint32_t i = 0; i < t.records.size(); i++) {
    const Record& r = t.records[i];
    if (r.kind != Kind::Select || r.tpost == 0 || r.site == 0) continue;
    std::string site = schedule::SiteText(t, r);
    if (site == "?") continue;
    auto& cases = out[site];
    for (uint32_t c = i + 1; c <= i + r.aux && c < t.records.size(); c++) {
      const Record& cs = t.records[c];
      if (cs.kind != Kind::SelectCase) break;
      cases[cs.aux] = cases[cs.aux] || cs.aux == r.val;
    }
  }
  return out;
}

// What the key of a schedule says of its preferences: "SITE case C" for
// each (" wait W" when not the default wait), sorted, so that the same set
// reached by two mutations is one proposal.
std::string PreferText(const std::vector<schedule::Preference>& prefers, uint32_t default_wait) {
  std::vector<std::string> parts;
  for (const schedule::Preference& p : prefers) {
    parts.push_back(p.wait_ms == default_wait
                        ? fmt::format("{} case {}", p.site, p.choice)
                        : fmt::format("{} case {} wait {}", p.site, p.choice, p.wait_ms));
  }
  std::sort(parts.begin(), parts.end());
  std::string out = "prefer";
  for (size_t i = 0; i < parts.size(); i++) out += (i == 0 ? " " : ", ") + parts[i];
  return out;
}

// The part of a key that names what a schedule does besides its
// preferences (its prefix, delays, chain): the key up to its " + prefer",
// or "" for a schedule of preferences alone.
std::string BaseKey(const Candidate& c) {
  if (c.key.starts_with("prefer ")) return "";
  size_t at = c.key.find(" + prefer ");
  return at == std::string::npos ? c.key : c.key.substr(0, at);
}

}  // namespace

void SelectPreference::Propose(const AnalysedRun& run, std::vector<Candidate>* out) {
  const trace::Trace& t = run.t;
  std::map<std::string, std::map<int32_t, bool>> selects = SelectCases(t);
  // One preference alone, without a prefix: each case a select site did
  // not take in some execution (every case of a select that only took its
  // default), in the order the run first reached the sites.
  std::set<std::string> keys;  // made from this run
  size_t made = 0;
  std::vector<std::string> order;  // sites in the run's order
  for (uint32_t i = 0; i < t.records.size(); i++) {
    const Record& r = t.records[i];
    if (r.kind != Kind::Select || r.tpost == 0 || r.site == 0) continue;
    std::string site = schedule::SiteText(t, r);
    if (selects.count(site) && std::find(order.begin(), order.end(), site) == order.end()) {
      order.push_back(site);
    }
  }
  for (uint32_t i = 0; i < t.records.size() && made < max_per_run; i++) {
    const Record& r = t.records[i];
    if (r.kind != Kind::Select || r.tpost == 0 || r.site == 0) continue;
    std::string site = schedule::SiteText(t, r);
    if (site == "?") continue;
    for (uint32_t c = i + 1; c <= i + r.aux && c < t.records.size(); c++) {
      const Record& cs = t.records[c];
      if (cs.kind != Kind::SelectCase) break;
      if (cs.aux == r.val) continue;  // the case it took
      std::string key = fmt::format("prefer {} case {}", site, cs.aux);
      if (!keys.insert(key).second) continue;
      Candidate cand;
      cand.schedule.cmd = schedule::InvocationOf(t, run.trace_dir);
      cand.schedule.origin = "fuzz " + key;
      cand.schedule.goroutines = {"1"};
      cand.schedule.prefers.push_back(schedule::Preference{cs.aux, wait_ms, site});
      cand.key = std::move(key);
      cand.strategy = Name();
      out->push_back(std::move(cand));
      if (++made >= max_per_run) break;
    }
  }
  // GFuzz: a schedule that added coverage is mutated further. Its
  // preferences (none for a prediction's prefix or a delay point: then its
  // prefix, delays and chain are kept, and preferences join them) change:
  // one more select of this run with one of its cases, another case of a
  // preferred select, a longer or shorter wait, or one preference less.
  if (!run.RanIsKept() || selects.empty()) return;
  const schedule::Schedule& base = run.ran->schedule;
  std::string base_key = BaseKey(*run.ran);
  bool has_more = !base.ops.empty() || !base.delays.empty();
  made = 0;
  for (size_t a = 0; a < mutation_attempts && made < max_mutations; a++) {
    std::vector<schedule::Preference> prefs = base.prefers;
    size_t n = 1 + run.rng.Below(2);
    for (size_t k = 0; k < n; k++) {
      switch (prefs.empty() ? 0 : run.rng.Below(4)) {
        case 0: {  // add a select not yet preferred, with one of its cases
          std::vector<std::string> free;
          for (const std::string& s : order) {
            if (std::none_of(prefs.begin(), prefs.end(),
                             [&](const schedule::Preference& p) { return p.site == s; })) {
              free.push_back(s);
            }
          }
          if (free.empty() || prefs.size() >= schedule::kMaxDirectives) break;
          const std::string& s = free[run.rng.Below(free.size())];
          const auto& cases = selects.at(s);
          auto it = std::next(cases.begin(), static_cast<long>(run.rng.Below(cases.size())));
          prefs.push_back(schedule::Preference{it->first, wait_ms, s});
          break;
        }
        case 1: {  // another case of a preferred select that this run executed
          schedule::Preference& p = prefs[run.rng.Below(prefs.size())];
          auto cases = selects.find(p.site);
          if (cases == selects.end() || cases->second.size() < 2) break;
          std::vector<int32_t> other;
          for (const auto& [c, taken] : cases->second) {
            if (c != p.choice) other.push_back(c);
          }
          p.choice = other[run.rng.Below(other.size())];
          break;
        }
        case 2: {  // wait longer or shorter for it
          schedule::Preference& p = prefs[run.rng.Below(prefs.size())];
          uint32_t w = run.rng.Chance(0.5) ? p.wait_ms * 4 : p.wait_ms / 4;
          p.wait_ms = std::clamp(w, min_wait_ms, max_wait_ms);
          break;
        }
        case 3:  // one preference less (a set keeps one, unless a prefix remains)
          if (prefs.size() > 1 || has_more) prefs.erase(prefs.begin() + static_cast<long>(run.rng.Below(prefs.size())));
          break;
      }
    }
    if (prefs.empty()) continue;
    std::sort(prefs.begin(), prefs.end(), [](const schedule::Preference& x, const schedule::Preference& y) {
      return std::tie(x.site, x.choice, x.wait_ms) < std::tie(y.site, y.choice, y.wait_ms);
    });
    std::string key = PreferText(prefs, wait_ms);
    // Steps that undid each other leave the schedule that ran.
    if (key == PreferText(base.prefers, wait_ms)) continue;
    if (!base_key.empty()) key = base_key + " + " + key;
    if (!keys.insert(key).second) continue;
    Candidate cand;
    cand.schedule = base;
    cand.schedule.prefers = std::move(prefs);
    cand.schedule.origin = "fuzz " + key;
    cand.key = std::move(key);
    cand.strategy = Name();
    out->push_back(std::move(cand));
    made++;
  }
}

}  // namespace gordian::fuzz
