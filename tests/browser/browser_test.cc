// The HTML report in a real browser: `gordian test -html` over a few corpus
// programs (one report), loaded in headless Chromium. Checks the DOM the
// page's script drew: every finding of the JSON report has its section with
// its message, its timeline has one lane per goroutine of its interleaving
// and one mark per step, send->receive and close arrows and lock-held bars
// are drawn, the program's markup and script (notes_markup_in_source) are
// text and ran nothing, and no script error was reported. The same for
// `gordian verify -html` over three verify-corpus programs. Takes one
// screenshot per finding kind of each report (the page filtered to that
// kind); with GORDIAN_SCREENSHOT_DIR set, they are also copied there
// (docs/ keeps them).
// `gordian analyze --html` on the kept traces draws each whole run on a
// canvas.
//
// Needs the go command, the gordian binary and chromium (label "browser").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../e2e_env.h"
#include "gordian/driver/process.h"

namespace gordian {
namespace {

namespace fs = std::filesystem;

using e2e::Gordian;
using e2e::SourceDir;

// Corpus programs whose findings cover the timeline's drawings: a close
// arrow (send-on-closed, in the escaping fixture), lock-held bars (a
// lock-order deadlock), a send->receive arrow (a leak whose receive got an
// earlier value of the blocked sender).
const char* kPrograms[] = {
    "./bugs/notes_markup_in_source",
    "./bugs/bank_transfer_lock_order",
    "./bugs/stream_take_first_leak",
};

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) n++;
  return n;
}

