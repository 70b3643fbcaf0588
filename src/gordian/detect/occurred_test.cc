// Tests of the occurred detectors (occurred.h) on hand-built traces: what a
// golden file (testdata/golden/occurred_*.trace) cannot say, such as the
// goroutines a finding lists with their spawn sites. The rest of the
// occurred detectors' tests are golden files.
#include "gordian/detect/occurred.h"

#include <gtest/gtest.h>

#include "gordian/detect/trace_builder_test.h"

namespace gordian::detect {
namespace {

using report::Finding;
using report::FindingKind;
using report::Role;
using testing::TraceBuilder;
using trace::Kind;

std::string Kinds(const std::vector<Finding>& all) {
  std::string s;
  for (const Finding& f : all) s += std::string(report::KindName(f.kind)) + " ";
  return s;
}

TEST(OccurredClosed, SendOnClosed) {
  TraceBuilder b;
  uint32_t mk = b.Site("main.go", 5), spawn = b.Site("main.go", 6),
           cl = b.Site("main.go", 10), send = b.Site("main.go", 12);
  b.Op(1, Kind::ChanMake, mk, 1, 0);
  uint32_t g = b.Go(1, spawn);
  b.Op(g, Kind::ChanClose, cl, 1, 0);
  b.Begin(1, Kind::ChanSend, send, 1, 0, trace::kClosed);
  b.Op(1, Kind::Panic, send, 0, b.Str("send on closed channel"));
  trace::Trace t = b.Build();
  auto all = DetectOccurred(t);
  ASSERT_EQ(all.size(), 1u) << Kinds(all);
  const Finding& f = all[0];
  EXPECT_EQ(f.kind, FindingKind::SendOnClosed);
  EXPECT_EQ(f.status, report::Status::Occurred);
  EXPECT_EQ(f.severity, report::Severity::Bug);
  ASSERT_EQ(f.locations.size(), 2u);
  EXPECT_EQ(f.locations[0].line, 12u);
  EXPECT_EQ(f.locations[0].role, Role::Send);
  EXPECT_EQ(f.locations[0].goroutine, "1");
  EXPECT_EQ(f.locations[0].file, "/mod/main.go");
  EXPECT_EQ(f.locations[1].line, 10u);
  EXPECT_EQ(f.locations[1].role, Role::Close);
  EXPECT_EQ(f.locations[1].goroutine, "1.0");
  EXPECT_NE(f.message.find("closed by goroutine 1.0 at main.go:10"), std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("made at main.go:5"), std::string::npos) << f.message;
  // Interleaving in stamp order: the close, then the send.
  ASSERT_EQ(f.interleaving.size(), 2u);
  EXPECT_EQ(f.interleaving[0].loc.line, 10u);
  EXPECT_EQ(f.interleaving[1].loc.line, 12u);
  // Both goroutines, with the spawn site of 1.0.
  ASSERT_EQ(f.goroutines.size(), 2u);
  EXPECT_EQ(f.goroutines[1].id, "1.0");
  EXPECT_EQ(f.goroutines[1].spawn_line, 6u);
}

}  // namespace
}  // namespace gordian::detect
