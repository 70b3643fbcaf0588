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

std::vector<std::string> ConfirmationLines(const ConfirmationCounts& c) {
  std::vector<std::string> out;
  if (c.predicted > 0) {
    size_t pending = c.predicted - c.confirmed - c.refuted;
    std::string rest;
    if (c.refuted > 0) rest += fmt::format(", {} refuted (hidden; -unconfirmed shows them)", c.refuted);
    if (pending > 0) {
      rest += fmt::format(", {} not confirmed (shown as warning{}: {} not decide the exit status)",
                          pending, pending == 1 ? "" : "s", pending == 1 ? "it does" : "they do");
    }
    out.push_back(fmt::format("confirmed {} of {} predicted bug{} by replay{}", c.confirmed,
                              c.predicted, c.predicted == 1 ? "" : "s", rest));
  }
  if (c.occurred > 0) {
    bool one = c.occurred == 1;
    std::string what = one ? "1 bug occurred" : fmt::format("{} bugs occurred", c.occurred);
    if (c.reproduced == c.occurred) {
      out.push_back(fmt::format("{}; {} recorded schedule reproduced {}", what, one ? "its" : "their",
                                one ? "it" : "each of them"));
    } else if (c.reproduced == 0) {
      out.push_back(fmt::format(
          "{}; {} recorded schedule did not reproduce {}: the bug{} did happen, but depend{} on "
          "timing a schedule does not fix, so there is no reproduce command",
          what, one ? "its" : "their", one ? "it" : "them", one ? "" : "s", one ? "s" : ""));
    } else {
      out.push_back(fmt::format(
          "{}; their recorded schedules reproduced {} of them (the others did happen, but depend "
          "on timing a schedule does not fix, and have no reproduce command)",
          what, c.reproduced));
    }
  }
  return out;
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
