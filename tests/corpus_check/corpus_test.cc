// The corpus runner (ctest label "corpus"): for every program under
// tests/corpus/{bugs,correct} and examples/, run `gordian test --json`
// (test packages) or `gordian run --json` (main packages) in its module, and
// compare the findings with the program's `// want:` annotations by the
// rules of docs/corpus.md (wants.h). One test per program; running the
// binary directly prints a table of every program and a summary.
//
// GORDIAN_CORPUS_GO_RELEASE=23 runs the programs under another supported
// Go release (src/gordian/instrument/go_release.h): its tested patch
// release, which the go command fetches through GOTOOLCHAIN, on a copy of
// the corpus module whose go.mod says `go 1.23` (the release tests,
// tests/corpus_check/CMakeLists.txt).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/instrument/go_release.h"
#include "gordian/report/json.h"
#include "gordian/rewrite/rewrite.h"
#include "wants.h"

namespace gordian::corpus {
namespace {

namespace fs = std::filesystem;

std::string SourceDir() {
  if (const char* d = std::getenv("GORDIAN_SOURCE_DIR"); d != nullptr && *d) return d;
  return GORDIAN_SOURCE_DIR_DEFAULT;
}
std::string BinaryDir() {
  if (const char* d = std::getenv("GORDIAN_BINARY_DIR"); d != nullptr && *d) return d;
  return GORDIAN_BINARY_DIR_DEFAULT;
}

// The Go release the programs run under (GORDIAN_CORPUS_GO_RELEASE): 0 for
// the installed Go; else the release and the copy of tests/corpus that
// declares it, made on first use and removed at exit.
struct GoReleaseRun {
  int minor = 0;
  std::string module_copy;
};
const GoReleaseRun& ReleaseRun() {
  static const GoReleaseRun run = [] {
    GoReleaseRun r;
    const char* v = std::getenv("GORDIAN_CORPUS_GO_RELEASE");
    if (v == nullptr || *v == 0) return r;
    r.minor = std::atoi(v);
    const instrument::GoRelease* rel = instrument::FindGoRelease(r.minor);
    if (rel == nullptr) {
      std::fprintf(stderr, "GORDIAN_CORPUS_GO_RELEASE=%s: not a supported release (%s)\n", v,
                   instrument::SupportedGoReleasesText().c_str());
      std::exit(2);
    }
    setenv("GOTOOLCHAIN", std::string(rel->tested).c_str(), 1);
    fs::path copy = fs::temp_directory_path() /
                    fmt::format("gordian-corpus-go1.{}-{}", r.minor, getpid());
    fs::remove_all(copy);
    fs::create_directories(copy);
    for (const char* sub : {"bugs", "correct"}) {
      fs::copy(fs::path(SourceDir()) / "tests/corpus" / sub, copy / sub,
               fs::copy_options::recursive);
    }
    std::ofstream(copy / "go.mod") << fmt::format("module gordian.test/corpus\n\ngo 1.{}\n",
                                                  r.minor);
    r.module_copy = copy.string();
    // The go command in the copy must be the release asked for (a go.mod
    // or GOTOOLCHAIN that it did not honour would test the wrong one).
    // Its last line: on a fresh machine the go command first says that it
    // is downloading the toolchain ("go: downloading go1.23.12 ...").
    std::string said, version;
    if (FILE* p = popen(("cd '" + r.module_copy + "' && go env GOVERSION 2>&1").c_str(), "r")) {
      char buf[512];
      while (std::fgets(buf, sizeof buf, p) != nullptr) said += buf;
      pclose(p);
    }
    while (!said.empty() && said.back() == '\n') said.pop_back();
    version = said.substr(said.rfind('\n') == std::string::npos ? 0 : said.rfind('\n') + 1);
    if (version != rel->tested) {
      std::fprintf(stderr, "GOTOOLCHAIN=%s: go env GOVERSION in %s says '%s'\n",
                   std::string(rel->tested).c_str(), r.module_copy.c_str(), said.c_str());
      std::exit(2);
    }
    std::printf("corpus: Go release 1.%d (GOTOOLCHAIN=%s), module copy %s\n", r.minor,
                std::string(rel->tested).c_str(), r.module_copy.c_str());
    return r;
  }();
  return run;
}

struct Program {
  std::string name;        // "bugs/batcher_flush_after_close", "examples/cache"
  std::string module_dir;  // absolute: tests/corpus or examples
  std::string rel;         // "./bugs/batcher_flush_after_close"
  std::string dir;         // absolute program directory
  bool correct = false;
};

// gtest prints a parameter with this (instead of its bytes).
void PrintTo(const Program& p, std::ostream* os) { *os << p.name; }

std::vector<Program> ListPrograms() {
  std::vector<Program> out;
  auto add = [&](const fs::path& module, const std::string& prefix, const std::string& sub,
                 bool correct) {
    std::error_code ec;
    fs::path base = sub.empty() ? module : module / sub;
    if (!fs::is_directory(base, ec)) return;
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(base, ec)) {
      if (!e.is_directory()) continue;
      bool has_go = false;
      for (const auto& f : fs::directory_iterator(e.path(), ec)) {
        has_go |= f.path().extension() == ".go";
      }
      if (has_go) dirs.push_back(e.path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const fs::path& d : dirs) {
      std::string leaf = d.filename().string();
      if (leaf == "plaincheck") continue;
      Program p;
      p.name = prefix + (sub.empty() ? "" : sub + "/") + leaf;
      p.module_dir = module.string();
      p.rel = "./" + (sub.empty() ? "" : sub + "/") + leaf;
      p.dir = d.string();
      p.correct = correct;
      out.push_back(p);
    }
  };
  fs::path src = SourceDir();
  add(src / "tests/corpus", "", "bugs", false);
  add(src / "tests/corpus", "", "correct", true);
  add(src / "examples", "examples/", "", false);
  return out;
}

// Runs argv in cwd with stdout+stderr to out_file; kills the process group
// after timeout. Returns the exit status, or -1 when killed or not started.
int RunCommand(const std::vector<std::string>& argv, const std::string& cwd, const std::string& out_file,
        int timeout_s, bool* timed_out) {
  *timed_out = false;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    setpgid(0, 0);
    int fd = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    if (chdir(cwd.c_str()) != 0) _exit(127);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int status = 0;
  while (true) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      *timed_out = true;
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Tail(const std::string& s, size_t lines) {
  size_t pos = s.size();
  for (size_t n = 0; n <= lines && pos != std::string::npos && pos > 0; n++) {
    pos = s.rfind('\n', pos - 1);
  }
  return pos == std::string::npos ? s : s.substr(pos + 1);
}

// tests/corpus/known-gaps.txt: "<program> <file>:<line> <kind> <reason>" per
// line. A listed want that is missed is a known gap, not a failure; a listed
// want that is met fails the test, so the list is kept honest.
struct KnownGap {
  std::string program, where, kind, reason;
};
const std::vector<KnownGap>& KnownGaps() {
  static const std::vector<KnownGap> gaps = [] {
    std::vector<KnownGap> out;
    std::istringstream in(ReadFile(SourceDir() + "/tests/corpus/known-gaps.txt"));
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream ls(line);
      KnownGap g;
      ls >> g.program >> g.where >> g.kind;
      std::getline(ls, g.reason);
      if (!g.kind.empty()) out.push_back(g);
    }
    return out;
  }();
  return gaps;
}
const KnownGap* FindGap(const std::string& program, const Want& w) {
  std::string where = fmt::format("{}:{}", w.file, w.line);
  for (const KnownGap& g : KnownGaps()) {
    if (g.program == program && g.where == where && g.kind == report::KindName(w.kind)) return &g;
  }
  return nullptr;
}

struct Row {
  std::string name;
  size_t wants = 0, matched = 0, missed = 0, unexpected = 0, known_gaps = 0;
  std::string result;  // "ok", "FAIL", "ERROR"
};
std::vector<Row>& Rows() {
  static std::vector<Row> rows;
  return rows;
}

// Under another Go release, builds that release's instrumented std once
// before the first program (by recording one main and one test program),
// so that no program's -wall includes it: on a fresh GOCACHE it takes
// tens of seconds. Returns "" or what went wrong.
const std::string& WarmUpRelease() {
  static const std::string problem = [] {
    std::string out;
    auto start = std::chrono::steady_clock::now();
    const std::string gordian = BinaryDir() + "/bin/gordian";
    const std::string dir = ReleaseRun().module_copy;
    for (const auto& [mode, pkg] : {std::pair{"run", "./bugs/logger_zero_value_close"},
                                    std::pair{"test", "./bugs/bank_transfer_lock_order"}}) {
      bool timed_out = false;
      const std::string log = dir + "/warm-up-" + mode + ".txt";
      int status = RunCommand({gordian, "record", "-quiet", "-o", dir + "/warm-up-" + mode,
                               mode, pkg},
                              dir, log, 600, &timed_out);
      if (status != 0) {
        out += fmt::format("gordian record {} {} ended with {}:\n{}\n", mode, pkg,
                           timed_out ? "a timeout" : fmt::format("status {}", status),
                           Tail(ReadFile(log), 20));
      }
    }
    std::printf("corpus: Go release 1.%d: instrumented std built in %.1f s\n",
                ReleaseRun().minor,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return out;
  }();
  return problem;
}

class CorpusProgram : public ::testing::TestWithParam<Program> {};

TEST_P(CorpusProgram, FindingsMatchWants) {
  Program p = GetParam();
  if (!ReleaseRun().module_copy.empty()) {
    ASSERT_EQ(p.module_dir, SourceDir() + "/tests/corpus")
        << p.name << ": only tests/corpus programs run under another Go release";
    p.module_dir = ReleaseRun().module_copy;
    p.dir = p.module_dir + "/" + p.rel.substr(2);
    ASSERT_EQ(WarmUpRelease(), "") << "recording under Go 1." << ReleaseRun().minor << " failed";
  }
  std::vector<Want> wants;
  std::vector<std::string> problems;
  bool is_main = false;
  for (const auto& e : fs::directory_iterator(p.dir)) {
    if (e.path().extension() != ".go") continue;
    std::string text = ReadFile(e.path().string());
    ParseWants(e.path().filename().string(), text, &wants, &problems);
    if (!e.path().filename().string().ends_with("_test.go") &&
        text.find("\npackage main\n") != std::string::npos) {
      is_main = true;
    }
  }
  Row row;
  row.name = p.name;
  row.wants = std::count_if(wants.begin(), wants.end(), [](const Want& w) { return !w.absent; });
  for (const std::string& pr : problems) ADD_FAILURE() << p.name << ": " << pr;

  std::string gordian = BinaryDir() + "/bin/gordian";
  std::string tmp = (fs::temp_directory_path() /
                     fmt::format("gordian-corpus-{}-{}", getpid(),
                                 std::hash<std::string>()(p.name)))
                        .string();
  fs::create_directories(tmp);
  std::string json = tmp + "/findings.json", log = tmp + "/output.txt";
  // --wall: a program that hangs is killed after 60 s and its trace analysed
  // (the runner's own limit, 300 s, is only a safety net).
  std::vector<std::string> argv = {gordian, is_main ? "run" : "test", "--quiet", "--wall", "60s",
                                   "--json", json, p.rel};
  bool timed_out = false;
  int status = RunCommand(argv, p.module_dir, log, 300, &timed_out);
  std::string output = ReadFile(log);
  std::vector<report::Finding> findings;
  std::string err;
  if (timed_out || status < 0 || status > 1 || !report::FromJson(ReadFile(json), &findings, &err)) {
    row.result = "ERROR";
    row.missed = wants.size();
    Rows().push_back(row);
    fs::remove_all(tmp);
    FAIL() << fmt::format("{}: gordian {} {} ended with {}{}\n{}", p.name, argv[1], p.rel,
                          timed_out ? "a timeout" : fmt::format("status {}", status),
                          err.empty() ? "" : " (" + err + ")", Tail(output, 30));
  }
  fs::remove_all(tmp);

  // gordian confirms by replay (on by default): every predicted want of a
  // kind it rewrites must come out confirmed, not merely predicted.
  CheckResult r = Check(p.dir, wants, findings, rewrite::Rewritable);
  for (const Want& w : r.matched) {
    if (const KnownGap* g = FindGap(p.name, w)) {
      ADD_FAILURE() << p.name << ": want " << w.String()
                    << " is met now: remove it from tests/corpus/known-gaps.txt (" << g->reason << ")";
    }
  }
  std::vector<Want> missed;
  for (const Want& w : r.missed) {
    if (const KnownGap* g = FindGap(p.name, w)) {
      std::printf("%s: known gap: %s:%s\n", p.name.c_str(), w.String().c_str(), g->reason.c_str());
      row.known_gaps++;
    } else {
      missed.push_back(w);
    }
  }
  r.missed = std::move(missed);
  row.matched = r.matched.size();
  row.missed = r.missed.size();
  row.unexpected = r.unexpected.size();
  bool bugs_reported = false;
  for (const auto& f : findings) bugs_reported |= report::CountsAsBug(f);
  bool exit_ok = status == (bugs_reported ? 1 : 0);
  row.result = r.ok() && exit_ok ? "ok" : "FAIL";
  Rows().push_back(row);
  // A correct program has no bug to confirm: a confirmed finding of any
  // severity there means a replay produced something the program cannot do.
  if (p.correct) {
    for (const auto& f : findings) {
      EXPECT_NE(f.status, report::Status::Confirmed)
          << p.name << ": confirmed finding on a correct program: " << DescribeFinding(f);
    }
  }
  for (const Want& w : r.missed) ADD_FAILURE() << p.name << ": missed want " << w.String();
  for (const std::string& u : r.unexpected) ADD_FAILURE() << p.name << ": unexpected " << u;
  EXPECT_TRUE(exit_ok) << p.name << ": exit status " << status << " but "
                       << (bugs_reported ? "bugs were" : "no bug was") << " reported";
  if (!r.ok()) {
    std::string all;
    for (const auto& f : findings) all += "  " + DescribeFinding(f) + "\n";
    ADD_FAILURE() << p.name << ": all findings:\n" << all;
  }
}

std::string TestName(const ::testing::TestParamInfo<Program>& info) {
  std::string n;
  for (char c : info.param.name) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusProgram, ::testing::ValuesIn(ListPrograms()), TestName);

// Prints the table of every program run in this process.
class TableEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    if (!ReleaseRun().module_copy.empty()) {
      std::error_code ec;
      fs::remove_all(ReleaseRun().module_copy, ec);
    }
    if (Rows().empty()) return;
    size_t w = 7;
    for (const Row& r : Rows()) w = std::max(w, r.name.size());
    fmt::print("\n{:<{}}  {:>5}  {:>7}  {:>6}  {:>9}  {:>10}  {}\n", "program", w, "wants",
               "matched", "missed", "known-gap", "unexpected", "result");
    size_t wants = 0, matched = 0, missed = 0, unexpected = 0, ok = 0, gaps = 0;
    for (const Row& r : Rows()) {
      fmt::print("{:<{}}  {:>5}  {:>7}  {:>6}  {:>9}  {:>10}  {}\n", r.name, w, r.wants,
                 r.matched, r.missed, r.known_gaps, r.unexpected, r.result);
      gaps += r.known_gaps;
      wants += r.wants;
      matched += r.matched;
      missed += r.missed;
      unexpected += r.unexpected;
      ok += r.result == "ok";
    }
    fmt::print("\ncorpus: {}/{} programs ok; wants {} matched {} missed {} known gaps {} "
               "(tests/corpus/known-gaps.txt); unexpected bug findings {}\n",
               ok, Rows().size(), wants, matched, missed, gaps, unexpected);
  }
};
const auto* const kTable = ::testing::AddGlobalTestEnvironment(new TableEnvironment);

}  // namespace
}  // namespace gordian::corpus
