// Tests of checking a model over its parameters' valuations
// (verify_model.h) with the real checker: which valuations are tried and in
// what order (mandatory parameters over their values, optional ones at the
// first, -param overrides, the cap), the message naming the smallest
// failing valuation, and the finding's kind, status, locations and steps.
#include "gordian/verify/verify_model.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>

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
  EXPECT_EQ(f.locations[0].goroutine, "entry");
  // The interleaving has the sends but no control-flow glue.
  int sends = 0;
  for (const report::Step& s : f.interleaving) {
    EXPECT_NE(s.what, "assign");
    EXPECT_NE(s.what, "jump");
    sends += s.what == "send";
  }
  EXPECT_EQ(sends, 4);  // three fill the buffer, the fourth blocks
}

// main starts a sender on an unbuffered channel and selects on it against
// a timer: when the timer fires first, the sender blocks forever.
Model TimerLeak() {
  Model m = M({T("main", 2,
                 {I(K::kMakeChan, 0, -1, -1, C(0)),                 // line 1
                  I(K::kMakeTimer, 1),                              // line 2
                  Go(1, {0}),                                       // line 3
                  Select({Case(false, 0, 4), Case(false, 1, 4)}),  // line 4
                  I(K::kEnd)}),
               T("sender", 1, {I(K::kSend, 0), I(K::kEnd)})});
  m.templates[1].pos = ir::Pos{0, 3, 5};  // its go statement
  return m;
}

// The report names a model's goroutines by where they were spawned, and a
// timer's firing by the site that made the timer.
TEST(VerifyValuations, GoroutinesAndTimersAreNamedByTheirSites) {
  ModelResult r = VerifyModel(TimerLeak(), {});
  const report::Finding* leak = nullptr;
  for (const report::Finding& f : r.findings) {
    if (f.kind == report::FindingKind::GoroutineLeak) leak = &f;
  }
  ASSERT_NE(leak, nullptr);
  ASSERT_FALSE(leak->locations.empty());
  EXPECT_EQ(leak->locations[0].goroutine, "go@test.go:3");
  bool fired = false;
  for (const report::Step& s : leak->interleaving) {
    EXPECT_FALSE(s.loc.goroutine.empty()) << s.what;
    EXPECT_EQ(s.loc.goroutine.find("process"), std::string::npos) << s.loc.goroutine;
    if (s.loc.goroutine == "timer@test.go:2") {
      fired = true;
      EXPECT_EQ(s.what, "the timer made here fires");
      EXPECT_EQ(s.loc.file, "test.go");
      EXPECT_EQ(s.loc.line, 2u);
    }
  }
  EXPECT_TRUE(fired) << "no step of the timer made at test.go:2";
  std::vector<std::string> ids;
  for (const report::GoroutineInfo& g : leak->goroutines) ids.push_back(g.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"go@test.go:3", "entry"}));
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

// Gomela's score: n = 4 and 5 of the six valuations fail. The path of
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

// An explicit panic() is a warning (mostly deliberate); a runtime panic
// the model knows (a channel made with a negative capacity) stays a bug.
TEST(VerifyValuations, AnExplicitPanicIsAWarning) {
  Model explicit_panic = M({T("main", 0, {I(K::kPanic)})});
  explicit_panic.entry = "m.Check";
  ModelResult r = VerifyModel(explicit_panic, {});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, report::FindingKind::Panic);
  EXPECT_EQ(r.findings[0].severity, report::Severity::Warning);

  Model negative = M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, Expr::Const(-1)), I(K::kEnd)})});
  negative.entry = "m.Make";
  r = VerifyModel(negative, {});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, report::FindingKind::Panic);
  EXPECT_EQ(r.findings[0].severity, report::Severity::Bug);
}

TEST(VerifyValuations, RelativeFilesAreJoinedToTheRoot) {
  VerifyOptions o;
  o.root = "/src/m";
  ModelResult r = VerifyModel(Fill(), o);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].locations[0].file, "/src/m/fill.go");
}

// The budget of one model (VerifyOptions::max_model_states and
// max_model_seconds) spans all its valuations.
uint64_t StatesOf(const Model& m, int64_t n) {
  VerifyOptions o;
  o.param_values["n"] = {n};
  return VerifyModel(m, o).states;
}

