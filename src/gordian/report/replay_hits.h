// This file condenses what replays showed, for people:
// - ConfirmationCounts: how many reported bugs replays confirmed, refuted or
//   reproduced, counted over the findings the report shows, so that the
//   line `gordian test` prints agrees with its summary;
// - SummarizeReplayHits: what a replayed run hit, as the few lines `gordian
//   replay` prints: what the report would drop is dropped (receives that
// check for closed, infos), the same bug hit by many goroutines is one
// line, the bug the schedule was written for comes first, and the list is
// capped, so that a diverged replay of a large suite stays readable.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gordian/report/finding.h"

namespace gordian::report {

struct ReplayHits {
  std::vector<std::string> lines;  // "the replayed run hit send-on-closed at x.go:3 (goroutine 1.0)"
  size_t bugs = 0;                 // bugs hit, and hits of the expected kind
  size_t more = 0;                 // hits not listed (past the cap)
};

struct ConfirmationCounts {
  size_t predicted = 0;   // bugs predicted (confirmed, refuted or not replayed)
  size_t confirmed = 0;
  size_t refuted = 0;     // status unconfirmed
  size_t occurred = 0;    // bugs that occurred
  size_t reproduced = 0;  // ... with a reproduce command
};
ConfirmationCounts CountConfirmation(const std::vector<Finding>& findings);

// The counts as the lines `gordian test` prints after its report: "confirmed
// 1 of 2 predicted bugs by replay, 1 not confirmed (shown as a warning: ...)",
// "1 bug occurred; its recorded schedule did not reproduce it (...)"; none
// when nothing was predicted or occurred.
std::vector<std::string> ConfirmationLines(const ConfirmationCounts& c);

// expect: the kind the schedule was written to show ("" for a recorded
// run). Takes the raw findings of the replayed trace.
ReplayHits SummarizeReplayHits(std::vector<Finding> hit, std::string_view expect,
                               size_t max_lines = 10);

}  // namespace gordian::report
