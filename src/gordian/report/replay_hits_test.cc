// Tests of what replays showed, for people (replay_hits.h): a diverged
// replay that hit the same leak in a thousand goroutines prints one line,
// infos are dropped, the expected bug comes first, the list is capped; the
// confirmation counts follow the status of the reported findings.
#include "gordian/report/replay_hits.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "gordian/report/report_test_util.h"

namespace gordian::report {
namespace {

TEST(ReplayHits, SameBugInManyGoroutinesIsOneLine) {
  std::vector<Finding> hit;
  for (int i = 0; i < 1000; i++) {
    hit.push_back(testing::Leak("/m/pool.go", 40, fmt::format("1.{}", i), Primitive::ChanSend));
  }
  ReplayHits h = SummarizeReplayHits(hit, "");
  ASSERT_EQ(h.lines.size(), 1u);
  EXPECT_EQ(h.more, 0u);
  EXPECT_EQ(h.bugs, 1u);
  EXPECT_NE(h.lines[0].find("the replayed run hit goroutine-leak at /m/pool.go:40"),
            std::string::npos)
      << h.lines[0];
}

TEST(ReplayHits, ExpectedFirstInfosDroppedAndCapped) {
  std::vector<Finding> hit;
  for (uint32_t i = 0; i < 30; i++) {
    hit.push_back(testing::Leak("/m/pool.go", 100 + i, "1.0", Primitive::ChanSend));
  }
  Finding info = testing::Leak("/m/info.go", 1, "1.0", Primitive::None);
  info.kind = FindingKind::AlternativePartner;
  info.severity = Severity::Info;
  hit.push_back(info);
  Finding soc = testing::SendOnClosed("/m/");
  hit.push_back(soc);
  ReplayHits h = SummarizeReplayHits(hit, "send-on-closed", 10);
  ASSERT_EQ(h.lines.size(), 10u);
  EXPECT_EQ(h.more, 21u);  // 31 bugs, 10 listed
  EXPECT_EQ(h.bugs, 31u);
  EXPECT_NE(h.lines[0].find("send-on-closed at /m/hub.go:12 (goroutine 1.0) (the bug this "
                            "schedule shows)"),
            std::string::npos)
      << h.lines[0];
  for (const std::string& l : h.lines) EXPECT_EQ(l.find("info.go"), std::string::npos) << l;
  // A warning keeps the "hit <kind>" form that scripts search for.
  Finding warn = testing::SendOnClosed("/m/");
  warn.kind = FindingKind::ConcurrentRecv;
  warn.severity = Severity::Warning;
  h = SummarizeReplayHits({warn}, "concurrent-recv");
  ASSERT_EQ(h.lines.size(), 1u);
  EXPECT_EQ(h.lines[0].rfind("the replayed run hit concurrent-recv at /m/hub.go:12", 0), 0u)
      << h.lines[0];
  EXPECT_EQ(h.bugs, 1u) << "the expected warning counts";
}

TEST(ConfirmationCounts, CountOnlyReportedBugsByStatus) {
  Finding occurred = testing::SendOnClosed();
  Finding reproduced = occurred;
  reproduced.reproduce = "gordian replay x";
  Finding confirmed = occurred;
  confirmed.status = Status::Confirmed;
  Finding refuted = occurred;
  refuted.status = Status::Unconfirmed;
  Finding predicted = occurred;
  predicted.status = Status::Predicted;
  Finding warning = occurred;
  warning.severity = Severity::Warning;  // a recovered panic, a recv-on-closed
  ConfirmationCounts c =
      CountConfirmation({occurred, reproduced, confirmed, refuted, predicted, warning});
  EXPECT_EQ(c.occurred, 2u);
  EXPECT_EQ(c.reproduced, 1u);
  EXPECT_EQ(c.predicted, 3u);
  EXPECT_EQ(c.confirmed, 1u);
  EXPECT_EQ(c.refuted, 1u);
}

TEST(ConfirmationCounts, LinesSayWhatHappenedAndWhatItMeans) {
  EXPECT_TRUE(ConfirmationLines(ConfirmationCounts{}).empty());
  ConfirmationCounts lost;
  lost.occurred = 1;
  std::vector<std::string> l = ConfirmationLines(lost);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0],
            "1 bug occurred; its recorded schedule did not reproduce it: the bug did happen, but "
            "depends on timing a schedule does not fix, so there is no reproduce command");
  ConfirmationCounts some;
  some.occurred = 3;
  some.reproduced = 2;
  some.predicted = 2;
  some.confirmed = 1;
  l = ConfirmationLines(some);
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0], "confirmed 1 of 2 predicted bugs by replay, 1 not confirmed (shown as warning: "
                  "it does not decide the exit status)");
  EXPECT_NE(l[1].find("3 bugs occurred; their recorded schedules reproduced 2 of them"),
            std::string::npos);
}

}  // namespace
}  // namespace gordian::report
