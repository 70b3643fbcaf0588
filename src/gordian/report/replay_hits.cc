// This file implements CountConfirmation and SummarizeReplayHits (replay_hits.h).
#include "gordian/report/replay_hits.h"

#include <algorithm>

#include <fmt/format.h>

#include "gordian/report/columns.h"
#include "gordian/report/dedup.h"

namespace gordian::report {

ConfirmationCounts CountConfirmation(const std::vector<Finding>& findings) {
  ConfirmationCounts c;
  for (const Finding& f : findings) {
    if (f.severity != Severity::Bug) continue;
    switch (f.status) {
      case Status::Confirmed: c.predicted++; c.confirmed++; break;
      case Status::Unconfirmed: c.predicted++; c.refuted++; break;
      case Status::Predicted: c.predicted++; break;
      case Status::Occurred: c.occurred++; c.reproduced += !f.reproduce.empty(); break;
    }
  }
  return c;
}

ReplayHits SummarizeReplayHits(std::vector<Finding> hit, std::string_view expect,
                               size_t max_lines) {
  ResolveColumns(&hit);
  Dedup(&hit);
  // Information is not a hit, but for the kind the schedule expects (a
  // receive on a closed channel that happened is information).
  std::erase_if(hit, [&](const Finding& f) {
    return f.severity == Severity::Info && (expect.empty() || KindName(f.kind) != expect);
  });
  std::stable_partition(hit.begin(), hit.end(),
                        [&](const Finding& f) { return !expect.empty() && KindName(f.kind) == expect; });
  ReplayHits out;
  for (size_t i = 0; i < hit.size(); i++) {
    const Finding& f = hit[i];
    bool expected = !expect.empty() && KindName(f.kind) == expect;
    if (f.severity == Severity::Bug || expected) out.bugs++;
    if (i >= max_lines) {
      out.more++;
      continue;
    }
    std::string where;
    if (!f.locations.empty()) {
      where = fmt::format(" at {}:{} (goroutine {})", f.locations[0].file, f.locations[0].line,
                          f.locations[0].goroutine);
    }
    // "hit <kind>" first: scripts and people search for it.
    out.lines.push_back(fmt::format("the replayed run hit {}{}{}{}", KindName(f.kind), where,
                                    f.severity == Severity::Bug ? "" : " (a warning)",
                                    expected ? " (the bug this schedule shows)" : ""));
  }
  return out;
}

}  // namespace gordian::report
