// End-to-end test of `gordian verify -confirm` (docs/verify.md
// "Confirmation") on programs of the verify corpus that have a test: each
// finding's counterexample is replayed on the program's test and must come
// out confirmed with a reproduce command; for two of them the reproduce
// command is run 20 times and must show the bug every time. A program
// without a test keeps its findings predicted. bench/verify-confirm runs
// all the corpus programs with tests and the 20x loop on each (the CI time
// is kept for the few here). Needs the go command (label "go").
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "verify_e2e.h"
#include "gordian/driver/process.h"
#include "gordian/report/json.h"

namespace gordian {
namespace {

namespace fs = std::filesystem;

// Concurrency bugs (they depend on the order; the recorded run need not
// show them) and deterministic ones, each with a test of its own.
const std::vector<std::string> kPrograms = {
    "bugs/await_lost_signal",         // goroutine-leak (cond): Signal before Wait
    "bugs/broker_once_bypassed",      // close-of-closed: two goroutines close
    "bugs/transfer_lock_order",       // lock-order-deadlock
    "bugs/emit_defer_close_before_wait",  // send-on-closed
    "bugs/tracker_done_twice_field",  // negative-waitgroup
    // Leaks through time: the counterexample has a timer fire, a context
    // deadline pass or a cancel come before the answer, which the test's
    // run never shows.
    "bugs/lookup_after_deadline_leak",  // time.After, longer than the stall time
    "bugs/lookup_context_timeout_leak",  // context.WithTimeout
    "bugs/fetch_cancel_strands_sender",  // cancel from another goroutine
};

std::vector<report::Finding> Verify(const std::vector<std::string>& args, const fs::path& tmp, std::string* out) {
  const fs::path root = fs::path(e2e::SourceDir()) / "tests/corpus/verify";
  std::vector<std::string> all = {"-confirm", "--verbose", "--json", (tmp / "findings.json").string()};
  all.insert(all.end(), args.begin(), args.end());
  driver::ProcessResult r;
  std::string err;
  EXPECT_TRUE(e2e::RunVerify(all, root, tmp, &r, &err)) << err;
  *out = r.out + r.err;
  EXPECT_EQ(r.exit_code, 1) << *out;
  std::vector<report::Finding> findings;
  EXPECT_TRUE(report::FromJson(e2e::Slurp(tmp / "findings.json"), &findings, &err)) << err << "\n" << *out;
  return findings;
}

TEST(VerifyConfirm, CounterexamplesReplayOnTheTests) {
  const fs::path tmp = fs::temp_directory_path() / ("gordian-verify-confirm-" + std::to_string(getpid()));
  fs::create_directories(tmp);
  std::vector<std::string> pkgs;
  for (const std::string& p : kPrograms) pkgs.push_back("./" + p);
  pkgs.push_back("./bugs/pair_unbuffered_self_send");  // no test
  std::string out;
  std::vector<report::Finding> findings = Verify(pkgs, tmp, &out);
  std::map<std::string, std::string> reproduce;  // program -> a reproduce command
  std::map<std::string, std::string> site;       // program -> "file.go:line" of that finding
  for (const std::string& p : kPrograms) {
    bool confirmed = false;
    for (const report::Finding& f : findings) {
      if (f.locations.empty() || !f.locations[0].file.starts_with(p + "/")) continue;
      if (f.status == report::Status::Confirmed) {
        confirmed = true;
        EXPECT_FALSE(f.reproduce.empty()) << p;
        reproduce[p] = f.reproduce;
        site[p] = fmt::format("{}:{}", fs::path(f.locations[0].file).filename().string(), f.locations[0].line);
      }
    }
    EXPECT_TRUE(confirmed) << p << ": no confirmed finding\n" << out;
  }
  for (const report::Finding& f : findings) {
    if (!f.locations.empty() && f.locations[0].file.starts_with("bugs/pair_unbuffered_self_send/")) {
      EXPECT_EQ(f.status, report::Status::Predicted) << "no test reaches Pair: it stays predicted";
      EXPECT_TRUE(f.reproduce.empty());
    }
  }
  // The reproduce command shows the bug 20 times out of 20 (four programs
  // here; bench/verify-confirm does every one).
  for (const std::string p : {"bugs/await_lost_signal", "bugs/broker_once_bypassed",
                              "bugs/lookup_after_deadline_leak", "bugs/fetch_cancel_strands_sender"}) {
    ASSERT_TRUE(reproduce.count(p)) << p;
    for (int i = 0; i < 20; i++) {
      driver::ProcessSpec spec;
      spec.argv = {"/bin/sh", "-c", reproduce[p] + " -quiet-program"};
      spec.pass_through = false;
      spec.timeout_seconds = 120;
      // A replay runs only code of the module it is started in.
      spec.cwd = (fs::path(e2e::SourceDir()) / "tests/corpus/verify").string();
      spec.set_env["GORDIAN_CACHE"] = (fs::path(e2e::Env("GORDIAN_BINARY_DIR")).empty()
                                           ? tmp / "cache"
                                           : fs::path(e2e::Env("GORDIAN_BINARY_DIR")) / "ir-e2e-cache")
                                          .string();
      driver::ProcessResult r;
      std::string err;
      ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
      EXPECT_EQ(r.exit_code, 1) << p << " run " << i << ": " << r.err;
      // The bug at the finding's location, not just any bug.
      EXPECT_NE(r.err.find("hit"), std::string::npos) << p << " run " << i << ": " << r.err;
      EXPECT_NE(r.err.find(site[p]), std::string::npos) << p << " run " << i << ": " << r.err;
    }
  }
  fs::remove_all(tmp);
}

// A test that does not build: a clear error, the findings stay predicted,
// never confirmed.
TEST(VerifyConfirm, TestThatDoesNotBuildIsAnError) {
  const fs::path tmp = fs::temp_directory_path() / ("gordian-verify-confirm-bad-" + std::to_string(getpid()));
  const fs::path mod = tmp / "mod";
  fs::create_directories(mod / "p");
  auto write = [](const fs::path& f, const std::string& s) {
    FILE* fp = fopen(f.c_str(), "w");
    ASSERT_NE(fp, nullptr);
    fputs(s.c_str(), fp);
    fclose(fp);
  };
  write(mod / "go.mod", "module example.com/bad\n\ngo 1.26\n");
  write(mod / "p/p.go",
        "package p\n\nfunc Leak() {\n\tch := make(chan int)\n\tgo func() { ch <- 1 }()\n}\n");
  // Type-checks for the IR (a build constraint hides the bad file from it)
  // but the test binary does not build: the linker needs missing().
  write(mod / "p/p_test.go",
        "package p\n\nimport \"testing\"\n\nfunc missing()\n\nfunc TestLeak(t *testing.T) {\n\tLeak()\n\tmissing()\n}\n");
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(e2e::RunVerify({"-confirm", "--json", (tmp / "f.json").string(), "./..."}, mod, tmp, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("does not build"), std::string::npos) << r.err;
  std::vector<report::Finding> findings;
  if (report::FromJson(e2e::Slurp(tmp / "f.json"), &findings, &err)) {
    for (const report::Finding& f : findings) EXPECT_NE(f.status, report::Status::Confirmed);
  }
  fs::remove_all(tmp);
}

// The confirmation's time runs out before the first finding: it stays a
// warning (predicted, "not tried"), nothing runs, and only confirmed bugs
// set the exit status, so it is 0.
TEST(VerifyConfirm, FindingsLeftWhenTheTimeRunsOutStayWarnings) {
  const fs::path tmp = fs::temp_directory_path() / ("gordian-verify-confirm-time-" + std::to_string(getpid()));
  fs::create_directories(tmp);
  const fs::path root = fs::path(e2e::SourceDir()) / "tests/corpus/verify";
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(e2e::RunVerify({"-confirm-time", "1ns", "--json", (tmp / "f.json").string(), "./bugs/await_lost_signal"},
                             root, tmp, &r, &err))
      << err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("not tried (-confirm-time ran out)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("recording"), std::string::npos) << "nothing may run: " << r.err;
  std::vector<report::Finding> findings;
  ASSERT_TRUE(report::FromJson(e2e::Slurp(tmp / "f.json"), &findings, &err)) << err;
  ASSERT_FALSE(findings.empty()) << r.err;
  for (const report::Finding& f : findings) {
    EXPECT_EQ(f.status, report::Status::Predicted);
    EXPECT_EQ(f.severity, report::Severity::Warning);
    EXPECT_NE(f.note.find("-confirm-time"), std::string::npos) << f.note;
  }
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace gordian
