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
// whole section took 483 s with -stale 4s on two busy cores
// (docs/fuzzing-schedules.md, "Figures"); it runs beside the other Go-program
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

// One `gordian fuzz --json` over tests/corpus/<section>/... with the given
// flags; checks every program of its bugs/ and correct/ against its wants.
// Returns gordian's stderr (the per-test lines) in *log.
void CheckFuzzSection(const std::string& section, const std::string& flags, int kill_after,
                      std::string* log) {
  const char* src_env = std::getenv("GORDIAN_SOURCE_DIR");
  const char* bin_env = std::getenv("GORDIAN_BINARY_DIR");
  fs::path module = fs::path(src_env && *src_env ? src_env : GORDIAN_SOURCE_DIR_DEFAULT) /
                    "tests/corpus";
  fs::path gordian =
      fs::path(bin_env && *bin_env ? bin_env : GORDIAN_BINARY_DIR_DEFAULT) / "bin/gordian";
  fs::path tmp = fs::temp_directory_path() / fmt::format("gordian-{}-corpus-{}", section, getpid());
  fs::create_directories(tmp);
  fs::path json = tmp / "findings.json", out = tmp / "output.txt";
  // timeout(1) is the safety net; gordian's own bounds are what is tested.
  std::string cmd = fmt::format(
      "cd '{}' && timeout -s KILL {} '{}' fuzz {} -corpus '{}' --json '{}' ./{}/... >'{}' 2>&1",
      module.string(), kill_after, gordian.string(), flags, (tmp / "corpus").string(), json.string(),
      section, out.string());
  auto start = std::chrono::steady_clock::now();
  int raw = std::system(cmd.c_str());
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::string output = Slurp(out);
  *log = output;
  std::vector<report::Finding> findings;
  std::string err;
  bool read = report::FromJson(Slurp(json), &findings, &err);
  fs::remove_all(tmp);
  ASSERT_TRUE(read) << "gordian fuzz ended with status " << status << " (" << err << ")\n"
                    << output;
  EXPECT_EQ(status, 1) << "bugs found: exit status 1\n" << output;

  size_t programs = 0, failed = 0;
  for (const char* kind : {"bugs", "correct"}) {
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(module / section / kind)) {
      if (e.is_directory()) dirs.push_back(e.path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const fs::path& d : dirs) {
      std::string name = fmt::format("{}/{}/{}", section, kind, d.filename().string());
      std::vector<Want> ws;
      std::vector<std::string> problems;
      for (const auto& f : fs::directory_iterator(d)) {
        if (f.path().extension() == ".go") {
          ParseWants(f.path().filename().string(), Slurp(f.path()), &ws, &problems);
        }
      }
      for (const std::string& p : problems) ADD_FAILURE() << name << ": " << p;
      // With -corpus, bug schedules go there too: the tree stays as it was.
      EXPECT_FALSE(fs::exists(d / "testdata" / "gordian-fuzz")) << name << ": written into the tree";
      EXPECT_EQ(ws.empty(), std::string(kind) == "correct") << name;
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
      fmt::print("{:<50} wants {}  matched {}  {}\n", name, ws.size(), r.matched.size(),
                 r.ok() ? "ok" : "FAIL");
    }
  }
  fmt::print("\n{} corpus: {}/{} programs ok; gordian fuzz took {:.0f}s\n", section,
             programs - failed, programs, secs);
  if (failed > 0) fmt::print("{}\n", output);
}

TEST(FuzzCorpus, EveryBugFoundAndReproducedNoneInCorrectPrograms) {
  std::string log;
  CheckFuzzSection("fuzz", "-budget 60s -stale 4s -j 2", 1200, &log);
}

// Data races only an explored schedule runs (a timer's or a context's
// branch of a select, a lock taken in the other order): `gordian fuzz
// -race` reports each as a data-race finding with a reproduce command, and
// none in the correct twins.
TEST(FuzzCorpus, RacesUnderExploredSchedulesFoundAndReproduced) {
  std::string log;
  CheckFuzzSection("fuzzrace", "-race -budget 30s -stale 3s -j 2", 600, &log);
}

// Programs that spin, livelock, never end or stall replays: each test's
// campaign ends within -budget + -run-wall + 5 s (its line says how long it
// took; a test that does not end is named, not fuzzed), and their bugs are
// still found and reproduced.
TEST(FuzzCorpus, BoundedCampaignsEndInTimeAndFindTheirBugs) {
  std::string log;
  const double budget = 4, run_wall = 5, bound = budget + run_wall + 5;
  CheckFuzzSection("fuzzbound", "-budget 4s -run-wall 5s -stale 2s -j 2", 600, &log);
  size_t tests = 0;
  for (size_t at = 0; (at = log.find("gordian fuzz: Test", at)) != std::string::npos; at++) {
    size_t eol = log.find('\n', at);
    std::string line = log.substr(at, eol - at);
    size_t in = line.find(" runs in ");
    if (in == std::string::npos) continue;
    double secs = std::atof(line.c_str() + in + 9);
    tests++;
    EXPECT_LE(secs, bound + 1) << line;
  }
  EXPECT_GE(tests, 8u) << log;
  EXPECT_NE(log.find("TestPingPongForever did not finish in 5s (-run-wall); not fuzzed"),
            std::string::npos)
      << log;
}

}  // namespace
}  // namespace gordian::corpus
