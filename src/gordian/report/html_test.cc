// Tests of the HTML report: the escaping that keeps a program's text from
// becoming markup or script, and the data the page's script draws from.
// (tests/browser renders real reports in a headless browser.)
#include "gordian/report/html.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "gordian/report/html_page.h"
#include "gordian/report/report_test_util.h"
#include "gordian/util/temp_dir_test.h"

namespace gordian::report {
namespace {

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) n++;
  return n;
}

// The JSON value in the page's data element, parsed back.
nlohmann::json DataOf(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"gordian-data\">";
  size_t from = page.find(open);
  EXPECT_NE(from, std::string::npos);
  from += open.size();
  size_t to = page.find("</script>", from);
  EXPECT_NE(to, std::string::npos);
  return nlohmann::json::parse(page.substr(from, to - from));
}

TEST(HtmlJsonForScript, EscapesWhatCouldEndOrAlterTheScriptElement) {
  std::string json = R"({"a":"</script><script>alert(1)</script> <!-- & )"
                     "\xe2\x80\xa8\xe2\x80\xa9\"}";
  std::string out = HtmlJsonForScript(json);
  EXPECT_EQ(out.find('<'), std::string::npos) << out;
  EXPECT_EQ(out.find('>'), std::string::npos) << out;
  EXPECT_EQ(out.find('&'), std::string::npos) << out;
  EXPECT_EQ(out.find("\xe2\x80\xa8"), std::string::npos) << out;
  EXPECT_EQ(out.find("\xe2\x80\xa9"), std::string::npos) << out;
  // The same value.
  EXPECT_EQ(nlohmann::json::parse(out), nlohmann::json::parse(json));
}

class HtmlTest : public util::TempDirTest {
 protected:
  static constexpr const char* kScript = "</script><script>alert('x')</script>";
  static constexpr const char* kImg = "<img src=x onerror=alert(1)>";

  // A finding whose every name and text holds markup and script, with its
  // locations in a source file whose comment and string do too.
  Finding Hostile() {
    std::string dir = dir_ + "/<b>pkg</b>";
    std::filesystem::create_directories(dir);
    source_ = dir + "/hub.go";
    std::ofstream(source_) << "package hub\n\n"
                           << "// " << kScript << "\n"                     // 3
                           << "var s = \"" << kImg << "\"\n"               // 4
                           << "func f() { ch <- \"<!--\" } // " << kImg << "\n";  // 5
    Finding f = testing::SendOnClosed();
    f.test = std::string("Test") + kScript;
    f.message = std::string("message ") + kImg + kScript;
    f.reproduce = std::string("gordian replay '") + kScript + ".sched'";
    f.other_tests = {kImg};
    for (Location& l : f.locations) {
      l.file = "<b>pkg</b>/hub.go";
      l.path = source_;
      l.line = 5;
      l.function = std::string("pkg.") + kImg;
    }
    for (Step& s : f.interleaving) {
      s.loc.file = "<b>pkg</b>/hub.go";
      s.loc.path = source_;
      s.loc.line = 4;
      s.loc.function = kScript;
      s.what += kImg;
    }
    for (GoroutineInfo& g : f.goroutines) {
      g.function = kScript;
      if (!g.spawn_file.empty()) g.spawn_file = kImg;
    }
    return f;
  }
  HtmlOptions Opts() const {
    HtmlOptions o;
    o.source_root = dir_;
    o.title = std::string("report ") + kImg;
    o.command = kScript;
    return o;
  }
  std::string source_;
};

TEST_F(HtmlTest, MarkupInNamesSourcesAndMessagesStaysText) {
  Finding f = Hostile();
  std::string page = RenderHtml({f}, Opts());
  // Only the page's own two script elements; no element from the input.
  EXPECT_EQ(Count(page, "<script"), 2u);
  EXPECT_EQ(Count(page, "</script>"), 2u);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_EQ(page.find("<!--"), std::string::npos);
  EXPECT_NE(page.find("<title>report &lt;img src=x onerror=alert(1)&gt;</title>"),
            std::string::npos);

  // In the data, every text is there unchanged, as a string.
  nlohmann::json d = DataOf(page);
  const nlohmann::json& jf = d["findings"][0];
  EXPECT_EQ(d["command"], kScript);
  EXPECT_EQ(jf["test"], f.test);
  EXPECT_EQ(jf["message"], f.message);
  EXPECT_EQ(jf["reproduce"], f.reproduce);
  EXPECT_EQ(jf["other_tests"][0], kImg);
  EXPECT_EQ(jf["locations"][0]["file"], "<b>pkg</b>/hub.go");
  EXPECT_EQ(jf["locations"][0]["function"], f.locations[0].function);
  // The excerpt (context 2 around line 5) holds the comment and the string.
  const nlohmann::json& ex = jf["locations"][0]["excerpt"];
  ASSERT_TRUE(ex.contains("lines")) << ex.dump();
  EXPECT_EQ(ex["first"], 3);
  EXPECT_EQ(ex["lines"][0], std::string("// ") + kScript);
  EXPECT_EQ(ex["lines"][1], std::string("var s = \"") + kImg + "\"");
  EXPECT_EQ(jf["steps"][0]["src"], std::string("var s = \"") + kImg + "\"");
  EXPECT_EQ(jf["steps"][0]["function"], kScript);
  EXPECT_EQ(jf["goroutines"][0]["function"], kScript);
  EXPECT_EQ(jf["goroutines"][1]["where"], std::string("spawned at ") + kImg + ":9");
}

