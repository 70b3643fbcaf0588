// Tests of checking a model over its parameters' valuations
// (verify_model.h) with the real checker: which valuations are tried and in
// what order (mandatory parameters over their values, optional ones at the
// first, -param overrides, the cap), the message naming the smallest
// failing valuation, and the finding's kind, status, locations and steps.
#include "gordian/verify/verify_model.h"

#include <gtest/gtest.h>

#include "gordian/verify/test_models.h"

namespace gordian::verify {
namespace {

using namespace testing;
using K = InstrKind;

Parameter Param(const std::string& name, bool mandatory, std::vector<int64_t> values) {
  Parameter p;
  p.name = name;
  p.mandatory = mandatory;
  p.values = std::move(values);
  return p;
}

// main makes a channel of capacity 3 and sends $n values into it with no
// reader: it blocks for ever from n = 4 on.
Model Fill() {
  Model m = M({T("main", 2,
                 {I(K::kMakeChan, 0, -1, -1, Expr::Const(3)),  // 0
                  I(K::kAssign, 1, -1, -1, Expr::Const(0)),    // 1
                  I(K::kBranch, 3, 5)                          // 2: i < n
                      ,
                  I(K::kSend, 0),                              // 3
                  I(K::kJump, 6),                              // 4
                  I(K::kEnd),                                  // 5
                  I(K::kAssign, 1), I(K::kJump, 2)})});
  // 2: branch on (l1 < $0); 6: l1 = l1 + 1.
  Expr cond;
  cond.nodes = {{ExprOp::kLocal, 0, 1}, {ExprOp::kParam, 0, 0}, {ExprOp::kLt, 0, 0, 0, 1}};
  m.templates[0].code[2].expr = cond;
  Expr inc;
  inc.nodes = {{ExprOp::kLocal, 0, 1}, {ExprOp::kConst, 1}, {ExprOp::kAdd, 0, 0, 0, 1}};
  m.templates[0].code[6].expr = inc;
  m.params = {Param("n", true, {0, 1, 2, 3, 4, 5})};
  m.entry = "m.Fill";
  m.files = {"fill.go"};
  for (Instr& in : m.templates[0].code) in.pos = ir::Pos{0, 7, 3};
  return m;
}

TEST(VerifyValuations, ModelIsValid) {
  std::string err;
  EXPECT_TRUE(Validate(Fill(), &err)) << err;
}

TEST(VerifyValuations, MandatoryOverValuesOptionalAtFirstSmallestSumFirst) {
  Model m;
  m.params = {Param("a", true, {0, 1, 2}), Param("b", false, {7, 8}), Param("c", true, {0, 1})};
  VerifyOptions o;
  size_t all = 0;
  auto v = Valuations(m, o, &all);
  EXPECT_EQ(all, 6u);
  ASSERT_EQ(v.size(), 6u);
  EXPECT_EQ(v[0], (std::vector<int64_t>{0, 7, 0}));
  for (const auto& x : v) EXPECT_EQ(x[1], 7);  // optional: first value only
  // Sums of indexes never decrease.
  EXPECT_EQ(v.back(), (std::vector<int64_t>{2, 7, 1}));
  // -param gives an optional parameter all its values, and replaces a mandatory one's.
  o.param_values["b"] = {7, 8};
  o.param_values["a"] = {5};
  v = Valuations(m, o, &all);
  EXPECT_EQ(all, 4u);
  for (const auto& x : v) EXPECT_EQ(x[0], 5);
  // The cap keeps the smallest.
  o.max_valuations = 1;
  v = Valuations(m, o, &all);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(all, 4u);
  EXPECT_EQ(v[0], (std::vector<int64_t>{5, 7, 0}));
}

TEST(VerifyValuations, MessageNamesTheSmallestFailingValue) {
  ModelResult r = VerifyModel(Fill(), {});
  EXPECT_EQ(r.valuations, 6u);
  ASSERT_EQ(r.findings.size(), 1u);
  const report::Finding& f = r.findings[0];
  EXPECT_EQ(f.kind, report::FindingKind::GlobalDeadlock);
  EXPECT_EQ(f.status, report::Status::Predicted);
  EXPECT_NE(f.message.find("when n >= 4"), std::string::npos) << f.message;
  ASSERT_FALSE(f.locations.empty());
  EXPECT_EQ(f.locations[0].file, "fill.go");
  EXPECT_EQ(f.locations[0].line, 7u);
  EXPECT_EQ(f.locations[0].role, report::Role::Send);
  EXPECT_EQ(f.locations[0].goroutine, "process 0");
  // The interleaving has the sends but no control-flow glue.
  int sends = 0;
  for (const report::Step& s : f.interleaving) {
    EXPECT_NE(s.what, "assign");
    EXPECT_NE(s.what, "jump");
    sends += s.what == "send";
  }
  EXPECT_EQ(sends, 4);  // three fill the buffer, the fourth blocks
}

TEST(VerifyValuations, ParamValuesBelowTheBoundFindNothing) {
  VerifyOptions o;
  o.param_values["n"] = {0, 1, 3};
  ModelResult r = VerifyModel(Fill(), o);
  EXPECT_EQ(r.valuations, 3u);
  EXPECT_TRUE(r.findings.empty());
  o.param_values["n"] = {9};
  r = VerifyModel(Fill(), o);
  ASSERT_EQ(r.findings.size(), 1u);
  // Failing for every valuation tried: no "when".
  EXPECT_EQ(r.findings[0].message.find("when"), std::string::npos) << r.findings[0].message;
}

// Seed 002's score: n = 4 and 5 of the six valuations fail. The path of
// Fill branches on the mandatory n only; on an optional parameter (data,
// tried at one value) or on an unknown condition it says so.
TEST(VerifyValuations, ScoreCountsFailingValuationsAndUntrackedBranches) {
  ModelResult r = VerifyModel(Fill(), {});
  ASSERT_EQ(r.findings.size(), 1u);
  ASSERT_TRUE(r.findings[0].score.has_value());
  EXPECT_EQ(r.findings[0].score->failing, 2u);
  EXPECT_EQ(r.findings[0].score->checked, 6u);
  EXPECT_FALSE(r.findings[0].score->untracked_data);

  Model opt = Fill();
  opt.params[0].mandatory = false;
  opt.params[0].values = {4};
  r = VerifyModel(opt, {});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].score->failing, 1u);
  EXPECT_EQ(r.findings[0].score->checked, 1u);
  EXPECT_TRUE(r.findings[0].score->untracked_data);

  Model unknown = Fill();
  unknown.params.clear();
  unknown.templates[0].code[2].expr = Expr{};  // either way
  r = VerifyModel(unknown, {});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_TRUE(r.findings[0].score->untracked_data);
}

TEST(VerifyValuations, RelativeFilesAreJoinedToTheRoot) {
  VerifyOptions o;
  o.root = "/src/m";
  ModelResult r = VerifyModel(Fill(), o);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].locations[0].file, "/src/m/fill.go");
}

}  // namespace
}  // namespace gordian::verify
