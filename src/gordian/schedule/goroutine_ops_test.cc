// Tests of GoroutineOps (each goroutine's controlled operations, by index
// and by stable id) and SiteIs (a site compared with its "file:line" text).
#include "gordian/schedule/goroutine_ops.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "gordian/schedule/schedule.h"

namespace gordian::schedule {
namespace {

using trace::Kind;
using trace::Record;

// main (1) spawns 1.0 and 1.1; each goroutine's records mix controlled
// operations with ones a schedule does not order (GoSpawn, GoEnd).
trace::Trace MixedControlledOps() {
  trace::Trace t;
  t.sites.push_back({});
  t.sites.push_back(trace::Site{"/p/main.go", 10, 0, "main.main", true});
  auto rec = [&](Kind k) {
    Record r{};
    r.kind = k;
    r.site = 1;
    t.records.push_back(r);
  };
  auto goroutine = [&](uint32_t gid, uint32_t parent, uint32_t child, const char* stable,
                       std::initializer_list<Kind> kinds) {
    trace::Goroutine g;
    g.gid = gid;
    g.parent = parent;
    g.child_index = child;
    g.stable_id = stable;
    g.begin = static_cast<uint32_t>(t.records.size());
    for (Kind k : kinds) rec(k);
    g.end = static_cast<uint32_t>(t.records.size());
    t.goroutines.push_back(g);
  };
  goroutine(1, 0, 0, "1", {Kind::ChanMake, Kind::GoSpawn, Kind::ChanSend, Kind::GoSpawn, Kind::MutexLock});
  goroutine(2, 1, 0, "1.0", {Kind::ChanRecv, Kind::GoEnd});
  goroutine(3, 1, 1, "", {Kind::MutexLock});  // no stable id
  goroutine(4, 1, 1, "1.1", {Kind::GoEnd});    // no controlled operation
  return t;
}

std::vector<uint32_t> Controlled(const trace::Trace& t, uint32_t gi) {
  std::vector<uint32_t> v;
  for (uint32_t i = t.goroutines[gi].begin; i < t.goroutines[gi].end; i++) {
    if (IsControlled(t.records[i].kind)) v.push_back(i);
  }
  return v;
}

TEST(GoroutineOps, EachGoroutinesControlledOperationsInProgramOrder) {
  trace::Trace t = MixedControlledOps();
  GoroutineOps ops(t);
  std::span<const uint32_t> main = ops.Of("1");
  EXPECT_EQ(std::vector<uint32_t>(main.begin(), main.end()), Controlled(t, 0));
  EXPECT_FALSE(main.empty());
  EXPECT_LT(main.size(), t.goroutines[0].end - t.goroutines[0].begin);  // GoSpawn is not controlled
  std::span<const uint32_t> child = ops.Of("1.0");
  EXPECT_EQ(std::vector<uint32_t>(child.begin(), child.end()), Controlled(t, 1));
  EXPECT_TRUE(ops.Of("1.1").empty());
  EXPECT_TRUE(ops.Of("1.2").empty());  // no such goroutine
  EXPECT_TRUE(ops.Of("").empty());     // the one without a stable id is not found by ""
  // Per goroutine of the trace, in its order.
  ASSERT_EQ(ops.goroutines(), 4u);
  EXPECT_EQ(ops.Path(0), "1");
  EXPECT_EQ(ops.Path(1), "1.0");
  EXPECT_EQ(ops.Path(2), "");  // no stable id: no operation a schedule could name
  EXPECT_TRUE(ops.Ops(2).empty());
  EXPECT_EQ(ops.Path(3), "1.1");
  EXPECT_TRUE(ops.Ops(3).empty());
  EXPECT_EQ(ops.Ops(1).data(), child.data());
  EXPECT_EQ(ops.Ops(0).data(), main.data());
}

// The second goroutine of a stable id keeps its operations by index (the
// rewrite reads every goroutine's) but has no path: Of finds the first.
TEST(GoroutineOps, AStableIdTwiceKeepsTheFirstGoroutine) {
  trace::Trace t = MixedControlledOps();
  t.goroutines[2].stable_id = "1.0";  // a corrupt trace: two goroutines named 1.0
  GoroutineOps ops(t);
  std::span<const uint32_t> child = ops.Of("1.0");
  EXPECT_EQ(std::vector<uint32_t>(child.begin(), child.end()), Controlled(t, 1));
  ASSERT_EQ(ops.goroutines(), 4u);
  EXPECT_EQ(ops.Path(1), "1.0");
  EXPECT_EQ(ops.Path(2), "");
  std::span<const uint32_t> second = ops.Ops(2);
  EXPECT_EQ(std::vector<uint32_t>(second.begin(), second.end()), Controlled(t, 2));
  EXPECT_FALSE(second.empty());
  // By index alone: the same operations, and no hash to tell the second
  // goroutine's path from the first's.
  GoroutineOps by_index(t, GoroutineOps::Lookup::kByIndex);
  ASSERT_EQ(by_index.goroutines(), 4u);
  for (size_t g = 0; g < 4; ++g) {
    EXPECT_TRUE(std::ranges::equal(by_index.Ops(g), ops.Ops(g))) << g;
  }
  EXPECT_EQ(by_index.Path(2), "1.0");
  EXPECT_EQ(by_index.Path(0), "1");
}

TEST(SiteIs, ComparesFileAndLineAsSiteTextWritesThem) {
  trace::Trace t = MixedControlledOps();
  const Record& r = t.records[0];
  EXPECT_EQ(trace::SiteText(t, r), "/p/main.go:10");
  EXPECT_TRUE(SiteIs(t, r, "/p/main.go:10"));
  EXPECT_FALSE(SiteIs(t, r, "/p/main.go:1"));
  EXPECT_FALSE(SiteIs(t, r, "/p/main.go:100"));
  EXPECT_FALSE(SiteIs(t, r, "/p/main.go:10 "));
  EXPECT_FALSE(SiteIs(t, r, "/p/main.go"));
  EXPECT_FALSE(SiteIs(t, r, "/p/main.go:"));
  EXPECT_FALSE(SiteIs(t, r, "/p/main.gox10"));
  EXPECT_FALSE(SiteIs(t, r, "/q/main.go:10"));
  EXPECT_FALSE(SiteIs(t, r, "?"));
  Record unknown = r;
  unknown.site = 0;
  EXPECT_TRUE(SiteIs(t, unknown, "?"));
  EXPECT_FALSE(SiteIs(t, unknown, "/p/main.go:10"));
}

}  // namespace
}  // namespace gordian::schedule
