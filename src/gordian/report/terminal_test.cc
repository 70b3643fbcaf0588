// Tests of the terminal report: the key lines a developer reads, not a
// frozen blob.
#include "gordian/report/terminal.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "gordian/report/report_test_util.h"

namespace gordian::report {
namespace {

namespace fs = std::filesystem;

bool Has(const std::string& out, const std::string& s) { return out.find(s) != std::string::npos; }

class TerminalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt_dir();
    fs::create_directories(dir_);
    std::ofstream(dir_ / "hub.go") << "package hub\n\n"  // 1-2
                                   << "// 3\n// 4\n// 5\n// 6\n// 7\n// 8\n// 9\n"
                                   << "func (h *Hub) loop() {\n"             // 10
                                   << "\tfor msg := range h.in {\n"          // 11
                                   << "\t\th.out <- msg\n"                   // 12
                                   << "\t}\n"                                // 13
                                   << "}\n"                                  // 14
                                   << "// 15\n// 16\n// 17\n// 18\n// 19\n"
                                   << "\tclose(h.out)\n";                    // 20
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string fmt_dir() { return "gordian_terminal_test_" + std::to_string(getpid()); }

  Finding WithDisk(Finding f) {
    for (Location& l : f.locations) l.path = (dir_ / "hub.go").string();
    return f;
  }
  // Options whose source root is the test's directory (excerpts are read
  // only from there).
  TerminalOptions Opts() const {
    TerminalOptions o;
    o.source_root = dir_.string();
    return o;
  }
  fs::path dir_;
};

TEST_F(TerminalTest, FindingHasHeadlineExcerptGoroutinesInterleaving) {
  Finding f = WithDisk(testing::SendOnClosed());
  f.reproduce = "gordian replay .gordian/traces/x";
  std::string out = RenderTerminal({f}, Opts());
  EXPECT_TRUE(Has(out, "bug: send on closed channel (occurred) in TestPublish\n")) << out;
  EXPECT_TRUE(Has(out, f.message)) << out;
  EXPECT_TRUE(Has(out, "pkg/hub.go:12:3: send (goroutine 1.0)")) << out;
  // The line is marked, with context around it (tabs expanded).
  EXPECT_TRUE(Has(out, "  > 12 |         h.out <- msg\n")) << out;
  EXPECT_TRUE(Has(out, "    11 |     for msg := range h.in {")) << out;
  EXPECT_TRUE(Has(out, "pkg/hub.go:20:2: close (goroutine 1)")) << out;
  EXPECT_TRUE(Has(out, "> 20 |     close(h.out)")) << out;
  // Goroutines with stable ids and spawn sites.
  EXPECT_TRUE(Has(out, "goroutines:")) << out;
  EXPECT_TRUE(Has(out, "1.0  spawned at pkg/hub.go:9, runs example.com/pkg.(*Hub).loop")) << out;
  EXPECT_TRUE(Has(out, "1    the main goroutine")) << out;
  // Interleaving in stamp order.
  size_t a = out.find("1. goroutine 1 "), b = out.find("2. goroutine 1.0");
  ASSERT_NE(a, std::string::npos) << out;
  ASSERT_NE(b, std::string::npos) << out;
  EXPECT_LT(a, b);
  EXPECT_TRUE(Has(out, "reproduce: gordian replay .gordian/traces/x")) << out;
  EXPECT_TRUE(Has(out, "\n1 bug, 0 warnings\n")) << out;
  EXPECT_FALSE(Has(out, "\x1b[")) << "no color unless asked";
}

TEST_F(TerminalTest, GoroutinesListOnlyThoseTheFindingMentions) {
  Finding f = WithDisk(testing::SendOnClosed());
  // Dedup merged the goroutines of 40 other occurrences into this finding.
  for (int i = 0; i < 40; i++) {
    f.goroutines.push_back({fmt::format("1.{}", 100 + i), "pkg/hub.go", 9, "worker", ""});
  }
  std::string out = RenderTerminal({f}, Opts());
  EXPECT_TRUE(Has(out, "1.0  spawned at pkg/hub.go:9")) << out;
  EXPECT_FALSE(Has(out, "1.100")) << out;
  EXPECT_FALSE(Has(out, "1.139")) << out;
}

// A crafted trace names /etc/passwd (or any file) as a site, and puts escape
// sequences in names and messages: no excerpt outside the module reported
// on, and no control character reaches the terminal.
TEST_F(TerminalTest, CraftedSitesShowNoForeignFileAndNoEscapes) {
  Finding f = WithDisk(testing::SendOnClosed());
  f.locations[0].path = "/etc/passwd";
  f.locations[0].file = "/etc/passwd";
  f.message = "evil \x1b[2J\x1b]0;title\x07 message \xc2\x9b" "31m";
  f.locations[1].function = "fn\x1b[31m";
  f.interleaving[0].what = "close\r\x1b[1A";
  std::string out = RenderTerminal({f}, Opts());
  EXPECT_FALSE(Has(out, "root:")) << out;
  EXPECT_TRUE(Has(out, "(source not shown: outside the module reported on)")) << out;
  for (const char* control : {"\x1b", "\x07", "\r", "\xc2\x9b"}) {
    EXPECT_FALSE(Has(out, control)) << ::testing::PrintToString(control) << " in " << out;
  }
  // A lone C1 byte (CSI on a terminal with 8-bit controls) and other bytes
  // that are not UTF-8 are escaped; valid UTF-8 is kept.
  f.message = "lone \x9b" "2J, cut \xe2\x82, fine \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
  out = RenderTerminal({f}, Opts());
  EXPECT_FALSE(Has(out, "\x9b" "2J")) << out;
  EXPECT_TRUE(Has(out, "lone \\x9b2J, cut \\xe2\\x82, fine \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"))
      << out;
  f.message = "evil \x1b[2J\x1b]0;title\x07 message \xc2\x9b" "31m";
  out = RenderTerminal({f}, Opts());
  EXPECT_TRUE(Has(out, "evil \\x1b[2J")) << out;
  // The file inside the module is still shown, and a symlink inside the
  // module that points outside it is not followed.
  EXPECT_TRUE(Has(out, "> 20 |     close(h.out)")) << out;
  fs::create_symlink("/etc/passwd", dir_ / "link.go");
  f.locations[0].path = (dir_ / "link.go").string();
  out = RenderTerminal({f}, Opts());
  EXPECT_FALSE(Has(out, "root:")) << out;
}

TEST_F(TerminalTest, MissingSourceIsSaid) {
  std::string gone = (dir_ / "gone").string() + "/";
  Finding f = testing::SendOnClosed(gone);
  std::string out = RenderFinding(f, Opts());
  EXPECT_TRUE(Has(out, "(source not available: " + gone + "hub.go cannot be read)")) << out;
}

TEST_F(TerminalTest, DegradedAnalysisIsSaidBeforeTheSummary) {
  TerminalOptions o;
  o.degraded = {"pkg: no room for the second engine"};
  std::string out = RenderTerminal({WithDisk(testing::SendOnClosed())}, o);
  size_t note = out.find("note: analysis degraded: pkg: no room for the second engine\n");
  ASSERT_NE(note, std::string::npos) << out;
  EXPECT_LT(note, out.find("1 bug, 0 warnings")) << out;
  EXPECT_FALSE(Has(RenderTerminal({}, TerminalOptions{}), "degraded"));
}

TEST_F(TerminalTest, SummaryCountsAndHidesInfo) {
  Finding bug = WithDisk(testing::SendOnClosed());
  Finding warn = bug;
  warn.kind = FindingKind::RecvOnClosed;
  warn.severity = Severity::Warning;
  Finding info = bug;
  info.kind = FindingKind::AlternativePartner;
  info.severity = Severity::Info;
  Finding unconf = bug;
  unconf.status = Status::Unconfirmed;
  std::string out = RenderTerminal({bug, bug, warn, info, unconf}, TerminalOptions{});
  EXPECT_TRUE(Has(out, "2 bugs, 1 warning, 1 unconfirmed (refuted by replay, not shown; "
                       "-unconfirmed shows them), 1 info (not shown; --info shows them)"))
      << out;
  EXPECT_FALSE(Has(out, "alternative communication partner")) << out;
  TerminalOptions with_info;
  with_info.show_info = true;
  EXPECT_TRUE(Has(RenderTerminal({info}, with_info), "info: alternative communication partner"));
  EXPECT_TRUE(Has(RenderTerminal({}, TerminalOptions{}), "0 bugs, 0 warnings\n"));
}

TEST_F(TerminalTest, RefutedPredictionsAreHiddenUnlessAsked) {
  Finding unconf = WithDisk(testing::SendOnClosed());
  unconf.status = Status::Unconfirmed;
  std::string hidden = RenderTerminal({unconf}, TerminalOptions{});
  EXPECT_FALSE(Has(hidden, "(unconfirmed)")) << hidden;
  EXPECT_TRUE(Has(hidden, "0 bugs, 0 warnings, 1 unconfirmed")) << hidden;
  // A refuted warning (a verify panic finding) is hidden too, and so not
  // counted as a warning.
  Finding unconf_warning = unconf;
  unconf_warning.severity = Severity::Warning;
  std::string hidden2 = RenderTerminal({unconf_warning}, TerminalOptions{});
  EXPECT_FALSE(Has(hidden2, "warning: ")) << hidden2;
  EXPECT_TRUE(Has(hidden2, "0 bugs, 0 warnings, 1 unconfirmed")) << hidden2;
  TerminalOptions shown;
  shown.show_unconfirmed = true;
  std::string out = RenderTerminal({unconf}, shown);
  EXPECT_TRUE(Has(out, "bug: send on closed channel (unconfirmed)")) << out;
  EXPECT_TRUE(Has(out, "0 bugs, 0 warnings, 1 unconfirmed\n")) << out;
}

TEST_F(TerminalTest, SummaryLeadsWithTheTestVerdict) {
  Verdict v;
  v.packages = {{"example.com/a", false, "exited with status 1"}, {"example.com/b", true, ""}};
  v.tests = {{"example.com/a", "TestOK", TestResult::Pass},
             {"example.com/a", "TestBad", TestResult::Fail},
             {"example.com/a", "TestBad/sub", TestResult::Fail},
             {"example.com/b", "TestFine", TestResult::Pass}};
  TerminalOptions opt;
  opt.verdict = &v;
  std::string out = RenderTerminal({}, opt);
  EXPECT_TRUE(Has(out, "FAIL: 1 of 3 tests failed (example.com/a.TestBad); 0 bugs, 0 warnings\n"))
      << out;
  v.tests[1].result = TestResult::Pass;
  v.tests[2].result = TestResult::Pass;
  out = RenderTerminal({}, opt);
  // The binary failed without a failing test (os.Exit in a goroutine).
  EXPECT_TRUE(Has(out, "FAIL: 1 test binary failed (example.com/a: exited with status 1)")) << out;
  v.packages[0].ok = true;
  out = RenderTerminal({}, opt);
  EXPECT_EQ(out, "3 tests passed; 0 bugs, 0 warnings\n");
  v.tests.push_back({"example.com/b", "TestHang", TestResult::Unfinished});
  out = RenderTerminal({}, opt);
  EXPECT_TRUE(Has(out, "FAIL: 1 of 4 tests failed (example.com/b.TestHang (did not finish))"))
      << out;
}

TEST_F(TerminalTest, LeakHeadlineNamesPrimitiveAndColorIsOptional) {
  Finding f = testing::Leak("a.go", 3, "1.0", Primitive::ChanSend);
  TerminalOptions opt;
  opt.color = true;
  std::string out = RenderFinding(f, opt);
  EXPECT_TRUE(Has(out, "goroutine leak")) << out;
  EXPECT_TRUE(Has(out, "[chan-send] in TestLeak")) << out;
  EXPECT_TRUE(Has(out, "\x1b[1;31mbug\x1b[0m")) << out;
}

}  // namespace
}  // namespace gordian::report
