// Tests of the progress line (progress.h) on a fake terminal and a fake
// clock: in place on a terminal (carriage return and erase, cut to the
// width, erased by Clear and Pause), plain lines at most every few seconds
// otherwise, nothing when quiet.
#include "gordian/cli/progress.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace gordian::cli {
namespace {

struct FakeTerminal : ProgressTerminal {
  bool tty;
  int width;
  std::string* out;
  FakeTerminal(bool t, int w, std::string* o) : tty(t), width(w), out(o) {}
  bool IsTty() override { return tty; }
  int Width() override { return width; }
  void Write(std::string_view s) override { out->append(s); }
};

struct Fixture {
  std::string out;
  double now = 100;
  std::unique_ptr<Progress> p;
  Fixture(bool tty, int width, bool quiet = false) {
    p = std::make_unique<Progress>("gordian test", quiet,
                                   std::make_unique<FakeTerminal>(tty, width, &out),
                                   [this] { return now; });
  }
};

TEST(Progress, OnATerminalTheLineIsRewrittenInPlaceAndErased) {
  Fixture f(true, 200);
  f.now = 101.5;
  f.p->Say("recording: 1 package built, 0 tested");
  EXPECT_EQ(f.out, "\r\x1b[Kgordian test: recording: 1 package built, 0 tested (1.5s)");
  f.out.clear();
  f.now = 101.55;  // within kTtySeconds of the last: not written
  f.p->Say("recording: 2 packages built, 0 tested");
  EXPECT_EQ(f.out, "");
  f.now = 102;
  f.p->Say("analysed 1 of 2 packages");
  EXPECT_EQ(f.out, "\r\x1b[Kgordian test: analysed 1 of 2 packages (2.0s)");
  f.out.clear();
  f.p->Clear();
  EXPECT_EQ(f.out, "\r\x1b[K");
  f.out.clear();
  f.p->Clear();  // nothing shown: nothing to erase
  EXPECT_EQ(f.out, "");
  // After Clear the next line shows at once.
  f.p->Say("x");
  EXPECT_EQ(f.out, "\r\x1b[Kgordian test: x (2.0s)");
  f.out.clear();
  f.p.reset();  // the destructor erases what is shown
  EXPECT_EQ(f.out, "\r\x1b[K");
}

TEST(Progress, TheLineIsCutToTheTerminalWidthSoItNeverWraps) {
  Fixture f(true, 20);
  f.p->Say("analysing a.very/long/import/path");
  // 19 columns: the last one stays free.
  EXPECT_EQ(f.out, "\r\x1b[Kgordian test: analy");
  Fixture g(true, 20);
  g.p->Say("é€ü");  // code points, not bytes
  EXPECT_EQ(g.out, "\r\x1b[Kgordian test: é€ü (");
}

TEST(Progress, PausedTheLineStaysOffUntilResumed) {
  Fixture f(true, 200);
  f.p->Say("a");
  f.out.clear();
  f.p->Pause();
  EXPECT_EQ(f.out, "\r\x1b[K");
  f.out.clear();
  f.now += 10;
  f.p->Say("b");
  EXPECT_EQ(f.out, "");
  f.p->Resume();
  f.p->Say("c");
  EXPECT_EQ(f.out, "\r\x1b[Kgordian test: c (10.0s)");
}

TEST(Progress, InALogPlainLinesAtMostEveryFewSeconds) {
  Fixture f(false, 0);
  f.p->Say("recording: 0 packages built, 0 tested");
  EXPECT_EQ(f.out, "gordian test: recording: 0 packages built, 0 tested (0.0s)\n");
  f.out.clear();
  f.now += Progress::kPlainSeconds - 0.5;
  f.p->Say("skipped");
  f.p->Clear();  // a log has nothing to erase, and Clear does not reset the pace
  f.p->Say("skipped too");
  EXPECT_EQ(f.out, "");
  f.now += 0.5;
  f.p->Say("analysed 3 of 9 packages");
  EXPECT_EQ(f.out, "gordian test: analysed 3 of 9 packages (5.0s)\n");
  EXPECT_EQ(f.out.find('\r'), std::string::npos);
  EXPECT_EQ(f.out.find('\x1b'), std::string::npos);
}

TEST(Progress, QuietSaysNothing) {
  Fixture f(true, 80, /*quiet=*/true);
  f.p->Say("a");
  f.p->Clear();
  f.p.reset();
  EXPECT_EQ(f.out, "");
}

}  // namespace
}  // namespace gordian::cli
