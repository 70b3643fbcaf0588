// Tests of columns.h: locating operations on a line of real Go source.
#include "gordian/report/columns.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gordian/report/report_test_util.h"

namespace gordian::report {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSource = R"(package p

import "sync"

func f(ch chan int, mu *sync.Mutex, wg *sync.WaitGroup) {
	ch <- 1
	x := <-ch
	v, ok := <-ch
	<-ch
	for y := range ch {
		_ = y
	}
	close(ch)
	mu.Lock()
	defer mu.Unlock()
	wg.Add(1)
	go func() { wg.Done() }()
	select {
	case z := <-ch:
		_ = z
	}
	_, _, _ = x, v, ok
	panic("boom")
}

func g(ch, done, out chan int) {
	select {
	case out <- 1:
	case <-done:
	case v, ok := <-ch:
		_, _ = v, ok
	case w := <-ch:
		_ = w
	default:
	}
	_ = <-ch
}
)";

class ColumnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (fs::temp_directory_path() / ("gordian_columns_" + std::to_string(getpid()) + ".go"))
                .string();
    std::ofstream(path_) << kSource;
  }
  void TearDown() override { fs::remove(path_); }
  std::string path_;
};

TEST_F(ColumnsTest, FindsEachOperation) {
  SourceOperations ops;
  struct Case {
    uint32_t line;
    Role role;
    uint32_t column;
    bool expects_closed;
  } cases[] = {
      {6, Role::Send, 2, false},   {7, Role::Recv, 7, false},  {8, Role::Recv, 11, true},
      {9, Role::Recv, 2, true},    {10, Role::Recv, 2, true},  {13, Role::Close, 2, false},
      {14, Role::Lock, 2, false},  {15, Role::Unlock, 8, false}, {16, Role::Add, 2, false},
      {17, Role::Spawn, 2, false}, {17, Role::Done, 14, false}, {18, Role::Select, 2, false},
      {19, Role::Recv, 12, false}, {23, Role::Panic, 2, false},
  };
  for (const Case& c : cases) {
    OperationFacts f = ops.Find(path_, c.line, c.role);
    EXPECT_TRUE(f.found) << "line " << c.line;
    EXPECT_EQ(f.column, c.column) << "line " << c.line;
    EXPECT_EQ(f.expects_closed, c.expects_closed) << "line " << c.line;
  }
  // Select cases are recorded at the select's line; the runtime's case
  // index (sends first, then receives in reverse source order) names the
  // receive: `case <-done:` (3) and `case v, ok := <-ch:` (2) expect the
  // close, `case w := <-ch:` (1) does not, and 0 is the send.
  const uint32_t sel = 27;
  const std::pair<int32_t, bool> select_cases[] = {{3, true}, {2, true}, {1, false}, {0, false}};
  for (auto [index, expects] : select_cases) {
    OperationFacts f = ops.Find(path_, sel, Role::Recv, index);
    EXPECT_TRUE(f.found) << "case " << index;
    EXPECT_EQ(f.column, 2u) << "case " << index;
    EXPECT_EQ(f.expects_closed, expects) << "case " << index;
  }
  EXPECT_TRUE(ops.Find(path_, 36, Role::Recv).expects_closed);  // _ = <-ch
  // No such operation on the line, or no such file: column 0.
  EXPECT_FALSE(ops.Find(path_, 6, Role::Close).found);
  EXPECT_FALSE(ops.Find("/nonexistent/x.go", 6, Role::Send).found);
}

TEST_F(ColumnsTest, ResolveFillsColumnsAndDropsExpectedClosedReceives) {
  Finding range_end;
  range_end.kind = FindingKind::RecvOnClosed;
  range_end.severity = Severity::Warning;
  range_end.locations.push_back(testing::Loc(path_, 10, Role::Recv, "1"));
  range_end.locations.push_back(testing::Loc(path_, 13, Role::Close, "1"));
  Finding used = range_end;
  used.locations[0].line = 7;  // x := <-ch uses the zero value
  Finding send;
  send.kind = FindingKind::SendOnClosed;
  send.locations.push_back(testing::Loc(path_, 6, Role::Send, "1"));
  send.interleaving.push_back({testing::Loc(path_, 13, Role::Close, "1"), "close"});
  std::vector<Finding> fs = {range_end, used, send};
  ResolveColumns(&fs);
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(fs[0].locations[0].line, 7u);
  EXPECT_EQ(fs[0].locations[0].column, 7u);
  EXPECT_EQ(fs[0].locations[1].column, 2u);
  EXPECT_EQ(fs[1].locations[0].column, 2u);
  EXPECT_EQ(fs[1].interleaving[0].loc.column, 2u);
}

}  // namespace
}  // namespace gordian::report
