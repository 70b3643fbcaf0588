// parse_perftest measures the Go front end's single-threaded throughput: it
// loads a set of Go files into memory, then parses (or only scans) all of
// them, N times, and reports the best run in MB/s and files/s together with
// the process's peak RSS. bench/goparse does the same with Go's go/parser;
// bench/run-parse-bench prints both side by side.
//
//   parse_perftest [--files LIST | --goroot DIR] [--runs N] [--scan-only]
//
// LIST holds one path per line. Without either option the files are every
// .go file under $(go env GOROOT)/src outside testdata directories.
// Output: one line of key=value pairs (the last line), e.g.
//   mode=parse files=6495 bytes=87734122 runs=5 best_s=0.41 mb_s=213.9
//   files_s=15841 errors=0 load_rss_mb=212.3 peak_rss_mb=260.1
// Each file's AST lives in its own Arena, dropped after the file, as a tool
// that parses and analyses one file at a time would; comments are collected
// (go/parser's ParseComments).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gordian/syntax/arena.h"
#include "gordian/syntax/parser_testing.h"
#include "gordian/syntax/scanner.h"
#include "gordian/syntax/source.h"
#include "gordian/syntax/syntax.h"

namespace {

using namespace gordian::syntax;

double PeakRssMB() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

[[noreturn]] void Usage(const char* msg) {
  std::fprintf(stderr,
               "parse_perftest: %s\n"
               "usage: parse_perftest [--files LIST | --goroot DIR] [--runs N] [--scan-only]\n",
               msg);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string list, goroot;
  int runs = 5;
  bool scan_only = false;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--files") {
      list = value();
    } else if (a == "--goroot") {
      goroot = value();
    } else if (a == "--runs") {
      runs = std::atoi(value().c_str());
      if (runs < 1) Usage("--runs must be at least 1");
    } else if (a == "--scan-only") {
      scan_only = true;
    } else {
      Usage(("unknown argument " + a).c_str());
    }
  }

  std::vector<std::string> paths;
  if (!list.empty()) {
    std::ifstream in(list);
    if (!in) Usage(("cannot open " + list).c_str());
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) paths.push_back(line);
    }
  } else {
    if (goroot.empty()) goroot = testing::GoEnvGoRoot();
    if (goroot.empty()) Usage("go not found: give --files or --goroot");
    paths = testing::GoFilesUnder(goroot + "/src");
  }
  if (paths.empty()) Usage("no files to parse");

  // Preload everything, so that the measurement is parsing, not I/O.
  SourceSet set;
  std::vector<const SourceFile*> files;
  size_t bytes = 0;
  for (const std::string& p : paths) {
    std::string err;
    const SourceFile* f = set.ReadFile(p, &err);
    if (f == nullptr) {
      std::fprintf(stderr, "parse_perftest: %s\n", err.c_str());
      return 2;
    }
    files.push_back(f);
    bytes += f->size();
  }
  double load_rss = PeakRssMB();

  ErrorHandler no_handler;  // errors are only counted
  double best = 1e30;
  long errors = 0;
  std::vector<Comment> comments;
  for (int r = 0; r < runs; r++) {
    errors = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (const SourceFile* f : files) {
      if (scan_only) {
        comments.clear();
        Scanner s(*f, &no_handler, &comments);
        do s.Next(); while (s.tok != Token::EOF_);
        errors += s.error_count();
      } else {
        Arena arena;
        ParseResult res = Parse(*f, &arena, no_handler);
        errors += res.error_count;
      }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, secs);
  }
  if (errors != 0) {
    std::fprintf(stderr, "parse_perftest: warning: %ld errors in the input files\n", errors);
  }
  std::printf("mode=%s files=%zu bytes=%zu runs=%d best_s=%.4f mb_s=%.1f files_s=%.0f "
              "errors=%ld load_rss_mb=%.1f peak_rss_mb=%.1f\n",
              scan_only ? "scan" : "parse", files.size(), bytes, runs, best,
              static_cast<double>(bytes) / 1e6 / best, static_cast<double>(files.size()) / best,
              errors, load_rss, PeakRssMB());
  return 0;
}
