// Tests RunTimelineOf (timeline_of_trace.h) on a hand-written trace: lanes named
// by goroutine, function and spawn site; operations in stamp order with the
// bookkeeping records left out; the objects and value numbers that pair a
// send with its receive; blocked operations; the size limit.
#include "gordian/pipeline/timeline_of_trace.h"

#include <gtest/gtest.h>

#include "gordian/trace/writer.h"
#include "gordian/trace/written_trace_test.h"
#include "gordian/util/temp_dir_test.h"

namespace gordian::pipeline {
namespace {

using trace::Kind;

class RunTimelineTest : public util::TempDirTest {};

TEST_F(RunTimelineTest, LanesOpsInStampOrderAndPartners) {
  trace::TraceWriter w;
  const uint32_t main_site = w.AddSite("/m/main.go", 10, "main.main");
  const uint32_t go_site = w.AddSite("/m/main.go", 12, "main.main");
  const uint32_t work = w.AddSite("/m/work.go", 5, "main.worker");
  const uint32_t ch = w.NewObject(), mu = w.NewObject();
  w.Op(1, Kind::ChanMake, ch, 0, main_site);
  uint32_t g = w.Go(1, go_site);                              // GoSpawn (drawn), GoStart (not)
  auto recv = w.Pre(1, Kind::ChanRecv, ch, main_site);        // main waits first
  w.Op(g, Kind::ChanSend, ch, 1, work);                       // value 1
  w.Post(recv, 1);                                            // got value 1
  w.Post(w.Pre(g, Kind::MutexLock, mu, work), 0);
  w.Op(g, Kind::MutexUnlock, mu, 0, work);
  w.Pre(g, Kind::ChanRecv, ch, work);                         // never completes
  trace::Trace t = trace::WrittenTrace(w, dir_ + "/t");

  report::RunTimeline tl = RunTimelineOf(t, "example.com/m");
  EXPECT_EQ(tl.name, "example.com/m");
  ASSERT_EQ(tl.lanes.size(), 2u);
  EXPECT_EQ(tl.lanes[0], "1 main.main (main goroutine)");
  EXPECT_EQ(tl.lanes[1], "1.0 main.worker (spawned at /m/main.go:12)");

  // make, go, recv (by its start), send, lock, unlock, recv.
  std::vector<std::string> ops, roles;
  for (size_t i = 0; i < tl.size(); i++) {
    ops.push_back(tl.ops[tl.op[i]]);
    roles.push_back(tl.op_roles[tl.op[i]]);
  }
  EXPECT_EQ(ops, (std::vector<std::string>{"make(chan)", "go statement", "receive", "send",
                                           "Lock", "Unlock", "receive"}));
  EXPECT_EQ(roles, (std::vector<std::string>{"other", "spawn", "recv", "send", "lock",
                                             "unlock", "recv"}));
  EXPECT_EQ(tl.lane, (std::vector<uint32_t>{0, 0, 0, 1, 1, 1, 1}));
  // The receive and the send moved value 1 of the same channel.
  EXPECT_NE(tl.object[2], 0u);
  EXPECT_EQ(tl.object[2], tl.object[3]);
  EXPECT_EQ(tl.seq[2], 1u);
  EXPECT_EQ(tl.seq[3], 1u);
  // The lock and unlock are on one object, another than the channel's.
  EXPECT_EQ(tl.object[4], tl.object[5]);
  EXPECT_NE(tl.object[4], tl.object[2]);
  EXPECT_EQ(tl.blocked, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(tl.sites[tl.site[3]], "/m/work.go:5 main.worker");
  EXPECT_EQ(tl.dropped, 0u);

  report::RunTimeline cut = RunTimelineOf(t, "x", 3);
  EXPECT_EQ(cut.size(), 3u);
  EXPECT_EQ(cut.dropped, 4u);
}

}  // namespace
}  // namespace gordian::pipeline
