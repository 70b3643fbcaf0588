// This file renders findings for a person at a terminal: what a Go
// developer reads first. For each finding:
//   a headline           "bug: send on closed channel (occurred) in TestX"
//   the message          one sentence
//   the locations        file:line:col, role and goroutine, with the source
//                        line marked (read from disk; says so when it is gone)
//   the goroutines       stable ids, where each was spawned, what it runs
//   the interleaving     the relevant operations in stamp order
//   how to reproduce     the finding's reproduce command, when set
// and a summary line "N bugs, M warnings" at the end. Color only on request
// (StdoutWantsColor: stdout is a tty and NO_COLOR is unset).
#pragma once

#include <string>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/report/verdict.h"

namespace gordian::report {

struct TerminalOptions {
  bool color = false;
  bool show_info = false;   // info findings are counted but not shown unless set
  int context_lines = 2;    // lines above and below the primary location
  size_t max_steps = 12;    // interleaving steps shown (the rest are elided)
  // Predictions a replay refuted are counted but not shown unless set
  // (-unconfirmed): a schedule we tried and could not make fail is no bug
  // we can show.
  bool show_unconfirmed = false;
  // go test's verdict, for commands that ran tests: the summary line leads
  // with it ("FAIL: 2 of 40 tests failed (...); 1 bug, 0 warnings").
  const Verdict* verdict = nullptr;
  // Source excerpts are read only from .go files under this directory (the
  // module reported on); "" shows none. Text from traces and sources is
  // printed with control characters escaped.
  std::string source_root;
  // What the analysis dropped to stay within its memory budget: one "note:"
  // line each, before the summary line.
  std::vector<std::string> degraded;
};

bool StdoutWantsColor();

// The whole report, summary line included, ending in a newline.
std::string RenderTerminal(const std::vector<Finding>& findings, const TerminalOptions& opt);
// One finding (no summary).
std::string RenderFinding(const Finding& f, const TerminalOptions& opt);
// "2 bugs, 1 warning" (+ ", 3 infos (not shown; --info shows them)" when hidden,
// + ", 1 unconfirmed" when replays refuted some predictions), led by the
// verdict of the tests when opt.verdict is set.
std::string SummaryLine(const std::vector<Finding>& findings, const TerminalOptions& opt);

}  // namespace gordian::report
