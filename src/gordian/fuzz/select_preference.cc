// This file implements the select-preference strategy (select_preference.h).
#include "gordian/fuzz/select_preference.h"

#include <set>

#include <fmt/format.h>

#include "gordian/schedule/from_trace.h"

namespace gordian::fuzz {

using trace::Kind;
using trace::Record;

void SelectPreference::Propose(const AnalysedRun& run, std::vector<Candidate>* out) {
  const trace::Trace& t = run.t;
  std::set<std::string> keys;  // made from this run (a select in a loop repeats)
  size_t made = 0;
  for (uint32_t i = 0; i < t.records.size() && made < max_per_run; i++) {
    const Record& r = t.records[i];
    // A select that finished (its choice is known) at a known site; a
    // one-case select with default is a non-blocking operation the
    // runtime does not run through select, so it gets no preference.
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
}

}  // namespace gordian::fuzz