TEST(VerifyBudget, AModelUnderTheBudgetIsUnaffected) {
  const Model m = Fill();
  ModelResult free = VerifyModel(m, {});
  ASSERT_FALSE(free.bounded) << free.bound_reason;
  uint64_t sum = 0;
  for (int64_t n = 0; n <= 5; n++) sum += StatesOf(m, n);
  EXPECT_EQ(free.states, sum);
  VerifyOptions o;
  o.max_model_states = sum + 1;
  o.max_model_seconds = 60;
  ModelResult r = VerifyModel(m, o);
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_FALSE(r.out_of_budget);
  EXPECT_EQ(r.states, free.states);
  EXPECT_EQ(r.valuations, 6u);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].message, free.findings[0].message);
}

TEST(VerifyBudget, AModelOverTheBudgetStopsAtItAndKeepsItsFindings) {
  const Model m = Fill();
  // Enough for n = 0..4 (the bug shows at 4) and a few states of n = 5.
  uint64_t upto4 = 0;
  for (int64_t n = 0; n <= 4; n++) upto4 += StatesOf(m, n);
  ASSERT_GT(StatesOf(m, 5), 3u);
  VerifyOptions o;
  o.max_model_states = upto4 + 2;
  ModelResult r = VerifyModel(m, o);
  EXPECT_TRUE(r.bounded);
  EXPECT_TRUE(r.out_of_budget);
  EXPECT_EQ(r.states, upto4 + 2);
  EXPECT_EQ(r.valuations, 6u);  // the sixth was started, not finished
  EXPECT_EQ(r.bound_reason, fmt::format("bounded: {} states (-max-model-states), 5 of 6 valuations finished",
                                        upto4 + 2));
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_NE(r.findings[0].message.find("when n >= 4"), std::string::npos) << r.findings[0].message;
  // The score is over the five valuations finished (n = 4 failed).
  ASSERT_TRUE(r.findings[0].score.has_value());
  EXPECT_EQ(r.findings[0].score->failing, 1u);
  EXPECT_EQ(r.findings[0].score->checked, 5u);
  // A budget spent by the first valuations leaves the others unchecked.
  o.max_model_states = StatesOf(m, 0);
  r = VerifyModel(m, o);
  EXPECT_TRUE(r.out_of_budget);
  EXPECT_LE(r.states, o.max_model_states);
  EXPECT_LT(r.valuations, 3u);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_NE(r.bound_reason.find("valuations finished"), std::string::npos) << r.bound_reason;
}

// main adds 1 to a WaitGroup for ever: every state is new, the search never
// ends by itself.
Model Grow() {
  Model m = M({T("main", 1,
                 {I(K::kMakeWaitGroup, 0), I(K::kWgAdd, 0, -1, -1, Expr::Const(1)), I(K::kJump, 1)})});
  m.entry = "m.Grow";
  return m;
}

TEST(VerifyBudget, AnEndlessModelStopsAtTheStateBudget) {
  VerifyOptions o;
  o.check.max_depth = 100'000'000;
  o.max_model_states = 5'000;
  ModelResult r = VerifyModel(Grow(), o);
  EXPECT_TRUE(r.bounded);
  EXPECT_TRUE(r.out_of_budget);
  EXPECT_EQ(r.states, 5'000u);
  EXPECT_EQ(r.bound_reason.rfind("bounded: 5000 states (-max-model-states)", 0), 0u) << r.bound_reason;
}

TEST(VerifyBudget, AnEndlessModelStopsAtTheWallBudget) {
  VerifyOptions o;
  o.check.max_depth = 100'000'000;
  o.check.max_states = 1'000'000'000;
  o.max_model_states = 1'000'000'000;
  o.max_model_seconds = 0.3;
  const auto t0 = std::chrono::steady_clock::now();
  ModelResult r = VerifyModel(Grow(), o);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.bounded);
  EXPECT_TRUE(r.out_of_budget);
  EXPECT_GE(secs, 0.3);
  EXPECT_LT(secs, 10.0);  // a loaded machine, but nowhere near a billion states
  EXPECT_GT(r.states, 0u);
  EXPECT_NE(r.bound_reason.find("in 0.3 s (-max-model-time)"), std::string::npos) << r.bound_reason;
}

}  // namespace
}  // namespace gordian::verify
