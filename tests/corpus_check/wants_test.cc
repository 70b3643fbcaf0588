// Unit tests of the corpus annotations and checker rules (wants.h).
#include "wants.h"

#include <gtest/gtest.h>

namespace gordian::corpus {
namespace {

using report::Finding;
using report::FindingKind;
using report::Primitive;
using report::Status;

Finding F(FindingKind k, Status s, std::vector<uint32_t> lines, std::string file = "bugs/p/main.go",
          Primitive prim = Primitive::None) {
  Finding f;
  f.kind = k;
  f.status = s;
  f.severity = report::DefaultSeverity(k);
  f.primitive = prim;
  for (uint32_t l : lines) {
    report::Location loc;
    loc.file = file;
    loc.line = l;
    f.locations.push_back(loc);
  }
  return f;
}

TEST(Wants, Parse) {
  std::vector<Want> ws;
  std::vector<std::string> problems;
  ParseWants("main.go",
             "package main\n"
             "\tch <- v // want: send-on-closed occurred\n"
             "\tmu.Lock() // want: goroutine-leak occurred mutex\n"
             "\tv := <-r // want: mixed-deadlock predicted ; recv-on-closed predicted\n"
             "\t// want: panic occurred\n"
             "\tx() // want: goroutine-leak occurred\n"
             "\ty() // want: panic confirmed\n",
             &ws, &problems);
  ASSERT_EQ(ws.size(), 4u);
  EXPECT_EQ(ws[0].String(), "main.go:2 send-on-closed occurred");
  EXPECT_EQ(ws[1].String(), "main.go:3 goroutine-leak occurred mutex");
  EXPECT_EQ(ws[2].kind, FindingKind::MixedDeadlock);
  EXPECT_EQ(ws[3].kind, FindingKind::RecvOnClosed);
  EXPECT_EQ(ws[3].line, 4u);
  EXPECT_EQ(problems.size(), 3u);  // comment-only line, leak without primitive, bad status
}

// data-race wants (tests/corpus/races): either access's line may carry it,
// and a race with no want is an unexpected bug.
TEST(Wants, DataRace) {
  std::vector<Want> ws;
  std::vector<std::string> problems;
  ParseWants("x_test.go",
             "package x\n"                                  // 1
             "\ts.hits++ // want: data-race occurred\n"    // 2
             "\tm[k] = v // want: data-race occurred mutex\n",  // 3: no primitive allowed
             &ws, &problems);
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0].String(), "x_test.go:2 data-race occurred");
  EXPECT_EQ(problems.size(), 1u);
  std::vector<Finding> fs = {F(FindingKind::DataRace, Status::Occurred, {9, 2}, "races/bugs/p/x_test.go")};
  CheckResult r = Check("races/bugs/p", ws, fs);
  EXPECT_TRUE(r.ok());
  fs.push_back(F(FindingKind::DataRace, Status::Occurred, {5, 6}, "races/bugs/p/x_test.go"));
  r = Check("races/bugs/p", ws, fs);
  EXPECT_EQ(r.unexpected.size(), 1u);
}

TEST(Wants, CheckRules) {
  std::vector<Want> ws;
  std::vector<std::string> problems;
  ParseWants("main.go",
             "package main\n"                                       // 1
             "\tch <- v // want: send-on-closed predicted\n"        // 2
             "\tmu.Lock() // want: double-lock occurred\n"          // 3
             "\t<-c // want: goroutine-leak occurred chan-recv\n",  // 4
             &ws, &problems);
  ASSERT_TRUE(problems.empty());
  std::vector<Finding> fs = {
      F(FindingKind::SendOnClosed, Status::Confirmed, {2}),        // predicted accepts confirmed
      F(FindingKind::DoubleLock, Status::Occurred, {3}),
      F(FindingKind::GlobalDeadlock, Status::Occurred, {9, 3}),   // covered by the double lock
      F(FindingKind::GoroutineLeak, Status::Occurred, {4}, "x/bugs/p/main.go", Primitive::ChanRecv),
      F(FindingKind::RecvOnClosed, Status::Occurred, {7}),        // a warning: allowed
  };
  CheckResult r = Check("/src/tests/corpus/bugs/p/", ws, fs);
  EXPECT_EQ(r.matched.size(), 3u);
  EXPECT_TRUE(r.missed.empty());
  EXPECT_TRUE(r.unexpected.empty()) << r.unexpected[0];

  // Wrong primitive, wrong status, other file, and an unexplained bug.
  fs = {F(FindingKind::GoroutineLeak, Status::Occurred, {4}, "bugs/p/main.go", Primitive::Select),
        F(FindingKind::SendOnClosed, Status::Unconfirmed, {2}),
        F(FindingKind::DoubleLock, Status::Occurred, {3}, "bugs/q/main.go"),
        F(FindingKind::Panic, Status::Occurred, {12})};
  r = Check("bugs/p", ws, fs);
  EXPECT_EQ(r.missed.size(), 3u);
  // Rule 2 asks only for a want of the same kind at a line: the leak and the
  // unconfirmed send are accounted for; the double lock in another program
  // and the panic are not.
  EXPECT_EQ(r.unexpected.size(), 2u);

  // With must_confirm, a predicted want of a replayed kind needs "confirmed".
  fs = {F(FindingKind::SendOnClosed, Status::Predicted, {2})};
  auto replayed = [](FindingKind k) { return k == FindingKind::SendOnClosed; };
  auto none = [](FindingKind) { return false; };
  EXPECT_EQ(Check("bugs/p", ws, fs).missed.size(), 2u);            // double lock, leak
  EXPECT_EQ(Check("bugs/p", ws, fs, none).missed.size(), 2u);
  EXPECT_EQ(Check("bugs/p", ws, fs, replayed).missed.size(), 3u);  // and the send
  fs[0].status = Status::Confirmed;
  EXPECT_EQ(Check("bugs/p", ws, fs, replayed).missed.size(), 2u);
}

TEST(Wants, NoWantForbidsAKindAtItsLine) {
  std::vector<Want> ws;
  std::vector<std::string> problems;
  ParseWants("main.go",
             "package main\n"                                      // 1
             "\tselect { // nowant: recv-on-closed\n"              // 2
             "\t<-done // nowant: recv-on-closed ; concurrent-recv\n"  // 3
             "\tx() // nowant: recv-on-closed occurred\n"          // 4: no status
             "\ty() // nowant: no-such-kind\n",                    // 5
             &ws, &problems);
  ASSERT_EQ(ws.size(), 3u);
  EXPECT_EQ(problems.size(), 2u);
  EXPECT_TRUE(ws[0].absent);
  EXPECT_EQ(ws[0].String(), "main.go:2 nowant recv-on-closed");
  EXPECT_EQ(ws[2].kind, FindingKind::ConcurrentRecv);
  // A warning elsewhere is allowed; one whose receive is on a nowant line
  // is not, even though warnings need no want; a finding that only names the
  // line as a further location is not about it.
  std::vector<Finding> fs = {F(FindingKind::RecvOnClosed, Status::Occurred, {7}),
                             F(FindingKind::RecvOnClosed, Status::Occurred, {9, 2})};
  CheckResult r = Check("bugs/p", ws, fs);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.matched.empty() && r.missed.empty());
  fs.push_back(F(FindingKind::RecvOnClosed, Status::Occurred, {2}));
  r = Check("bugs/p", ws, fs);
  ASSERT_EQ(r.unexpected.size(), 1u);
  EXPECT_NE(r.unexpected[0].find("nowant"), std::string::npos);
}

}  // namespace
}  // namespace gordian::corpus
