// Tests AnalyzeTrace (analyze_trace.h): each trace is indexed once
// (hb/op_index.h), however many analyses read the index.
#include "gordian/pipeline/analyze_trace.h"

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gordian/hb/op_index.h"
#include "gordian/report/finding.h"
#include "gordian/trace/writer.h"

namespace gordian::pipeline {
namespace {

namespace fs = std::filesystem;
using trace::Kind;
using trace::TraceWriter;

// Two goroutines take two mutexes in opposite orders (a lock-order finding:
// the predictive detectors build their second engine, without mutex edges),
// a third sends on a channel main closed (an occurred panic), and a fourth
// is left blocked on a receive (a leak).
TraceWriter Program() {
  TraceWriter w;
  const uint32_t s = w.AddSite("/p/main.go", 5, "main.main");
  const uint32_t a = w.NewObject(), b = w.NewObject();
  const uint32_t ch = w.NewObject(), never = w.NewObject();
  for (uint32_t c : {ch, never}) w.Op(1, Kind::ChanMake, c, c == ch ? 1 : 0, s);
  std::vector<uint32_t> g;
  for (int k = 0; k < 4; ++k) g.push_back(w.Go(1, s));
  const uint32_t g1 = g[0], g2 = g[1], g3 = g[2], g4 = g[3];
  auto lock = [&](uint32_t g, uint32_t m) { w.Post(w.Pre(g, Kind::MutexLock, m, s), 0); };
  lock(g1, a);
  lock(g1, b);
  w.Op(g1, Kind::MutexUnlock, b, 0, s);
  w.Op(g1, Kind::MutexUnlock, a, 0, s);
  lock(g2, b);
  lock(g2, a);
  w.Op(g2, Kind::MutexUnlock, a, 0, s);
  w.Op(g2, Kind::MutexUnlock, b, 0, s);
  w.Op(1, Kind::ChanClose, ch, 0, s);
  w.Pre(g3, Kind::ChanSend, ch, s, trace::kClosed);
  w.Op(g3, Kind::Panic, 0, w.AddString("send on closed channel"), s);
  w.Pre(g4, Kind::ChanRecv, never, s);
  return w;
}

TEST(AnalyzeTrace, IndexesTheTraceOnce) {
  std::string tmpl = (fs::temp_directory_path() / "gordian-analyze-test-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  std::string err;
  ASSERT_TRUE(Program().Write(tmpl + "/trace", &err)) << err;
  std::vector<report::Finding> found;
  uint64_t before = hb::OpIndex::Builds();
  ASSERT_TRUE(AnalyzeTrace("test", tmpl + "/trace", AnalyzeOptions{}, &found, &err)) << err;
  EXPECT_EQ(hb::OpIndex::Builds() - before, 1u);
  // The analyses that read the index ran: occurred and predicted findings.
  bool occurred = false, predicted = false;
  for (const report::Finding& f : found) {
    occurred = occurred || f.status != report::Status::Predicted;
    predicted = predicted || f.status == report::Status::Predicted;
  }
  EXPECT_TRUE(occurred);
  EXPECT_TRUE(predicted);
  fs::remove_all(tmpl);
}

}  // namespace
}  // namespace gordian::pipeline
