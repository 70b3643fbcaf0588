// This file renders findings as one self-contained HTML page (-html FILE):
// its CSS and script are inline (html_page.h) and it loads nothing from the
// network, so it opens in any browser from a file or an attachment. The
// page is drawn by its script from one JSON blob of the findings (the
// locations with their source excerpts, the goroutines, the steps of the
// interleaving with the objects they are on): an index filterable by kind,
// status and test with counts; per finding the message, the excerpts, a
// timeline (one lane per goroutine, marks in order, send->receive and
// close->affected arrows, lock-held bars, the failing operation
// highlighted, the source line on hover) and the reproduce command with a
// copy button. With whole runs (RunTimeline), a canvas timeline of every
// goroutine of each, scrolled and zoomed, drawing only the visible window.
//
// Escaping: every text from a trace or a source file reaches the page only
// inside the JSON blob, with '<', '>' and '&' written as \u escapes (so no
// "</script>" or "<!--" can end or change the script element), and the
// script puts it into the document with textContent only, never as markup.
#pragma once

#include <string>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/report/run_timeline.h"
#include "gordian/report/verdict.h"

namespace gordian::report {

struct HtmlOptions {
  std::string title = "gordian report";  // the page's title (escaped)
  std::string command;                   // e.g. "gordian test ./...", shown in the header
  // Source excerpts are read only from .go files under this directory (as
  // for the terminal report); "" shows none.
  std::string source_root;
  const Verdict* verdict = nullptr;      // go test's verdict, for the header
  std::vector<std::string> degraded;     // what the analysis dropped (memory budget)
  int context_lines = 2;                 // excerpt lines above and below the primary location
  // Whole runs to draw after the findings (`gordian analyze --html`): every
  // goroutine of each trace on one canvas that draws only what is in view.
  const std::vector<RunTimeline>* runs = nullptr;
};

// The findings as the JSON blob the page's script draws (unescaped JSON;
// HtmlJsonForScript makes it safe inside a script element).
std::string HtmlData(const std::vector<Finding>& findings, const HtmlOptions& opt);

// json with every '<', '>', '&', U+2028 and U+2029 written as a \u escape:
// the same JSON value, and text that cannot end or alter the script element
// it is placed in.
std::string HtmlJsonForScript(const std::string& json);

// The whole page.
std::string RenderHtml(const std::vector<Finding>& findings, const HtmlOptions& opt);

// Writes RenderHtml to path; false with *err when it cannot.
bool WriteHtmlFile(const std::string& path, const std::vector<Finding>& findings,
                   const HtmlOptions& opt, std::string* err);

}  // namespace gordian::report
