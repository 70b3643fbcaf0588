// Tests of the text form (text.h): binary -> text -> Trace gives the Trace
// ReadTrace gives, text -> Trace -> text is the same text, the short hand of
// hand-written traces, and errors that name the line.
#include "gordian/trace/text.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "gordian/trace/writer.h"
#include "gordian/util/temp_dir_test.h"

namespace gordian::trace {
namespace {

namespace fs = std::filesystem;

bool SameRecordBytes(const Record& a, const Record& b) { return memcmp(&a, &b, sizeof a) == 0; }

// Everything ReadTrace reads from a trace directory (not its warnings).
void ExpectSameTrace(const Trace& a, const Trace& b) {
  EXPECT_EQ(memcmp(&a.header, &b.header, sizeof a.header), 0);
  EXPECT_EQ(a.truncated, b.truncated);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (size_t i = 0; i < a.records.size(); i++) {
    EXPECT_TRUE(SameRecordBytes(a.records[i], b.records[i])) << "record " << i;
  }
  ASSERT_EQ(a.goroutines.size(), b.goroutines.size());
  for (size_t i = 0; i < a.goroutines.size(); i++) {
    const Goroutine& x = a.goroutines[i];
    const Goroutine& y = b.goroutines[i];
    EXPECT_EQ(std::tie(x.gid, x.parent, x.child_index, x.begin, x.end, x.stable_id),
              std::tie(y.gid, y.parent, y.child_index, y.begin, y.end, y.stable_id))
        << "goroutine " << i + 1;
  }
  ASSERT_EQ(a.sites.size(), b.sites.size());
  for (size_t i = 0; i < a.sites.size(); i++) {
    const Site& x = a.sites[i];
    const Site& y = b.sites[i];
    EXPECT_EQ(std::tie(x.file, x.line, x.column, x.function, x.user),
              std::tie(y.file, y.line, y.column, y.function, y.user))
        << "site " << i;
  }
  EXPECT_EQ(a.strings, b.strings);
  EXPECT_EQ(a.meta, b.meta);
}

// Writes t as a binary trace directory (the inverse of ReadTrace).
bool WriteBinary(const Trace& t, const std::string& dir, std::string* err) {
  TraceWriter w(t.header.chunk_bytes);
  for (size_t i = 1; i < t.sites.size(); i++) {
    const Site& s = t.sites[i];
    w.AddSite(s.file, s.line, s.function, s.user, s.column);
  }
  for (size_t i = 1; i < t.strings.size(); i++) w.AddString(t.strings[i]);
  for (const auto& [k, v] : t.meta) w.SetMeta(k, v);
  w.SetFlags(t.header.flags);
  w.SetOrigin(t.header.start_unix_ns, t.header.pid);
  for (const Goroutine& g : t.goroutines) {
    for (const Record& r : t.RecordsOf(g)) w.Append(g.gid, r);
  }
  return w.Write(dir, err);
}

class TextTest : public util::TempDirTest {
 protected:

  // binary -> Trace -> text -> Trace: equal; and text -> Trace -> text: equal.
  void RoundTrip(const std::string& dir) {
    Trace bin;
    std::string err;
    ASSERT_TRUE(ReadTrace(dir, &bin, &err)) << err;
    std::string text = FormatTextTrace(bin);
    Trace back;
    ASSERT_TRUE(ParseTextTrace(text, "t.trace", &back, &err)) << err << "\n" << text;
    ExpectSameTrace(bin, back);
    EXPECT_EQ(FormatTextTrace(back), text);
    // text -> binary -> Trace: the same trace again.
    std::string dir2 = dir_ + "/again";
    ASSERT_TRUE(WriteBinary(back, dir2, &err)) << err;
    Trace bin2;
    ASSERT_TRUE(ReadTrace(dir2, &bin2, &err)) << err;
    EXPECT_EQ(FormatTextTrace(bin2), text);
    fs::remove_all(dir2);
  }

