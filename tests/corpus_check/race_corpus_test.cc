// The race corpus runner (ctest label "corpus"): one `gordian test -race
// --json` over tests/corpus/races (bugs/: programs with data races, each
// annotated `// want: data-race occurred`; correct/: race-free programs),
// then the findings of each program are compared with its wants by the
// rules of docs/corpus.md (wants.h). One gordian run for the whole section
// keeps the test short: the race-built std and test binaries are built
// once, in parallel by go test.
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/report/json.h"
#include "wants.h"

namespace gordian::corpus {
namespace {

namespace fs = std::filesystem;

std::string Env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v ? v : fallback;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

TEST(RaceCorpus, EveryRaceFoundNoneInCorrectPrograms) {
  fs::path module = fs::path(Env("GORDIAN_SOURCE_DIR", GORDIAN_SOURCE_DIR_DEFAULT)) / "tests/corpus";
  std::string gordian = Env("GORDIAN_BINARY_DIR", GORDIAN_BINARY_DIR_DEFAULT) + "/bin/gordian";
  fs::path tmp = fs::temp_directory_path() / fmt::format("gordian-race-corpus-{}", getpid());
  fs::create_directories(tmp);
  std::string json = (tmp / "findings.json").string(), log = (tmp / "output.txt").string();
  // timeout(1) is the safety net; --wall is gordian's own limit.
  std::string cmd = fmt::format(
      "cd {} && timeout -s KILL 900 {} test -race --quiet --wall 300s --json {} ./races/... >{} 2>&1",
      ShellQuote(module.string()), ShellQuote(gordian), ShellQuote(json), ShellQuote(log));
  auto start = std::chrono::steady_clock::now();
  int raw = std::system(cmd.c_str());
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::string output = ReadFile(log);
  std::vector<report::Finding> findings;
  std::string err;
  bool read = report::FromJson(ReadFile(json), &findings, &err);
  fs::remove_all(tmp);
  ASSERT_TRUE(read) << "gordian test -race ended with status " << status << " (" << err << ")\n"
                    << output;
  // Racy programs fail their tests and are bugs: exit status 1.
  EXPECT_EQ(status, 1) << output;

  size_t programs = 0, wants = 0, matched = 0, failed = 0;
  for (const char* section : {"bugs", "correct"}) {
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(module / "races" / section)) {
      if (e.is_directory()) dirs.push_back(e.path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const fs::path& d : dirs) {
      std::vector<Want> ws;
      std::vector<std::string> problems;
      for (const auto& f : fs::directory_iterator(d)) {
        if (f.path().extension() == ".go") {
          ParseWants(f.path().filename().string(), ReadFile(f.path().string()), &ws, &problems);
        }
      }
      std::string name = fmt::format("races/{}/{}", section, d.filename().string());
      for (const std::string& p : problems) ADD_FAILURE() << name << ": " << p;
      if (std::string(section) == "bugs") {
        EXPECT_FALSE(ws.empty()) << name << ": a racy program without a data-race want";
      } else {
        EXPECT_TRUE(ws.empty()) << name << ": a race-free program with wants";
      }
      // The findings of this program: one of their locations is in its
      // directory (Check expects one program's findings).
      std::vector<report::Finding> mine;
      for (const report::Finding& f : findings) {
        for (const report::Location& l : f.locations) {
          if (("/" + l.file).find("/" + name + "/") != std::string::npos) {
            mine.push_back(f);
            break;
          }
        }
      }
      CheckResult r = Check(d.string(), ws, mine);
      programs++;
      wants += ws.size();
      matched += r.matched.size();
      failed += !r.ok();
      for (const Want& w : r.missed) ADD_FAILURE() << name << ": missed want " << w.String();
      for (const std::string& u : r.unexpected) ADD_FAILURE() << name << ": unexpected " << u;
      fmt::print("{:<45} wants {}  matched {}  {}\n", name, ws.size(), r.matched.size(),
                 r.ok() ? "ok" : "FAIL");
    }
  }
  fmt::print("\nrace corpus: {}/{} programs ok; wants {} matched {}; gordian test -race took "
             "{:.0f}s\n",
             programs - failed, programs, wants, matched, secs);
}

}  // namespace
}  // namespace gordian::corpus
