// End-to-end test of `gordian verify` on the verify corpus
// (tests/corpus/verify, docs/verify.md): one run over the whole module with
// --json, then each program's findings against its `// want:` annotations
// by the corpus checker rules (tests/corpus_check/wants.h): every want met,
// every bug finding on a wanted line, no bug in a correct program. It also
// checks that the corpus covers every kind the model checker reports and
// prints the found/missed/false table per kind that docs/verify.md quotes.
// Needs the go command and the gordian binary (label "go").
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "verify_e2e.h"
#include "gordian/driver/process.h"
#include "gordian/report/json.h"
#include "wants.h"

namespace gordian {
namespace {

namespace fs = std::filesystem;

struct Program {
  std::string rel;  // "bugs/fetch_error_path_leak"
  std::vector<corpus::Want> wants;
};

std::vector<Program> Programs(const fs::path& root, std::vector<std::string>* problems) {
  std::vector<Program> out;
  for (const char* section : {"bugs", "correct"}) {
    std::error_code ec;
    for (const auto& dir : fs::directory_iterator(root / section, ec)) {
      if (!dir.is_directory()) continue;
      Program p;
      p.rel = std::string(section) + "/" + dir.path().filename().string();
      for (const auto& f : fs::directory_iterator(dir.path())) {
        if (f.path().extension() != ".go") continue;
        corpus::ParseWants(f.path().filename().string(), e2e::Slurp(f.path()), &p.wants, problems);
      }
      out.push_back(std::move(p));
    }
  }
  std::sort(out.begin(), out.end(), [](const Program& a, const Program& b) { return a.rel < b.rel; });
  return out;
}

// known-gaps.txt: program -> why its result is known to be wrong.
std::map<std::string, std::string> KnownGaps(const fs::path& root) {
  std::map<std::string, std::string> out;
  std::istringstream in(e2e::Slurp(root / "known-gaps.txt"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t colon = line.find(": ");
    if (colon != std::string::npos) out[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return out;
}

TEST(VerifyCorpus, FindingsMatchWants) {
  const fs::path root = fs::path(e2e::SourceDir()) / "tests/corpus/verify";
  std::vector<std::string> problems;
  std::vector<Program> progs = Programs(root, &problems);
  std::map<std::string, std::string> gaps = KnownGaps(root);
  for (const auto& [rel, why] : gaps) {
    EXPECT_TRUE(std::any_of(progs.begin(), progs.end(), [&](const Program& p) { return p.rel == rel; }))
        << "known-gaps.txt names " << rel << ", which is not in the corpus";
  }
  EXPECT_TRUE(problems.empty()) << fmt::format("{}", fmt::join(problems, "\n"));
  ASSERT_GE(progs.size(), 30u);

  const fs::path tmp = fs::temp_directory_path() / ("gordian-verify-" + std::to_string(getpid()));
  fs::create_directories(tmp);
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(e2e::RunVerify({"-no-confirm", "--json", (tmp / "findings.json").string(), "./..."}, root, tmp, &r, &err)) << err;
  // Static findings are predictions: warnings until a replay confirms them.
  ASSERT_EQ(r.exit_code, 0) << "want exit 0 (predicted findings only)\n" << r.out << r.err;
  std::vector<report::Finding> findings;
  ASSERT_TRUE(report::FromJson(e2e::Slurp(tmp / "findings.json"), &findings, &err)) << err;
  fs::remove_all(tmp);

  // Per kind: wants met (found), wants not met (missed), bug findings no
  // want accounts for (false).
  std::map<std::string, std::array<int, 3>> table;
  std::set<report::FindingKind> wanted;
  int bug_programs = 0, correct_programs = 0;
  for (const Program& p : progs) {
    bool bugs = p.rel.starts_with("bugs/");
    (bugs ? bug_programs : correct_programs)++;
    if (bugs) { EXPECT_FALSE(p.wants.empty()) << p.rel << ": a bug program without a want"; }
    // A correct program may pin a warning's absence (`// nowant: KIND`).
    if (!bugs) {
      EXPECT_TRUE(std::all_of(p.wants.begin(), p.wants.end(), [](const corpus::Want& w) { return w.absent; }))
          << p.rel << ": a correct program with a want";
    }
    std::vector<report::Finding> mine;
    for (const report::Finding& f : findings) {
      if (!f.locations.empty() && f.locations[0].file.starts_with(p.rel + "/")) mine.push_back(f);
    }
    corpus::CheckResult c = corpus::Check(p.rel, p.wants, mine);
    const bool gap = gaps.count(p.rel) > 0;
    if (gap) {
      EXPECT_FALSE(c.ok()) << p.rel << " is right now: remove it from known-gaps.txt";
      std::cout << "known gap " << p.rel << ": " << gaps[p.rel] << "\n";
    }
    auto fail = [&](const std::string& what) {
      if (gap) {
        std::cout << "  " << what << "\n";
      } else {
        ADD_FAILURE() << what;
      }
    };
    for (const corpus::Want& w : c.matched) {
      table[std::string(report::KindName(w.kind))][0]++;
      wanted.insert(w.kind);
    }
    for (const corpus::Want& w : c.missed) {
      table[std::string(report::KindName(w.kind))][1]++;
      wanted.insert(w.kind);
      fail(p.rel + ": missed " + w.String());
    }
    for (const std::string& u : c.unexpected) fail(p.rel + ": unexpected " + u);
    for (const report::Finding& f : mine) {
      bool accounted = false;
      for (const corpus::Want& w : p.wants) {
        for (const report::Location& l : f.locations) accounted = accounted || (l.line == w.line && w.kind == f.kind);
      }
      if (corpus::ClaimsABug(f) && f.status != report::Status::Unconfirmed && !accounted) table[std::string(report::KindName(f.kind))][2]++;
      EXPECT_EQ(f.status, report::Status::Predicted) << p.rel;
    }
  }
  // The corpus covers every kind the model checker reports.
  using K = report::FindingKind;
  for (K k : {K::GoroutineLeak, K::GlobalDeadlock, K::SendOnClosed, K::CloseOfClosed, K::CloseOfNil,
              K::NegativeWaitGroup, K::UnlockOfUnlocked, K::DoubleLock, K::LockOrderDeadlock, K::MixedDeadlock,
              K::Panic, K::PartialDeadlock, K::UndeliveredMessage}) {
    EXPECT_TRUE(wanted.count(k)) << "no program wants " << report::KindName(k);
  }
  std::string summary = fmt::format("{} bug programs, {} correct programs\n{:<22} found missed false\n",
                                    bug_programs, correct_programs, "kind");
  for (const auto& [kind, n] : table) summary += fmt::format("{:<22} {:>5} {:>6} {:>5}\n", kind, n[0], n[1], n[2]);
  std::cout << summary;
}

// The command itself on small modules written here: a package that does
// not build is exit 2 with the compiler's message; -param chooses the
// values (below the bound: clean, exit 0; at it: the bug, naming the
// value); a malformed -param is a usage error; -dump-models prints the
// model with its mandatory parameter.
class VerifyCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gordian-verify-cmd-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "fill");
    Write("go.mod", "module example.com/v\n\ngo 1.26\n");
    Write("fill/fill.go",
          "package fill\n\nfunc Fill(n int) {\n\tch := make(chan int, 3)\n\tfor i := 0; i < n; i++ {\n"
          "\t\tch <- i\n\t}\n}\n");
    std::string bin = e2e::Env("GORDIAN_BINARY_DIR");
    cache_ = bin.empty() ? dir_ / "cache" : fs::path(bin) / "ir-e2e-cache";
    fs::create_directories(cache_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& rel, const std::string& text) {
    std::ofstream(dir_ / rel) << text;
  }
  driver::ProcessResult Verify(std::vector<std::string> args) {
    driver::ProcessSpec spec;
    spec.argv = {e2e::Gordian(), "verify"};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.cwd = dir_.string();
    spec.set_env["GORDIAN_CACHE"] = cache_.string();
    spec.pass_through = false;
    spec.timeout_seconds = 300;
    driver::ProcessResult r;
    std::string err;
    EXPECT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
    return r;
  }
  fs::path dir_, cache_;
};

TEST_F(VerifyCommand, ParamChoosesTheValues) {
  driver::ProcessResult r = Verify({"-param", "n=0,1,3", "./..."});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = Verify({"-param", "n=2,5", "./..."});
  // A prediction is a warning (only a confirmed bug sets exit 1).
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("warning: deadlock"), std::string::npos) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("when n >= 5"), std::string::npos) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("fill/fill.go:6"), std::string::npos) << r.out << r.err;
  // The same finding in SARIF, with its location.
  r = Verify({"-param", "n=5", "--sarif", (dir_ / "out.sarif").string(), "./..."});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string sarif = e2e::Slurp(dir_ / "out.sarif");
  EXPECT_NE(sarif.find("fill/fill.go"), std::string::npos) << sarif;
  EXPECT_NE(sarif.find("global-deadlock"), std::string::npos) << sarif;
  r = Verify({"-param", "n", "./..."});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("NAME=VALUES"), std::string::npos) << r.err;
}

