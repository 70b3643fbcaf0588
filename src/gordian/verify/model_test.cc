// Tests of the model's plain operations: Validate rejects each kind of bad
// operand with a message naming the template and pc, accepts a good model;
// Print lists every instruction kind.
#include "gordian/verify/model.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/verify/test_models.h"

namespace gordian::verify {
namespace {

using namespace testing;
using K = InstrKind;

// A valid two-template model: main makes a channel, starts a worker that
// sends on it, receives, ends.
Model Good() {
  return M({T("main", 2, {I(K::kMakeChan, 0, -1, -1, Expr::Const(0)), Go(1, {0}), I(K::kRecv, 0, 1), I(K::kEnd)}),
            T("worker", 1, {I(K::kSend, 0), I(K::kEnd)})});
}

TEST(VerifyModel, AcceptsAGoodModel) {
  std::string err;
  EXPECT_TRUE(Validate(Good(), &err)) << err;
}

// Breaks instruction pc of template t of Good() with f and expects an
// error naming that template and pc, and `want`.
void ExpectRejected(int t, int pc, void (*f)(Instr&), std::string_view want) {
  Model m = Good();
  f(m.templates[t].code[pc]);
  std::string err;
  ASSERT_FALSE(Validate(m, &err)) << want;
  EXPECT_NE(err.find(fmt::format("template {} ({}) pc {}", t, m.templates[t].name, pc)), std::string::npos) << err;
  EXPECT_NE(err.find(want), std::string::npos) << err;
}

TEST(VerifyModel, RejectsEachKindOfBadOperand) {
  ExpectRejected(0, 0, [](Instr& i) { i.a = 2; }, "operand a = 2 is not a local slot");
  ExpectRejected(0, 0, [](Instr& i) { i.a = -1; }, "operand a = -1 is not a local slot");
  ExpectRejected(0, 2, [](Instr& i) { i.b = 7; }, "operand b = 7");
  ExpectRejected(1, 0, [](Instr& i) { i = I(K::kJump, 5); }, "target a = 5 is not a pc");
  ExpectRejected(1, 0, [](Instr& i) { i = I(K::kBranch, 0, -1); }, "target b = -1");
  ExpectRejected(1, 0, [](Instr& i) { i = Choice({}); }, "at least one target");
  ExpectRejected(1, 0, [](Instr& i) { i = Choice({0, 9}); }, "target targets[] = 9");
  ExpectRejected(0, 1, [](Instr& i) { i.b = 5; }, "template b = 5 does not exist");
  ExpectRejected(0, 1, [](Instr& i) { i.b = 0; }, "cannot start the entry template");
  ExpectRejected(0, 1, [](Instr& i) { i.args = {0, 1}; }, "passes 2 arguments to template 1 which has 1 locals");
  ExpectRejected(0, 1, [](Instr& i) { i.args = {4}; }, "operand args[] = 4");
  ExpectRejected(0, 0, [](Instr& i) { i.expr = Expr::Param(0); }, "names parameter 0 (the model has 0)");
  ExpectRejected(0, 0, [](Instr& i) { i.expr = Expr::Local(3); }, "reads local 3 (the template has 2)");
  ExpectRejected(0, 0, [](Instr& i) { i.expr.nodes.push_back(ExprNode{.op = ExprOp::kAdd, .lhs = 0, .rhs = 1}); },
                 "operand 1 is not an earlier node");
  ExpectRejected(0, 0, [](Instr& i) { i.expr.nodes[0] = ExprNode{.op = ExprOp::kNeg, .lhs = -1}; },
                 "operand -1 is not an earlier node");
  ExpectRejected(0, 0, [](Instr& i) { i = I(K::kMakeCond, 0, 1, 2); }, "operand c = 2 must be -1, 0 or 1");
  ExpectRejected(0, 0, [](Instr& i) { i = I(K::kMakeContext, 0, 9); }, "operand b = 9");
  ExpectRejected(0, 0, [](Instr& i) { i = I(K::kTryLock, 0, -1); }, "operand b = -1");
  ExpectRejected(0, 0, [](Instr& i) { i = I(K::kOnceBegin, 0, 4); }, "target b = 4");
  ExpectRejected(0, 0, [](Instr& i) { i = Select({Case(false, 5, 1)}); }, "cases[0].chan");
  ExpectRejected(0, 0, [](Instr& i) { i = Select({Case(false, 0, 8)}); }, "cases[0].target");
  ExpectRejected(0, 0, [](Instr& i) { i = Select({Case(true, 0, 1, 1)}); }, "a send case has no ok slot");
  ExpectRejected(0, 0, [](Instr& i) { i = Select({Case(false, 0, 1)}, 12); }, "target a (default) = 12");
  ExpectRejected(0, 0, [](Instr& i) { i = I(K::kCall); }, "calls must be inlined");
  ExpectRejected(1, 1, [](Instr& i) { i = I(K::kNop); }, "falls off the end");
}

TEST(VerifyModel, RejectsBadTemplatesAndEmptyModels) {
  std::string err;
  Model m = Good();
  m.templates.clear();
  EXPECT_FALSE(Validate(m, &err));
  EXPECT_NE(err.find("no templates"), std::string::npos) << err;
  m = Good();
  m.templates[1].code.clear();
  EXPECT_FALSE(Validate(m, &err));
  EXPECT_NE(err.find("template 1 (worker)"), std::string::npos) << err;
  EXPECT_NE(err.find("no code"), std::string::npos) << err;
  m = Good();
  m.templates[0].environment = true;
  EXPECT_FALSE(Validate(m, &err));
  EXPECT_NE(err.find("environment"), std::string::npos) << err;
}

TEST(VerifyModel, PrintShowsEveryInstructionKind) {
  Model m = Good();
  m.params.push_back(Parameter{.name = "n", .source = "len(jobs)", .mandatory = true, .values = {1, 2}});
  Template all = T("all", 3, {});
  for (int k = 0; k <= static_cast<int>(K::kEnd); ++k) all.code.push_back(I(static_cast<K>(k), 0, 0, 0));
  all.code[static_cast<int>(K::kChoice)] = Choice({0, 1});
  all.code[static_cast<int>(K::kGo)] = Go(1, {2});
  all.code[static_cast<int>(K::kSelect)] = Select({Case(true, 0, 1), Case(false, 1, 2, 2)}, 3);
  all.code[static_cast<int>(K::kAssign)].expr = Bin(ExprOp::kSub, Expr::Param(0), Expr::Const(1));
  m.templates.push_back(all);
  const std::string out = Print(m);
  for (int k = 0; k <= static_cast<int>(K::kEnd); ++k) {
    const std::string line = fmt::format("{:3}: {}", k, InstrKindName(static_cast<K>(k)));
    EXPECT_NE(out.find(line), std::string::npos) << "missing '" << line << "' in\n" << out;
  }
  EXPECT_NE(out.find("param 0 n mandatory values 1,2 from len(jobs)"), std::string::npos) << out;
  EXPECT_NE(out.find("assign l0 = ($n - 1)"), std::string::npos) << out;
  EXPECT_NE(out.find("choice -> 0 | 1"), std::string::npos) << out;
  EXPECT_NE(out.find("go template 1 worker(l2)"), std::string::npos) << out;
  EXPECT_NE(out.find("select case send l0 -> 1; case recv l1 ok l2 -> 2; default -> 3"), std::string::npos) << out;
  EXPECT_NE(out.find("make-chan l0 cap 0"), std::string::npos) << out;
  EXPECT_NE(out.find("@test.go:1:1"), std::string::npos) << out;
  EXPECT_EQ(FormatExpr(m, Expr{}), "?");
  EXPECT_EQ(InstrKindName(K::kCondBroadcast), "cond-broadcast");
}

}  // namespace
}  // namespace gordian::verify
