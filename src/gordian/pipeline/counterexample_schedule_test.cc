// Unit tests of the mapping of a verify counterexample onto a recorded run
// (counterexample_schedule.h), on a text trace whose record sites are its
// own lines (trace/text.h) and a hand-made model at the same lines.
#include "gordian/pipeline/counterexample_schedule.h"

#include <gtest/gtest.h>

#include "gordian/trace/text.h"
#include "gordian/verify/test_models.h"

namespace gordian::pipeline {
namespace {

using verify::CheckStep;
using verify::InstrKind;
using verify::testing::Go;
using verify::testing::I;

// Line numbers are the text's: the model's positions point at them.
constexpr const char* kTrace =
    "// main makes a channel, starts a receiver twice, sends twice\n"  // 1
    "1 ChanMake obj=1\n"                                                // 2
    "1 go 2\n"                                                          // 3
    "1 go 3\n"                                                          // 4
    "r: 2 ChanRecv obj=1 val=1 open\n"                                  // 5
    "1 ChanSend obj=1 val=1\n"                                          // 6
    "end r\n"                                                           // 7
    "1 ChanSend obj=1 val=2\n"                                          // 8
    "3 ChanRecv obj=1 val=2\n";                                         // 9

ir::Pos Line(int l) {
  ir::Pos p;
  p.file = 0;
  p.line = l;
  return p;
}

// main: make (2), go (3), go (3 again: a loop), send (6), send (8), end;
// the receiver: receive (5), end. The second receiver's receive is at line
// 9 in the trace; the model has the receiver's receive at 5, so only one
// receiver's receive matches unless the model says 9.
verify::Model TwoReceivers(int second_recv_line) {
  verify::Model m;
  m.entry = "p.Run";
  m.files = {"p.go"};
  verify::Template main;
  main.name = "p.Run";
  main.num_locals = 1;
  main.code = {I(InstrKind::kMakeChan, 0, -1, -1, verify::Expr::Const(0)), Go(1, {0}), Go(2, {0}),
               I(InstrKind::kSend, 0), I(InstrKind::kSend, 0), I(InstrKind::kEnd)};
  int lines[] = {2, 3, 4, 6, 8, 0};
  for (size_t i = 0; i < main.code.size(); i++) main.code[i].pos = Line(lines[i]);
  verify::Template r1, r2;
  r1.name = "p.Run$1";
  r1.num_locals = 1;
  r1.code = {I(InstrKind::kRecv, 0), I(InstrKind::kEnd)};
  r1.code[0].pos = Line(5);
  r2 = r1;
  r2.name = "p.Run$2";
  r2.code[0].pos = Line(second_recv_line);
  m.templates = {main, r1, r2};
  return m;
}

CheckStep Step(int32_t p, int32_t t, int32_t pc, bool blocks = false) {
  return {.process = p, .template_index = t, .pc = pc, .blocks = blocks};
}

trace::Trace TwoReceiversRun() {
  trace::Trace t;
  std::string err;
  EXPECT_TRUE(trace::ParseTextTrace(kTrace, "/src/p.go", &t, &err)) << err;
  return t;
}

TEST(CounterexampleSchedule, OrdersTheMatchedOperationsAsTheCounterexampleDoes) {
  trace::Trace t = TwoReceiversRun();
  verify::Model m = TwoReceivers(9);
  verify::Violation v;
  v.kind = report::FindingKind::GoroutineLeak;
  // The second receiver receives first, then main sends twice; the first
  // receiver is left blocked (the recording had the other order).
  v.steps = {Step(0, 0, 0), Step(0, 0, 1), Step(0, 0, 2), Step(0, 0, 3), Step(2, 2, 0),
             Step(0, 0, 4), Step(1, 1, 0, true)};
  schedule::Schedule s;
  std::string why;
  ASSERT_TRUE(ScheduleFromCounterexample(m, v, t, "/nonexistent", "/src", &s, &why)) << why;
  ASSERT_EQ(s.ops.size(), 4u);
  // Goroutines by spawn path: main "1", receivers "1.0" and "1.1".
  auto path = [&](const schedule::Op& o) { return s.goroutines.at(o.g); };
  EXPECT_EQ(path(s.ops[0]), "1");
  EXPECT_EQ(s.ops[0].kind, trace::Kind::ChanSend);
  EXPECT_EQ(s.ops[0].index, 0u);
  EXPECT_EQ(path(s.ops[1]), "1.1");  // the second `go`'s goroutine
  EXPECT_EQ(s.ops[1].kind, trace::Kind::ChanRecv);
  EXPECT_EQ(path(s.ops[2]), "1");
  EXPECT_EQ(s.ops[2].index, 1u);  // the second send: the next occurrence
  EXPECT_EQ(path(s.ops[3]), "1.0");
  EXPECT_TRUE(s.ops[3].blocks);
  EXPECT_FALSE(s.ops[0].blocks);
  EXPECT_EQ(s.expect, "goroutine-leak");
  EXPECT_EQ(s.ops[0].site, "/src/p.go:6");
}

TEST(CounterexampleSchedule, AStepWithoutARecordedMatchIsRefusedWithItsReason) {
  trace::Trace t = TwoReceiversRun();
  verify::Model m = TwoReceivers(7);  // the recording has no receive at line 7
  verify::Violation v;
  v.steps = {Step(0, 0, 0), Step(0, 0, 1), Step(0, 0, 2), Step(2, 2, 0)};
  schedule::Schedule s;
  std::string why;
  EXPECT_FALSE(ScheduleFromCounterexample(m, v, t, "/nonexistent", "/src", &s, &why));
  EXPECT_NE(why.find("step 4"), std::string::npos) << why;
  EXPECT_NE(why.find("p.go:7"), std::string::npos) << why;
}

TEST(CounterexampleSchedule, AGoWithoutARecordedSpawnIsRefused) {
  trace::Trace t = TwoReceiversRun();
  verify::Model m = TwoReceivers(9);
  m.templates[0].code[2].pos = Line(1);  // no GoSpawn at line 1
  verify::Violation v;
  v.steps = {Step(0, 0, 0), Step(0, 0, 1), Step(0, 0, 2)};
  schedule::Schedule s;
  std::string why;
  EXPECT_FALSE(ScheduleFromCounterexample(m, v, t, "/nonexistent", "/src", &s, &why));
  EXPECT_NE(why.find("go statement"), std::string::npos) << why;
}

// select { case a <- 1: case <-b: case c <- 2: case <-d: case <-e: }
// as cmd/compile lays it out for the runtime (and the trace): the sends
// a, c at 0, 1 in source order; the receives from the back, b at 4, d at 3,
// e at 2. A counterexample that takes <-b must force runtime case 4.
TEST(CounterexampleSchedule, SelectCasesMapToTheCompilersOrder) {
  verify::Instr sel;
  sel.kind = InstrKind::kSelect;
  for (bool send : {true, false, true, false, false}) {
    verify::SelectCase c;
    c.send = send;
    sel.cases.push_back(c);
  }
  EXPECT_EQ(RuntimeSelectCase(sel, 0), 0);
  EXPECT_EQ(RuntimeSelectCase(sel, 1), 4);
  EXPECT_EQ(RuntimeSelectCase(sel, 2), 1);
  EXPECT_EQ(RuntimeSelectCase(sel, 3), 3);
  EXPECT_EQ(RuntimeSelectCase(sel, 4), 2);
  EXPECT_EQ(RuntimeSelectCase(sel, -1), schedule::kChoiceDefault);
  EXPECT_EQ(RuntimeSelectCase(sel, 5), schedule::kChoiceDefault);
}

}  // namespace
}  // namespace gordian::pipeline