TEST_F(VerifyCommand, DumpModelsShowsTheParameter) {
  driver::ProcessResult r = Verify({"-dump-models", "./..."});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("example.com/v/fill.Fill"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("n mandatory"), std::string::npos) << r.out;
}

// -html writes the same report page as gordian test (docs/reports.md,
// "HTML"), with the
// finding, its source line and its timeline; and when stderr is not a
// terminal the progress comes as plain lines that name the model.
TEST_F(VerifyCommand, HtmlReportAndProgressLines) {
  const std::string page = (dir_ / "report.html").string();
  driver::ProcessResult r = Verify({"-param", "n=2,5", "-html", page, "./..."});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string html = e2e::Slurp(page);
  EXPECT_NE(html.find("global-deadlock"), std::string::npos);
  EXPECT_NE(html.find("fill/fill.go"), std::string::npos);
  // The page carries the findings as script data, with < > & written as
  // \u escapes so that no text of the program can end the script.
  EXPECT_NE(html.find("when n \\u003e= 5"), std::string::npos) << "the message, escaped";
  EXPECT_NE(r.err.find("gordian verify: model 1 of 1: example.com/v/fill.Fill; 0 findings so far"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "no terminal line outside a terminal";
}

TEST_F(VerifyCommand, APackageThatDoesNotBuildIsExit2WithTheCompilersMessage) {
  Write("fill/broken.go", "package fill\n\nfunc Broken() int { return undefinedName }\n");
  driver::ProcessResult r = Verify({"./..."});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("undefinedName"), std::string::npos) << r.err;
}

// -max-model-states: a model past its budget stops and every report says
// so (the JSON's "degraded", --verbose), so that its lack of findings is
// never read as a proof; a model within it is reported as before.
TEST_F(VerifyCommand, AModelPastItsBudgetIsReportedAsBounded) {
  const std::string json = (dir_ / "out.json").string();
  driver::ProcessResult r = Verify({"-max-model-states", "5", "--verbose", "--json", json, "./..."});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // the bug needs n >= 4: past the budget
  EXPECT_NE(r.err.find("example.com/v/fill.Fill (1 processes, 1 parameters): "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(", bounded: 5 states (-max-model-states)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 stopped by the model budget"), std::string::npos) << r.err;
  std::string text = e2e::Slurp(json);
  EXPECT_NE(text.find("\"degraded\""), std::string::npos) << text;
  EXPECT_NE(text.find("model example.com/v/fill.Fill: bounded: 5 states (-max-model-states)"), std::string::npos)
      << text;
  r = Verify({"--json", json, "./..."});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // a prediction: a warning
  text = e2e::Slurp(json);
  EXPECT_EQ(text.find("\"degraded\""), std::string::npos) << text;
  EXPECT_NE(text.find("when n >= 4"), std::string::npos) << text;
  r = Verify({"-max-model-time", "soon", "./..."});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-max-model-time \"soon\""), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gordian
