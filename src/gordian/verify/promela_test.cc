// Tests of the Promela export's text (promela.h) without SPIN: file names
// are safe and distinct, the header carries the valuation and the
// checker's verdict, parameters become constants, and which SPIN verdict
// each kind maps to. (tests/verify/spin_crosscheck_test.cc runs SPIN.)
#include "gordian/verify/promela.h"

#include <gtest/gtest.h>

#include "gordian/verify/test_models.h"

namespace gordian::verify {
namespace {

using namespace testing;
using K = InstrKind;

Model Fill() {
  Parameter n;
  n.name = "len(jobs)";
  Model m = M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, Expr::Param(0)), I(K::kSend, 0), I(K::kEnd)})}, {n});
  m.entry = "example.com/m/pkg.(*Pool).Run$1";
  return m;
}

TEST(PromelaFileName, EscapesEverythingButSafeBytes) {
  const Model m = Fill();
  const std::string name = PromelaFileName(m, {3});
  EXPECT_EQ(name, "example.com%2Fm%2Fpkg.%28%2APool%29.Run%241@len%28jobs%29%3D3.pml");
  EXPECT_NE(PromelaFileName(m, {3}), PromelaFileName(m, {4}));
  for (char c : name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || std::string("._-%@").find(c) != std::string::npos) << c;
}

TEST(PromelaFileName, NoHiddenFilesAndBoundedLength) {
  Model m = Fill();
  m.params.clear();
  m.entry = "..";
  EXPECT_EQ(PromelaFileName(m, {}), "_...pml");
  m.entry = std::string(400, 'x');
  const std::string a = PromelaFileName(m, {});
  m.entry = std::string(399, 'x') + "y";
  const std::string b = PromelaFileName(m, {});
  EXPECT_LE(a.size(), 210u);
  EXPECT_NE(a, b);  // the hash of the whole name tells them apart
}

TEST(ToPromela, HeaderParametersAndVerdict) {
  const Model m = Fill();
  SpinVerdict v;
  v.end_state = true;
  v.kinds = "global-deadlock";
  PromelaOptions o;
  o.verdict = &v;
  o.states = 7;
  const std::string text = ToPromela(m, {2}, o);
  EXPECT_EQ(text.rfind(kPromelaMarker, 0), 0u);
  EXPECT_NE(text.find("/* valuation: len(jobs)=2 */"), std::string::npos);
  EXPECT_NE(text.find("gordian-verdict: assertion=0 end_state=1 bounded=0 states=7"), std::string::npos);
  EXPECT_NE(text.find("#define PARAM0 (2)"), std::string::npos);
  EXPECT_NE(text.find("_v = PARAM0"), std::string::npos);
  EXPECT_NE(text.find("proctype Proc0(int l0)"), std::string::npos);
  EXPECT_NE(text.find("run Proc0(-1)"), std::string::npos);
  // An entry name cannot end the comment it is quoted in.
  Model evil = m;
  evil.entry = "a*/b";
  EXPECT_EQ(ToPromela(evil, {2}, o).find("a*/b"), std::string::npos);
}

TEST(ToPromela, EnvironmentTemplatesEndAnywhere) {
  Model m = M({T("main", 0, {Go(1, {}), I(K::kEnd)}), T("env", 0, {I(K::kNop), I(K::kEnd)}, true)});
  const std::string text = ToPromela(m, {}, PromelaOptions{});
  EXPECT_NE(text.find("endL0: skip"), std::string::npos);  // the environment's pc 0
  EXPECT_NE(text.find("  L0: run Proc1()"), std::string::npos);
}

TEST(VerdictOf, KindsMapToAssertionOrEndState) {
  CheckResult r;
  Violation panic;
  panic.kind = report::FindingKind::SendOnClosed;
  Violation leak;
  leak.kind = report::FindingKind::GoroutineLeak;
  Violation dl;  // a process at a Lock it holds: one step
  dl.kind = report::FindingKind::DoubleLock;
  dl.where.resize(1);
  Violation rdl;  // a read lock behind a writer waiting for that reader: stuck
  rdl.kind = report::FindingKind::DoubleLock;
  rdl.where.resize(2);
  EXPECT_TRUE(IsAssertionKind(panic));
  EXPECT_FALSE(IsAssertionKind(leak));
  EXPECT_TRUE(IsAssertionKind(dl));
  EXPECT_FALSE(IsAssertionKind(rdl));
  r.violations = {leak};
  SpinVerdict v = VerdictOf(r);
  EXPECT_FALSE(v.assertion);
  EXPECT_TRUE(v.end_state);
  r.violations = {panic, dl};
  v = VerdictOf(r);
  EXPECT_TRUE(v.assertion);
  EXPECT_FALSE(v.end_state);
  EXPECT_EQ(v.kinds, "send-on-closed,double-lock");
}

}  // namespace
}  // namespace gordian::verify