// Text as the DOM serialiser writes a text node.
std::string AsDomText(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

class BrowserTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new fs::path(fs::temp_directory_path() / ("gordian-browser-" + std::to_string(getpid())));
    fs::create_directories(*tmp_);
    driver::ProcessSpec spec;
    spec.argv = {Gordian(), "test", "--quiet", "--json", (*tmp_ / "report.json").string(),
                 "--html", (*tmp_ / "report.html").string(), "--keep",
                 (*tmp_ / "traces").string()};
    for (const char* p : kPrograms) spec.argv.push_back(p);
    spec.cwd = SourceDir() + "/tests/corpus";
    spec.pass_through = false;
    spec.timeout_seconds = 240;
    spec.set_env["GORDIAN_RUNTIME_DIR"] = SourceDir() + "/runtime/std";
    driver::ProcessResult r;
    std::string err;
    ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
    ASSERT_EQ(r.exit_code, 1) << r.Describe() << "\n" << r.err;
    report_ = new nlohmann::json(nlohmann::json::parse(ReadFile(*tmp_ / "report.json")));
    dom_ = new std::string(Chromium({"--dump-dom", Url()}));
  }
  static void TearDownTestSuite() {
    fs::remove_all(*tmp_);
    delete tmp_;
    delete report_;
    delete dom_;
  }

  void SetUp() override {
    if (report_ == nullptr || dom_ == nullptr) GTEST_FAIL() << "the suite's set-up failed (above)";
  }

  static std::string Url(const std::string& hash = "") {
    return "file://" + (*tmp_ / "report.html").string() + hash;
  }

  // Runs headless chromium with args on a fresh profile; its stdout.
  static std::string Chromium(std::vector<std::string> args) {
    driver::ProcessSpec spec;
    spec.argv = {"chromium", "--headless", "--no-sandbox", "--disable-gpu",
                 "--no-first-run", "--disable-extensions", "--hide-scrollbars",
                 "--enable-logging=stderr", "--v=0",
                 "--user-data-dir=" + (*tmp_ / "profile").string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.pass_through = false;
    spec.timeout_seconds = 60;
    driver::ProcessResult r;
    std::string err;
    bool ran = driver::RunProcess(spec, &r, &err);
    EXPECT_TRUE(ran) << err << " (scripts/install-deps installs Debian's chromium)";
    EXPECT_TRUE(r.Succeeded()) << r.Describe() << "\n" << r.err;
    // A script error that escaped the page's own handler.
    EXPECT_EQ(r.err.find("Uncaught"), std::string::npos) << r.err;
    return r.out;
  }

  // The page's data blob, parsed (the steps of each finding).
  static nlohmann::json PageData(const std::string& name = "report.html") {
    std::string page = ReadFile(*tmp_ / name);
    const std::string open = "<script type=\"application/json\" id=\"gordian-data\">";
    size_t from = page.find(open) + open.size();
    return nlohmann::json::parse(page.substr(from, page.find("</script>", from) - from));
  }

  // The serialised section of finding i.
  static std::string Section(const std::string& dom, size_t i) {
    std::string open = "<section class=\"finding";
    size_t at = dom.find("id=\"finding-" + std::to_string(i) + "\"");
    if (at == std::string::npos) return "";
    size_t from = dom.rfind(open, at);
    size_t to = dom.find("</section>", at);
    return dom.substr(from, to - from);
  }

  // Every finding of the JSON report has its section in the page's DOM,
  // with its kind and message, one lane per goroutine of its steps, one
  // mark per step, the primary operation highlighted and a copy button for
  // a reproduce command; each kind is counted in the kind filter.
  static void ExpectEveryFinding(const std::string& dom, const nlohmann::json& findings,
                                 const nlohmann::json& data) {
    EXPECT_NE(dom.find("data-gordian-rendered=\"ok\""), std::string::npos) << dom;
    EXPECT_NE(dom.find("<pre id=\"gordian-errors\" hidden=\"\"></pre>"), std::string::npos)
        << "the page reported errors: " << dom.substr(dom.find("gordian-errors"), 2000);
    ASSERT_EQ(data["findings"].size(), findings.size());
    EXPECT_EQ(Count(dom, "<section class=\"finding"), findings.size());
    std::set<std::string> kinds;
    for (size_t i = 0; i < findings.size(); i++) {
      const nlohmann::json& f = findings[i];
      kinds.insert(f["kind"]);
      std::string sec = Section(dom, i);
      ASSERT_FALSE(sec.empty()) << "no section for finding " << i;
      EXPECT_NE(sec.find("data-kind=\"" + f["kind"].get<std::string>() + "\""), std::string::npos);
      EXPECT_NE(sec.find(AsDomText(f["message"])), std::string::npos) << f["message"];
      const nlohmann::json& steps = data["findings"][i]["steps"];
      std::set<std::string> goroutines;
      for (const auto& st : steps) goroutines.insert(st["g"]);
      EXPECT_EQ(Count(sec, "class=\"lane-bg\""), goroutines.size()) << f["kind"];
      EXPECT_EQ(Count(sec, "class=\"mark"), steps.size()) << f["kind"];
      if (!steps.empty()) {
        EXPECT_NE(sec.find("class=\"mark primary"), std::string::npos)
            << f["kind"] << ": no operation highlighted";
      }
      if (!f["reproduce"].get<std::string>().empty()) {
        EXPECT_NE(sec.find("class=\"copy\""), std::string::npos);
      }
    }
    for (const std::string& k : kinds) {
      EXPECT_NE(dom.find("<option value=\"" + k + "\">" + k + " ("), std::string::npos) << k;
    }
  }

  // One screenshot per finding kind of `findings` (the page `page`
  // filtered to that kind), each a 1100x820 PNG with something drawn;
  // copied to $GORDIAN_SCREENSHOT_DIR as PREFIX-KIND.png when it is set.
  static void ScreenshotEachKind(const nlohmann::json& findings, const std::string& page,
                                 const std::string& prefix) {
    std::set<std::string> kinds;
    for (const auto& f : findings) kinds.insert(f["kind"]);
    std::string keep = e2e::Env("GORDIAN_SCREENSHOT_DIR");
    for (const std::string& k : kinds) {
      fs::path png = *tmp_ / (prefix + k + ".png");
      Chromium({"--window-size=1100,820", "--screenshot=" + png.string(),
                "file://" + (*tmp_ / page).string() + "#kind=" + k});
      std::string bytes = ReadFile(png);
      ASSERT_GT(bytes.size(), 24u) << png;
      EXPECT_EQ(bytes.substr(1, 3), "PNG");
      // IHDR: width and height, big-endian, at 16 and 20.
      auto be32 = [&](size_t at) {
        return (uint32_t(uint8_t(bytes[at])) << 24) | (uint32_t(uint8_t(bytes[at + 1])) << 16) |
               (uint32_t(uint8_t(bytes[at + 2])) << 8) | uint32_t(uint8_t(bytes[at + 3]));
      };
      EXPECT_EQ(be32(16), 1100u);
      EXPECT_EQ(be32(20), 820u);
      EXPECT_GT(bytes.size(), 20000u) << "an almost empty picture: " << png;
      if (!keep.empty()) fs::copy_file(png, fs::path(keep) / png.filename(),
                                       fs::copy_options::overwrite_existing);
    }
  }

  static fs::path* tmp_;
  static nlohmann::json* report_;
  static std::string* dom_;
};

fs::path* BrowserTest::tmp_ = nullptr;
nlohmann::json* BrowserTest::report_ = nullptr;
std::string* BrowserTest::dom_ = nullptr;