TEST(HtmlPage, ScriptPutsTextIntoTheDocumentOnlyAsText) {
  std::string js = kHtmlPageScript;
  for (const char* sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                           "eval(", "new Function"}) {
    EXPECT_EQ(js.find(sink), std::string::npos) << sink;
  }
  // Nothing that could load from the network. (The SVG namespace URI is a
  // name, not a load.)
  std::string page = RenderHtml({testing::SendOnClosed()}, {});
  for (size_t at; (at = page.find("http://www.w3.org/2000/svg")) != std::string::npos;) {
    page.erase(at, 26);
  }
  for (const char* load : {"http://", "https://", "fetch(", "XMLHttpRequest", "@import",
                           "url(h", "url(\"", "url('", "src="}) {
    EXPECT_EQ(page.find(load), std::string::npos) << load;
  }
}

TEST_F(HtmlTest, StepsCarryObjectsSeqAndWhichOperationFails) {
  Finding f = testing::SendOnClosed();
  f.interleaving[0].object = 42;  // the close
  f.interleaving[1].object = 42;  // the send
  f.interleaving[1].seq = 3;
  f.interleaving[1].blocks = true;
  nlohmann::json d = nlohmann::json::parse(HtmlData({f}, Opts()));
  const nlohmann::json& steps = d["findings"][0]["steps"];
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0]["role"], "close");
  EXPECT_EQ(steps[0]["object"], 42);
  EXPECT_EQ(steps[0]["primary"], false);
  EXPECT_EQ(steps[1]["seq"], 3);
  // The send is the primary location (same goroutine, line and stamp).
  EXPECT_EQ(steps[1]["primary"], true);
  EXPECT_EQ(steps[1]["blocked"], true);
  EXPECT_EQ(steps[0]["blocked"], false);
}

TEST_F(HtmlTest, SourceOutsideTheRootIsNotShownAndBadUtf8DoesNotFail) {
  Finding f = testing::SendOnClosed();
  f.locations[0].path = "/etc/passwd.go";
  f.message = "bad \xff\xfe utf-8";
  std::string page;
  ASSERT_NO_THROW(page = RenderHtml({f}, Opts()));
  nlohmann::json d = DataOf(page);
  EXPECT_EQ(d["findings"][0]["locations"][0]["excerpt"]["note"],
            "source not shown: outside the module reported on");
  EXPECT_EQ(d["findings"][0]["message"], "bad \xef\xbf\xbd\xef\xbf\xbd utf-8");
}

TEST_F(HtmlTest, WholeRunsAreColumnarDataWithTheirNamesEscaped) {
  RunTimeline r;
  r.name = kScript;
  r.lanes = {"1 main.main", std::string("1.0 ") + kImg};
  r.ops = {"send", "receive"};
  r.op_roles = {"send", "recv"};
  r.sites = {std::string("/m/a.go:3 ") + kScript};
  r.lane = {1, 0};
  r.op = {0, 1};
  r.site = {0, 0};
  r.blocked = {0, 0};
  r.object = {(uint64_t{1} << 32) | 5, (uint64_t{1} << 32) | 5};
  r.seq = {1, 1};
  std::vector<RunTimeline> runs = {r};
  HtmlOptions o = Opts();
  o.runs = &runs;
  std::string page = RenderHtml({}, o);
  EXPECT_EQ(Count(page, "<script"), 2u);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  nlohmann::json d = DataOf(page);
  ASSERT_EQ(d["runs"].size(), 1u);
  const nlohmann::json& j = d["runs"][0];
  EXPECT_EQ(j["name"], kScript);
  EXPECT_EQ(j["lanes"][1], std::string("1.0 ") + kImg);
  EXPECT_EQ(j["sites"][0], std::string("/m/a.go:3 ") + kScript);
  EXPECT_EQ(j["lane"], nlohmann::json({1, 0}));
  EXPECT_EQ(j["op_roles"], nlohmann::json({"send", "recv"}));
  EXPECT_EQ(j["object"][0], (uint64_t{1} << 32) | 5);
  EXPECT_EQ(j["seq"], nlohmann::json({1, 1}));
  EXPECT_EQ(j["dropped"], 0);
  // Without runs, an empty list.
  EXPECT_TRUE(DataOf(RenderHtml({}, Opts()))["runs"].empty());
}

TEST_F(HtmlTest, WriteHtmlFileSaysWhenItCannot) {
  std::string err;
  EXPECT_FALSE(WriteHtmlFile(dir_ + "/no/such/dir/r.html", {}, Opts(), &err));
  EXPECT_NE(err.find("cannot write"), std::string::npos);
  EXPECT_TRUE(WriteHtmlFile(dir_ + "/r.html", {testing::SendOnClosed()}, Opts(), &err)) << err;
  EXPECT_GT(std::filesystem::file_size(dir_ + "/r.html"), 1000u);
}

}  // namespace
}  // namespace gordian::report
