// This file declares the fixed parts of the HTML report's page: its style
// sheet and its script (html_page.cc). The script reads the JSON blob of
// element #gordian-data and draws the page into #app; it puts text into the
// document with textContent only. A script error is written into
// #gordian-errors (shown, and read by the browser test), and a finished
// drawing sets data-gordian-rendered="ok" on the root element.
#pragma once

namespace gordian::report {

extern const char kHtmlPageCss[];
extern const char kHtmlPageScript[];

}  // namespace gordian::report