// (One gtest process per test, each running gordian test once: the checks
// are grouped into few tests to stay within a minute.)
TEST_F(BrowserTest, EveryFindingIsInTheDomWithItsTimelineAndNoScriptError) {
  const nlohmann::json& findings = (*report_)["findings"];
  ASSERT_GE(findings.size(), 3u);
  ExpectEveryFinding(*dom_, findings, PageData());
  // The drawings the chosen programs need.
  EXPECT_GT(Count(*dom_, "class=\"arrow send\""), 0u) << "no send->receive arrow";
  EXPECT_GT(Count(*dom_, "class=\"arrow close\""), 0u) << "no close arrow";
  EXPECT_GT(Count(*dom_, "class=\"held\""), 0u) << "no lock-held bar";
}

TEST_F(BrowserTest, TheProgramsMarkupAndScriptAreText) {
  // No script of the program ran (each would set the title to "injected
  // ...") and no element of its text was made.
  EXPECT_NE(dom_->find("<title>gordian report: gordian test</title>"), std::string::npos);
  EXPECT_EQ(dom_->find("<img"), std::string::npos);
  // The excerpt of Post shows the comment's script as text.
  EXPECT_NE(dom_->find(AsDomText(
                "// </script><script>document.title = \"injected by a comment\"</script>")),
            std::string::npos);
}

TEST_F(BrowserTest, OneScreenshotPerFindingKind) {
  ScreenshotEachKind((*report_)["findings"], "report.html", "report-");
}

// gordian verify's findings (model counterexamples, status predicted)
// draw as the dynamic ones do: a lane per process, the blocked or failing
// operation highlighted, send -> receive and close arrows and lock-held
// bars from the objects and message numbers of the counterexample.
TEST_F(BrowserTest, VerifyFindingsHaveTheirTimelines) {
  driver::ProcessSpec spec;
  spec.argv = {Gordian(), "verify", "-no-confirm", "--quiet", "--json", (*tmp_ / "verify.json").string(),
               "--html", (*tmp_ / "verify.html").string(), "./bugs/transfer_lock_order",
               "./bugs/pool_jobs_never_closed", "./bugs/shutdown_closes_twice"};
  spec.cwd = SourceDir() + "/tests/corpus/verify";
  spec.pass_through = false;
  spec.timeout_seconds = 240;
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  // Predictions only (no -confirm): warnings, exit 0.
  ASSERT_EQ(r.exit_code, 0) << r.Describe() << "\n" << r.err;
  nlohmann::json report = nlohmann::json::parse(ReadFile(*tmp_ / "verify.json"));
  const nlohmann::json& findings = report["findings"];
  std::set<std::string> kinds;
  for (const auto& f : findings) kinds.insert(f["kind"]);
  EXPECT_EQ(kinds, (std::set<std::string>{"lock-order-deadlock", "global-deadlock", "close-of-closed"}));
  std::string dom = Chromium({"--dump-dom", "file://" + (*tmp_ / "verify.html").string()});
  ExpectEveryFinding(dom, findings, PageData("verify.html"));
  EXPECT_GT(Count(dom, "class=\"arrow send\""), 0u) << "no send->receive arrow";
  EXPECT_GT(Count(dom, "class=\"arrow close\""), 0u) << "no close arrow";
  EXPECT_GT(Count(dom, "class=\"held\""), 0u) << "no lock-held bar";
  // The entry's process is named as such, not as a goroutine of the runtime.
  EXPECT_NE(dom.find("the model's entry point"), std::string::npos);
  ScreenshotEachKind(findings, "verify.html", "verify-");
}

TEST_F(BrowserTest, AnalyzeDrawsTheWholeRunOnACanvas) {
  driver::ProcessSpec spec;
  spec.argv = {Gordian(), "analyze", "--quiet", "--html", (*tmp_ / "run.html").string(),
               (*tmp_ / "traces").string()};
  spec.pass_through = false;
  spec.timeout_seconds = 120;
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  ASSERT_EQ(r.exit_code, 1) << r.Describe() << "\n" << r.err;
  std::string dom = Chromium({"--dump-dom", "file://" + (*tmp_ / "run.html").string()});
  EXPECT_NE(dom.find("data-gordian-rendered=\"ok\""), std::string::npos);
  EXPECT_NE(dom.find("<pre id=\"gordian-errors\" hidden=\"\"></pre>"), std::string::npos);
  // One canvas per trace (one per program), each drawn.
  EXPECT_EQ(Count(dom, "<canvas class=\"run-canvas\""), std::size(kPrograms));
  EXPECT_EQ(Count(dom, "data-drawn=\"1\""), std::size(kPrograms));
  EXPECT_NE(dom.find("data-gordian-run-drawn-ms=\""), std::string::npos);
  EXPECT_NE(dom.find("Whole run: gordian.test/corpus/bugs/bank_transfer_lock_order"),
            std::string::npos);
}

}  // namespace
}  // namespace gordian