  Trace Parse(std::string_view text, TextTraceInfo* info = nullptr) {
    Trace t;
    std::string err;
    EXPECT_TRUE(ParseTextTrace(text, "x.trace", &t, &err, info)) << err;
    return t;
  }
  std::string Error(std::string_view text) {
    Trace t;
    std::string err;
    EXPECT_FALSE(ParseTextTrace(text, "x.trace", &t, &err));
    return err;
  }

};

TEST_F(TextTest, RoundTripOfAWrittenTrace) {
  TraceWriter w(/*chunk_bytes=*/24 * 4);  // 3 records a chunk: chunks interleave
  w.SetMeta("go_version", "go1.26");
  w.SetMeta("arg.1", "-run=Test With Spaces \"quoted\" // not a comment");
  w.SetFlags(kFileTruncated);
  uint32_t s1 = w.AddSite("/src/main.go", 12, "main.main");
  uint32_t s2 = w.AddSite("/src/my dir/w.go", 7, "main.(*T).Run.func1", false, 3);
  w.AddSite("/src/main.go", 12, "main.main");  // a second id for the same line
  uint32_t msg = w.AddString("boom\n\"x\"\t\x01");
  uint32_t ch = w.NewObject();
  uint32_t wg = w.NewObject();
  w.Op(1, Kind::ChanMake, ch, 0, s1);
  w.Op(1, Kind::WgAdd, wg, 1, s1, 0, 1);
  uint32_t g = w.Go(1, s2);
  uint32_t g3 = w.Go(1, s2);
  RecordRef r = w.Pre(1, Kind::ChanRecv, ch, s1);
  RecordRef s = w.Pre(g, Kind::ChanSend, ch, s2);
  w.Post(s, 1);
  w.Post(r, 1, kZeroSize);
  w.Op(g, Kind::WgAdd, wg, static_cast<uint32_t>(-1), s2, 0, 0);
  RecordRef sel = w.Pre(g3, Kind::Select, 0, s2, kHasDefault, 2);
  w.Append(g3, Record{Kind::SelectCase, kDirSend, 0, s2, w.At(sel).tpre, 0, ch, 0});
  w.Append(g3, Record{Kind::SelectCase, kDirRecv | kTimer, 1, s2, w.At(sel).tpre, 0, 0, 0});
  w.Pre(1, Kind::MutexLock, 9, s1);  // never completes
  w.Op(g, Kind::Panic, 0, msg, s2);
  w.Op(g3, Kind::TestCall, 1, static_cast<uint32_t>(TestCallClass::FailNow), s2);
  w.Op(1, Kind::ProgramExit, 0, 2, 0, kExitChecked, 2);
  w.Append(6, Record{Kind::GoEnd, 0, 0, 0, w.Now(), 0, 0, 0});  // no GoStart, gap at 4, 5
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  RoundTrip(dir_);
}

TEST_F(TextTest, RoundTripOfSpawnedGoroutinesThatNeverRan) {
  TraceWriter w;
  w.Op(1, Kind::GoSpawn, 2, 0, 0);
  w.Op(1, Kind::GoSpawn, 3, 1, 0);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  RoundTrip(dir_);
}

// GORDIAN_TEXT_ROUNDTRIP=DIR[:DIR...]: recorded traces to round-trip too.
TEST_F(TextTest, RoundTripOfRecordedTraces) {
  const char* dirs = std::getenv("GORDIAN_TEXT_ROUNDTRIP");
  if (dirs == nullptr || *dirs == 0) GTEST_SKIP() << "set GORDIAN_TEXT_ROUNDTRIP=DIR:DIR";
  std::string_view rest = dirs;
  while (!rest.empty()) {
    size_t c = rest.find(':');
    std::string dir(rest.substr(0, c));
    SCOPED_TRACE(dir);
    RoundTrip(dir);
    rest = c == std::string_view::npos ? std::string_view() : rest.substr(c + 1);
  }
}

TEST_F(TextTest, ShortHand) {
  TextTraceInfo info;
  Trace t = Parse(R"(// a comment
meta go_version go1.26
1 ChanMake obj=1                 # stamp 1, site x.trace:3
1 go 2                           // GoSpawn 2, GoStart 3
s: 2 ChanSend obj=1 val=1 open
1 ChanRecv obj=1 val=1 @main.go:40
end s
b: 2 MutexLock obj=2 open
sel: 1 Select aux=2 open
1 SelectCase obj=1 send
1 SelectCase obj=3 aux=1 recv chosen
end sel val=1 t=20
1 Panic val="boom"
1 WgAdd obj=4 val=-1 aux=-1 failed t=30
1 TestEnd @main.go:40
)",
                  &info);
  ASSERT_EQ(t.goroutines.size(), 2u);
  EXPECT_EQ(t.goroutines[1].stable_id, "1.0");
  EXPECT_EQ(t.meta.at("go_version"), "go1.26");
  auto rec = [&](const char* label) { return t.records[info.labels.at(label)]; };
  const Record& s = rec("s");
  EXPECT_EQ(s.tpre, 4u);
  EXPECT_EQ(s.tpost, 6u);  // the receive is 5
  EXPECT_EQ(t.SiteOf(s).file, "x.trace");
  EXPECT_EQ(t.SiteOf(s).line, 5u);
  EXPECT_EQ(rec("b").tpost, 0u);
  const Record& sel = rec("sel");
  EXPECT_EQ(sel.tpre, 8u);
  EXPECT_EQ(sel.tpost, 20u);
  EXPECT_EQ(sel.val, 1u);
  uint32_t i = info.labels.at("sel");
  EXPECT_EQ(t.records[i + 1].tpre, 8u);
  EXPECT_EQ(t.records[i + 1].tpost, 0u);   // not chosen
  EXPECT_EQ(t.records[i + 2].tpost, 20u);  // chosen: completes with the select
  EXPECT_EQ(t.records[i + 2].flags, kDirRecv | kChosen);
  EXPECT_EQ(info.lines[i + 2], 11u);
  EXPECT_EQ(t.strings.at(t.records[i + 3].val), "boom");
  EXPECT_EQ(t.records[i + 3].tpre, 21u);  // after the highest stamp so far
  const Record& wg = t.records[i + 4];
  EXPECT_EQ(static_cast<int32_t>(wg.val), -1);
  EXPECT_EQ(static_cast<int16_t>(wg.aux), -1);
  EXPECT_EQ(wg.flags, kFailed);
  EXPECT_EQ(wg.tpost, 30u);
  // The receive and the TestEnd share the site main.go:40.
  EXPECT_EQ(t.records[i - 1 - 0].kind, Kind::ChanRecv);
  EXPECT_EQ(t.records[i - 1].site, t.records[i + 5].site);
  EXPECT_EQ(t.records[i + 5].tpre, 31u);
}

TEST_F(TextTest, ErrorsNameTheLine) {
  EXPECT_EQ(Error("1 ChanMake\n1 Nope obj=1\n"),
            "x.trace:2: unknown record kind \"Nope\" (the names of event.h: ChanSend, ...; or go)");
  EXPECT_EQ(Error("\n\n1 ChanSend obj=x\n"),
            "x.trace:3: \"obj=x\": expected obj=N with N in [0, 4294967295]");
  EXPECT_EQ(Error("0 GoEnd\n"),
            "x.trace:1: \"0\": expected a goroutine id (a number in [1, 1048576])");
  EXPECT_EQ(Error("end s\n"), "x.trace:1: end of \"s\": no record has that label");
  EXPECT_EQ(Error("s: 1 GoEnd\nend s\n"), "x.trace:2: end of \"s\": the record is not open");
  EXPECT_EQ(Error("string 1 \"abc\n"), "x.trace:1: unterminated string");
  EXPECT_EQ(Error("1 GoEnd @9\n"), "x.trace: line 1: site 9 is not defined (site lines)");
  EXPECT_EQ(Error("s: 1 GoEnd\ns: 1 GoEnd\n"), "x.trace:2: label \"s\" is already used");
  EXPECT_EQ(Error("1 GoEnd t=5-x\n"), "x.trace:1: \"t=5-x\": expected t=PRE or t=PRE-POST");
  EXPECT_EQ(Error("header chunk_bytes=1\n"),
            "x.trace:1: \"chunk_bytes=1\": expected chunk_bytes=N with N in [48, 67108864]");
  EXPECT_EQ(Error("bogus\n"),
            "x.trace:1: expected a directive or a record (GID KIND ...), got \"bogus\"");
}

}  // namespace
}  // namespace gordian::trace
