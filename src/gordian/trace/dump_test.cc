// Tests of the text and JSON dumps: partners of sends, receives, select
// cases, closed channels and Cond waits; stamp order; roots-relative files.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gordian/trace/dump.h"
#include "gordian/trace/writer.h"
#include "gordian/trace/written_trace_test.h"
#include "gordian/util/temp_dir_test.h"

namespace gordian::trace {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

class DumpTest : public util::TempDirTest {};

TEST_F(DumpTest, ChannelPartnersInTextAndJson) {
  TraceWriter w;
  w.SetMeta("roots", "/home/u/proj");
  uint32_t mk = w.AddSite("/home/u/proj/main.go", 5, "main.main");
  uint32_t snd = w.AddSite("/home/u/proj/main.go", 8, "main.main.func1");
  uint32_t rcv = w.AddSite("/home/u/proj/main.go", 11, "main.main");
  uint32_t cls = w.AddSite("/home/u/proj/main.go", 9, "main.main.func1");
  uint32_t ch = w.NewObject();
  w.Op(1, Kind::ChanMake, ch, 0, mk);
  uint32_t g = w.Go(1, snd);
  RecordRef r1 = w.Pre(1, Kind::ChanRecv, ch, rcv);
  RecordRef s1 = w.Pre(g, Kind::ChanSend, ch, snd);
  w.Post(s1, 1);
  w.Post(r1, 1);
  w.Op(g, Kind::ChanClose, ch, 1, cls);
  RecordRef r2 = w.Pre(1, Kind::ChanRecv, ch, rcv);
  w.Post(r2, 0, kClosed);
  RecordRef blocked = w.Pre(1, Kind::ChanRecv, 0, rcv);  // nil channel, forever
  (void)blocked;
  Trace t = WrittenTrace(w, dir_);

  std::string text = DumpTraceToString(t, {});
  std::vector<std::string> lines = Lines(text);
  ASSERT_EQ(lines.size(), t.records.size()) << text;
  // Stamp order: make(1) spawn(2) start(3) recv(4-) send(5-) ...
  EXPECT_NE(lines[0].find("ChanMake"), std::string::npos) << text;
  EXPECT_NE(lines[0].find("main.go:5"), std::string::npos) << text;
  EXPECT_EQ(lines[0].find("/home/u/proj"), std::string::npos) << text;
  EXPECT_NE(lines[1].find("child=1.0"), std::string::npos) << text;
  EXPECT_NE(lines[3].find("ChanRecv"), std::string::npos) << text;
  EXPECT_NE(lines[3].find("<- ChanSend 1.0 at main.go:8"), std::string::npos) << text;
  EXPECT_NE(lines[4].find("-> ChanRecv 1 at main.go:11"), std::string::npos) << text;
  EXPECT_NE(lines[6].find("<- closed by 1.0 at main.go:9"), std::string::npos) << text;
  EXPECT_NE(lines[7].find("chan=nil"), std::string::npos) << text;
  EXPECT_NE(lines[7].find("-never"), std::string::npos) << text;

  DumpOptions jo;
  jo.json = true;
  std::vector<std::string> js = Lines(DumpTraceToString(t, jo));
  ASSERT_EQ(js.size(), t.records.size());
  auto recv = nlohmann::json::parse(js[3]);
  EXPECT_EQ(recv["goroutine"], "1");
  EXPECT_EQ(recv["kind"], "ChanRecv");
  EXPECT_EQ(recv["file"], "main.go");
  EXPECT_EQ(recv["line"], 11);
  EXPECT_EQ(recv["partner"]["goroutine"], "1.0");
  EXPECT_EQ(recv["partner"]["kind"], "ChanSend");
  EXPECT_EQ(recv["partner"]["line"], 8);
  auto closed = nlohmann::json::parse(js[6]);
  EXPECT_EQ(closed["partner"]["closed"], true);
  EXPECT_EQ(closed["partner"]["line"], 9);
  auto never = nlohmann::json::parse(js[7]);
  EXPECT_EQ(never["tpost"], 0);
  EXPECT_FALSE(never.contains("partner"));
}

// A crafted sites.txt puts escape sequences and bytes that are not UTF-8
// in a file name: the text dump escapes them (they reached the terminal).
TEST_F(DumpTest, FileNamesAreEscaped) {
  TraceWriter w;
  uint32_t site = w.AddSite("/x/a\x1b]0;t\x07\x1b[2J\r\x9b.go", 3, "main.main");
  w.Op(1, Kind::ChanMake, w.NewObject(), 0, site);
  Trace t = WrittenTrace(w, dir_);
  std::string text = DumpTraceToString(t, {});
  EXPECT_EQ(text.find_first_of("\x1b\x07\r\x9b"), std::string::npos) << text;
  EXPECT_NE(text.find("a\\x1b]0;t\\x07\\x1b[2J\\r\\x9b.go:3"), std::string::npos) << text;
}

TEST_F(DumpTest, SelectCasePartnersAndOrder) {
  TraceWriter w;
  uint32_t site = w.AddSite("/p/sel.go", 20, "main.main");
  uint32_t a = w.NewObject(), b = w.NewObject();
  uint32_t g = w.Go(1, site);
  RecordRef sel = w.Pre(1, Kind::Select, 0, site, kHasDefault, 2);
  w.At(sel).tpre = w.At(sel).tpre;  // SelectCase records share the Select's start
  RecordRef c0 = w.Append(1, Record{Kind::SelectCase, kDirRecv, 0, site, 0, 0, a, 0});
  RecordRef c1 = w.Append(1, Record{Kind::SelectCase, kDirRecv, 1, site, 0, 0, b, 0});
  (void)c0;
  RecordRef s = w.Pre(g, Kind::ChanSend, b, site);
  w.Post(s, 1);
  w.Post(sel, 1);
  w.At(c1).flags |= kChosen;
  w.At(c1).val = 1;
  Trace t = WrittenTrace(w, dir_);
  std::vector<std::string> lines = Lines(DumpTraceToString(t, {}));
  // Select, then its two cases right after it, despite their 0 stamps.
  int sel_line = -1;
  for (size_t i = 0; i < lines.size(); i++) {
    if (lines[i].find(" Select ") != std::string::npos) sel_line = static_cast<int>(i);
  }
  ASSERT_GE(sel_line, 0);
  EXPECT_NE(lines[sel_line].find("cases=2 chosen=1 has-default"), std::string::npos);
  EXPECT_NE(lines[sel_line + 1].find("case=0 recv"), std::string::npos);
  EXPECT_NE(lines[sel_line + 2].find("case=1 recv chan=2 chosen seq=1"), std::string::npos);
  EXPECT_NE(lines[sel_line + 2].find("<- ChanSend 1.0"), std::string::npos);
  DumpOptions by_g;
  by_g.by_goroutine = true;
  by_g.goroutine = "1.0";
  std::vector<std::string> g_lines = Lines(DumpTraceToString(t, by_g));
  ASSERT_EQ(g_lines.size(), 2u);
  EXPECT_NE(g_lines[1].find("-> SelectCase 1 at /p/sel.go:20"), std::string::npos) << g_lines[1];
}

TEST_F(DumpTest, CondAndProgramRecords) {
  TraceWriter w;
  uint32_t c = w.NewObject();
  uint32_t g = w.Go(1);
  RecordRef wait = w.Pre(g, Kind::CondWait, c, 0);
  w.At(wait).val = 1;
  w.Op(1, Kind::CondBroadcast, c, 1, 0, 0, /*aux=*/1);
  w.Post(wait, 1);
  uint32_t msg = w.AddString("send on closed channel");
  w.Op(1, Kind::Panic, 0, msg, 0);
  w.Op(1, Kind::ProgramExit, 0, 2, 0, 0, 2);
  w.Op(g, Kind::TestCall, 3, static_cast<uint32_t>(TestCallClass::Log), 0);
  w.Op(1, Kind::WgAdd, 5, static_cast<uint32_t>(-1), 0, kFailed, static_cast<uint16_t>(-1));
  Trace t = WrittenTrace(w, dir_);
  std::string text = DumpTraceToString(t, {});
  EXPECT_NE(text.find("cond=1 ticket=1  ?  <- CondBroadcast 1"), std::string::npos) << text;
  EXPECT_NE(text.find("\"send on closed channel\""), std::string::npos) << text;
  EXPECT_NE(text.find("status=2 how=panic"), std::string::npos) << text;
  EXPECT_NE(text.find("wg=5 delta=-1 counter=-1 NEGATIVE"), std::string::npos) << text;
  EXPECT_NE(text.find("TestCall         test=3 call=log"), std::string::npos) << text;
  EXPECT_EQ(KindName(Kind::BlockedAtTestEnd), "BlockedAtTestEnd");
  EXPECT_EQ(KindName(static_cast<Kind>(99)), "Kind(99)");
}

}  // namespace
}  // namespace gordian::trace
