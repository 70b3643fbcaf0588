// The fuzz corpus runner (ctest label "corpus"): one `gordian fuzz --json`
// over tests/corpus/fuzz (bugs/: programs whose bug neither a plain run
// shows nor `gordian test` predicts from one trace, each saying why in its
// file-top comment, annotated `// want: KIND occurred`; correct/: programs
// the fuzzer explores and must find clean). Every want must be matched by a
// finding that a run of the campaign showed (occurred), or that a run
// predicted and a replay of its rewrite showed (confirmed), and every bug
// carries a reproduce command; correct programs get no bug. The schedules
// that add coverage go to a scratch corpus (-corpus), not into the tree.
// The budget is gordian fuzz's default; -stale 4s leaves the random
// strategies (delay points) a few batches of proposals after coverage stops
// growing (the test binary is built once, ~20 runs/s; every bug of the
// first 9 programs came up within its test's first 1.2 s at load 10). The
// whole section (21 bug and 17 correct programs) took 318 s with -stale 4s
// on two busy cores (2026-11-25); it runs beside the other Go-program
// tests (BESIDE_OTHERS in CMakeLists.txt), since it mostly waits.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/report/json.h"
#include "wants.h"

namespace gordian::corpus {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(FuzzCorpus, EveryBugFoundAndReproducedNoneInCorrectPrograms) {
  const char* src_env = std::getenv("GORDIAN_SOURCE_DIR");
  const char* bin_env = std::getenv("GORDIAN_BINARY_DIR");
  fs::path module = fs::path(src_env && *src_env ? src_env : GORDIAN_SOURCE_DIR_DEFAULT) /
                    "tests/corpus";
  fs::path gordian =
      fs::path(bin_env && *bin_env ? bin_env : GORDIAN_BINARY_DIR_DEFAULT) / "bin/gordian";
  fs::path tmp = fs::temp_directory_path() / fmt::format("gordian-fuzz-corpus-{}", getpid());
  fs::create_directories(tmp);
  fs::path json = tmp / "findings.json", log = tmp / "output.txt";
  // timeout(1) is the safety net; -budget and -stale are gordian's limits.
  std::string cmd = fmt::format(
      "cd '{}' && timeout -s KILL 1200 '{}' fuzz -budget 60s -stale 4s -j 2 -corpus '{}' "
      "--quiet --json '{}' ./fuzz/... >'{}' 2>&1",
      module.string(), gordian.string(), (tmp / "corpus").string(), json.string(), log.string());
  auto start = std::chrono::steady_clock::now();
  int raw = std::system(cmd.c_str());
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::string output = Slurp(log);
  std::vector<report::Finding> findings;
  std::string err;
  bool read = report::FromJson(Slurp(json), &findings, &err);
  fs::remove_all(tmp);
  ASSERT_TRUE(read) << "gordian fuzz ended with status " << status << " (" << err << ")\n"
                    << output;
  EXPECT_EQ(status, 1) << "bugs found: exit status 1\n" << output;

  size_t programs = 0, failed = 0;
  for (const char* section : {"bugs", "correct"}) {
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(module / "fuzz" / section)) {
      if (e.is_directory()) dirs.push_back(e.path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const fs::path& d : dirs) {
      std::string name = fmt::format("fuzz/{}/{}", section, d.filename().string());
      std::vector<Want> ws;
      std::vector<std::string> problems;
      for (const auto& f : fs::directory_iterator(d)) {
        if (f.path().extension() == ".go") {
          ParseWants(f.path().filename().string(), Slurp(f.path()), &ws, &problems);
        }
      }
      for (const std::string& p : problems) ADD_FAILURE() << name << ": " << p;
      EXPECT_EQ(ws.empty(), std::string(section) == "correct") << name;
      std::vector<report::Finding> mine;
      for (const report::Finding& f : findings) {
        bool here = false;
        for (const report::Location& l : f.locations) {
          here = here || ("/" + l.file).find("/" + name + "/") != std::string::npos;
        }
        if (!here) continue;
        if (report::CountsAsBug(f)) {
          EXPECT_FALSE(f.reproduce.empty())
              << name << ": no reproduce for " << DescribeFinding(f) << "\n" << output;
        }
        mine.push_back(f);
        // A bug some run predicted and its rewrite's replay showed is as
        // proven as one a run showed: both meet an `occurred` want.
        if (f.status == report::Status::Confirmed) mine.back().status = report::Status::Occurred;
      }
      CheckResult r = Check(d.string(), ws, mine);
      programs++;
      failed += !r.ok();
      for (const Want& w : r.missed) ADD_FAILURE() << name << ": missed want " << w.String();
      for (const std::string& u : r.unexpected) ADD_FAILURE() << name << ": unexpected " << u;
      fmt::print("{:<45} wants {}  matched {}  {}\n", name, ws.size(), r.matched.size(),
                 r.ok() ? "ok" : "FAIL");
    }
  }
  fmt::print("\nfuzz corpus: {}/{} programs ok; gordian fuzz took {:.0f}s\n", programs - failed,
             programs, secs);
  if (failed > 0) fmt::print("{}\n", output);
}

}  // namespace
}  // namespace gordian::corpus
