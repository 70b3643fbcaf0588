// Writes the HTML report of a synthetic run (synthetic_trace.h, the
// channel-heavy shape: sends, receives, selects, closes among 200
// goroutines) with its whole-run timeline, as `gordian analyze --html`
// writes it, and prints the operations drawn, the page's size and the time
// to make it. bench/run-html-bench loads the page in headless Chromium.
//
//   html_perftest OUT.html [OPERATIONS (default 100000)] [GOROUTINES (default 200)]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gordian/pipeline/timeline_of_trace.h"
#include "gordian/report/html.h"
#include "synthetic_trace.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: html_perftest OUT.html [OPERATIONS] [GOROUTINES]\n");
    return 2;
  }
  const uint64_t ops = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 100000;
  const uint32_t goroutines = argc > 3 ? uint32_t(std::strtoul(argv[3], nullptr, 10)) : 200;
  // The trace has goroutine starts and unchosen select cases that are not
  // drawn: make records until the drawn operations reach the count.
  uint64_t events = ops;
  std::vector<gordian::report::RunTimeline> runs;
  for (int tries = 0; tries < 8; tries++) {
    gordian::trace::Trace t = gordian::bench::ChannelHeavy(goroutines, events);
    runs = {gordian::pipeline::RunTimelineOf(t, "synthetic channel-heavy run", ops)};
    if (runs[0].size() >= ops) break;
    events = events * ops / std::max<uint64_t>(1, runs[0].size()) + 1000;
  }
  auto start = std::chrono::steady_clock::now();
  gordian::report::HtmlOptions opt;
  opt.title = "gordian report: synthetic run";
  opt.command = "gordian analyze";
  opt.runs = &runs;
  std::string err;
  if (!gordian::report::WriteHtmlFile(argv[1], {}, opt, &err)) {
    std::fprintf(stderr, "html_perftest: %s\n", err.c_str());
    return 1;
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                  .count();
  std::printf("operations %zu lanes %zu page_bytes %ju write_ms %.1f\n", runs[0].size(),
              runs[0].lanes.size(), std::uintmax_t(std::filesystem::file_size(argv[1])), ms);
  return 0;
}
