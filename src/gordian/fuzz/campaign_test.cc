// Tests of a campaign with a fake ScheduleRunner (no Go): the "program"
// answers a schedule with a prepared trace. Its bug shows only when 1.1's
// send reaches main's first receive before 1.0's does, which no free run
// does and no detector predicts from the free run's trace (the close that
// follows depends on the value received): the prediction-guided strategy
// has to propose that order for the campaign to find it.
#include "gordian/fuzz/campaign.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/fuzz/strategies.h"
#include "gordian/hb/trace_builder.h"

namespace gordian::fuzz {
namespace {

namespace fs = std::filesystem;
using hb::testing::TraceBuilder;

// free: 1.0 sends (a.go:10), main receives (a.go:30), 1.1 sends (a.go:20),
// main receives (a.go:31). buggy: 1.1's value first; main then closes the
// channel (a.go:35) and 1.0's send finds it closed.
// With test_fails, the run is of TestX, which fails (t.Fatal) in every run.
trace::Trace TwoSendersAndClose(bool buggy, bool test_fails = false) {
  TraceBuilder b;
  if (test_fails) b.TestStart(1, 0, "TestX");
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  uint32_t sa = b.Site("a.go", 10), sb = b.Site("a.go", 20);
  if (!buggy) {
    auto s1 = b.At(b.SendBegin(g2, ch), sa);
    b.At(b.Recv(1, ch), b.Site("a.go", 30));
    b.Complete(s1);
    auto s2 = b.At(b.SendBegin(g3, ch), sb);
    b.At(b.Recv(1, ch), b.Site("a.go", 31));
    b.Complete(s2);
  } else {
    auto s2 = b.At(b.SendBegin(g3, ch), sb);
    b.At(b.Recv(1, ch), b.Site("a.go", 30));
    b.Complete(s2);
    b.At(b.Close(1, ch), b.Site("a.go", 35));
    b.At(b.SendClosed(g2, ch), sa);
  }
  if (test_fails) b.TestEnd(1, 0);
  trace::Trace t = b.Finish();
  for (trace::Record& r : t.records) {
    if (r.kind == trace::Kind::TestEnd) r.flags |= trace::kFailed;
  }
  return t;
}

bool SendsBefore(const schedule::Schedule& s, const std::string& first, const std::string& then) {
  int a = -1, b = -1;
  for (size_t i = 0; i < s.ops.size(); i++) {
    if (a < 0 && s.ops[i].site == first) a = static_cast<int>(i);
    if (b < 0 && s.ops[i].site == then) b = static_cast<int>(i);
  }
  return a >= 0 && b >= 0 && a < b;
}

class FakeProgram : public pipeline::ScheduleRunner {
 public:
  bool Run(const schedule::Schedule& s, const std::string& schedule_path,
           const pipeline::RunOptions& opt, pipeline::RunOutput* out, std::string* err) override {
    calls++;
    if (!fs::exists(schedule_path)) {
      *err = "no schedule file";
      return false;
    }
    *out = pipeline::RunOutput();
    fs::create_directories(opt.out_dir);
    out->trace_dir = opt.out_dir;
    bool buggy = SendsBefore(s, "a.go:20", "a.go:30") || SendsBefore(s, "a.go:20", "a.go:10");
    buggy_runs += buggy;
    out->trace = TwoSendersAndClose(buggy, test_fails);
    return true;
  }
  bool test_fails = false;
  std::atomic<int> calls{0};
  std::atomic<int> buggy_runs{0};
};

class CampaignTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / "gordian-campaign-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(dir_.data()), nullptr);
    opt_.invocation.mode = "test";
    opt_.invocation.cwd = dir_;
    opt_.invocation.args = {"-test.run=^TestX$", "."};
    opt_.test = "TestX";
    opt_.work_dir = dir_ + "/work";
    opt_.confirm.schedule_dir = dir_ + "/schedules";
    opt_.confirm.fallback = opt_.invocation;
    opt_.runner = &runner_;
    opt_.strategies = {&pg_};
    opt_.budget_seconds = 30;
    opt_.stale_seconds = 0;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string dir_;
  FakeProgram runner_;
  PredictionGuided pg_;
  CampaignOptions opt_;
};

TEST_F(CampaignTest, FindsTheBugOnlyAnotherPartnerShowsConfirmsItOnce) {
  opt_.max_runs = 6;
  CampaignResult res;
  int reports = 0;
  RunCampaign(opt_, &res, [&](const CampaignStats&) { reports++; });
  EXPECT_EQ(res.stats.stopped, "runs");
  EXPECT_EQ(res.stats.runs, 6u);
  EXPECT_EQ(reports, 6);
  ASSERT_TRUE(res.errors.empty()) << res.errors[0];
  size_t bugs = 0;
  for (size_t i = 0; i < res.findings.size(); i++) {
    const report::Finding& f = res.findings[i];
    if (f.kind != report::FindingKind::SendOnClosed) continue;
    bugs++;
    EXPECT_EQ(f.status, report::Status::Occurred);
    EXPECT_FALSE(f.reproduce.empty()) << "the replay of the run's schedule hits it again";
    EXPECT_EQ(f.test, "TestX");
    EXPECT_EQ(res.found_by[i].rfind("partner recv a.go:30 <- send a.go:20", 0), 0u)
        << res.found_by[i];
    // The report says under which schedule it showed.
    EXPECT_EQ(f.found_under.rfind("partner recv a.go:30 <- send a.go:20", 0), 0u) << f.found_under;
  }
  EXPECT_EQ(bugs, 1u) << "one finding for the bug, however many runs show it";
  EXPECT_EQ(res.stats.bugs, 1u);
  EXPECT_GE(runner_.buggy_runs.load(), 2) << "the run and the confirming replay";
  EXPECT_TRUE(res.have_verdict);
  EXPECT_TRUE(fs::is_empty(opt_.work_dir)) << "run directories are removed";
}

TEST_F(CampaignTest, FreeRunsOnlyFindNothing) {
  opt_.strategies.clear();
  opt_.max_runs = 4;
  CampaignResult res;
  RunCampaign(opt_, &res);
  EXPECT_EQ(res.stats.runs, 4u);
  EXPECT_EQ(runner_.buggy_runs.load(), 0);
  for (const report::Finding& f : res.findings) {
    EXPECT_NE(f.severity, report::Severity::Bug) << report::KindName(f.kind);
  }
}

// Free runs of the same program add no coverage after the first: -stale
// ends the campaign long before the budget; without -stale, the budget.
TEST_F(CampaignTest, StopsWhenCoverageIsStaleOrAtTheBudget) {
  opt_.strategies.clear();
  for (bool stale : {true, false}) {
    opt_.stale_seconds = stale ? 0.3 : 0;
    opt_.budget_seconds = stale ? 30 : 0.3;
    CampaignResult res;
    RunCampaign(opt_, &res);
    EXPECT_EQ(res.stats.stopped, stale ? "stale" : "budget");
    EXPECT_LT(res.stats.elapsed, 10.0);
    EXPECT_GE(res.stats.runs, 2u);
  }
}

TEST_F(CampaignTest, ParallelRunsFindTheSameOneBug) {
  opt_.jobs = 3;
  opt_.max_runs = 8;
  CampaignResult res;
  RunCampaign(opt_, &res);
  EXPECT_EQ(res.stats.runs, 8u);
  size_t bugs = 0;
  for (const report::Finding& f : res.findings) bugs += f.kind == report::FindingKind::SendOnClosed;
  EXPECT_EQ(bugs, 1u);
}

// A strategy whose proposals are random draws: two per run, each key a
// number from the run's generator.
class Drawing : public Strategy {
 public:
  const char* Name() const override { return "drawing"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override {
    for (int i = 0; i < 2; i++) {
      Candidate c;
      c.schedule.goroutines = {"1"};
      c.key = fmt::format("draw {}", run.rng.Below(1000000));
      c.strategy = Name();
      out->push_back(std::move(c));
    }
  }
};

// The same seed gives the same schedules in the same order; another seed
// other ones.
TEST_F(CampaignTest, TheSeedDecidesTheProposals) {
  Drawing drawing;
  opt_.strategies = {&drawing};
  opt_.max_runs = 7;
  auto ran = [&](uint64_t seed) {
    opt_.seed = seed;
    CampaignResult res;
    RunCampaign(opt_, &res);
    EXPECT_EQ(res.ran.size(), 7u);
    return res.ran;
  };
  std::vector<std::string> a = ran(42), b = ran(42), c = ran(43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  ASSERT_GE(a.size(), 3u);
  EXPECT_EQ(a[0], "free run");
  EXPECT_EQ(a[1].rfind("draw ", 0), 0u) << a[1];
}

// FakeProgram whose runs take a random 0-15 ms (a generator of its own,
// seeded from the clock): with several workers, runs finish in another
// order each campaign.
class JitteryProgram : public FakeProgram {
 public:
  bool Run(const schedule::Schedule& s, const std::string& schedule_path,
           const pipeline::RunOptions& opt, pipeline::RunOutput* out, std::string* err) override {
    uint64_t ms;
    {
      std::lock_guard<std::mutex> l(mu_);
      ms = rng_() % 16;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return FakeProgram::Run(s, schedule_path, opt, out, err);
  }

 private:
  std::mutex mu_;
  std::mt19937_64 rng_{static_cast<uint64_t>(
      std::chrono::steady_clock::now().time_since_epoch().count())};
};

// With three workers, runs that finish in a random order, and exact, the
// same seed still runs the same candidates in the same order: proposals
// join the worklist by run number, and run m picks after run m - 3 has
// joined. (Without exact, they join as runs finish, and the order varies.)
TEST_F(CampaignTest, TheSeedDecidesTheRunsWithSeveralWorkers) {
  JitteryProgram jittery;
  Drawing drawing;
  opt_.runner = &jittery;
  opt_.strategies = {&drawing};
  opt_.jobs = 3;
  opt_.max_runs = 24;
  opt_.seed = 42;
  opt_.exact = true;
  std::vector<std::vector<std::string>> seqs;
  for (int i = 0; i < 4; i++) {
    CampaignResult res;
    RunCampaign(opt_, &res);
    ASSERT_EQ(res.ran.size(), 24u);
    seqs.push_back(res.ran);
  }
  for (size_t i = 1; i < seqs.size(); i++) EXPECT_EQ(seqs[0], seqs[i]) << "campaign " << i;
  // The first three runs start with nothing proposed yet: the free run,
  // then two more free runs; run 3 runs run 0's first proposal.
  EXPECT_EQ(seqs[0][0], "free run");
  EXPECT_EQ(seqs[0][1], "free run");
  EXPECT_EQ(seqs[0][2], "free run");
  EXPECT_EQ(seqs[0][3].rfind("draw ", 0), 0u) << seqs[0][3];
}

// A campaign stores the schedule that added coverage (the other partner);
// the next one, with no strategy at all, runs it again first and so finds
// the bug; a corrupt file beside it is a warning, not the end.
TEST_F(CampaignTest, TheCorpusKeepsWhatAddedCoverageForTheNextCampaign) {
  opt_.corpus_dir = dir_ + "/testdata/gordian-fuzz/TestX";
  opt_.max_runs = 6;
  CampaignResult first;
  RunCampaign(opt_, &first);
  EXPECT_TRUE(first.warnings.empty()) << first.warnings[0];
  EXPECT_GE(first.stats.corpus_added, 1u);
  EXPECT_EQ(first.stats.corpus_read, 0u);
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(opt_.corpus_dir)) files += e.is_regular_file();
  EXPECT_EQ(files, first.stats.corpus_added);

  std::ofstream(opt_.corpus_dir + "/corrupt") << "gordian-schedule 1\nthis is not a line\n";
  opt_.strategies.clear();
  opt_.max_runs = 1 + first.stats.corpus_added;
  int buggy_before = runner_.buggy_runs.load();
  CampaignResult second;
  RunCampaign(opt_, &second);
  ASSERT_EQ(second.warnings.size(), 1u);
  EXPECT_NE(second.warnings[0].find(opt_.corpus_dir + "/corrupt: "), std::string::npos)
      << second.warnings[0];
  EXPECT_EQ(second.stats.corpus_read, first.stats.corpus_added);
  ASSERT_GE(second.ran.size(), 2u);
  EXPECT_EQ(second.ran[0], "free run");
  EXPECT_EQ(second.ran[1].rfind("corpus ", 0), 0u) << second.ran[1];
  EXPECT_GT(runner_.buggy_runs.load(), buggy_before) << "a stored schedule shows the bug";
  size_t bugs = 0;
  for (const report::Finding& f : second.findings) bugs += f.kind == report::FindingKind::SendOnClosed;
  EXPECT_EQ(bugs, 1u);
  EXPECT_EQ(second.stats.corpus_added, 0u) << "corpus schedules are not stored again";
}

// A strategy that proposes, from a free run, one schedule naming a chain
// (1.1's send before main's first receive: the buggy order, which adds
// coverage), and notes what each run it is shown followed.
class ChainNoter : public Strategy {
 public:
  struct Seen {
    std::string strategy;
    bool added_coverage = false;
    size_t chain = 0;  // chain lines of the schedule followed
  };
  const char* Name() const override { return "chain"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override {
    ASSERT_NE(run.ran, nullptr);
    seen.push_back({run.ran->strategy, run.added_coverage, run.ran->schedule.chain.size()});
    if (run.ran->strategy != "free") return;
    Candidate c;
    c.schedule.goroutines = {"1", "1.0", "1.1"};
    schedule::Op send, recv;
    send.g = 2;
    send.kind = trace::Kind::ChanSend;
    send.site = "a.go:20";
    recv.g = 0;
    recv.kind = trace::Kind::ChanRecv;
    recv.site = "a.go:30";
    c.schedule.ops = {send, recv};
    c.schedule.chain = {{2, 0}, {0, 0}};
    c.key = "chain send a.go:20 then recv a.go:30";
    c.strategy = Name();
    out->push_back(std::move(c));
  }
  std::vector<Seen> seen;
};

// A chain whose run added coverage is shown to the strategies as such,
// and is kept in the corpus with its chain lines; the next campaign runs
// it first and shows the strategies a corpus schedule that still names
// its chain, which the scheduling-chains strategy then mutates further.
TEST_F(CampaignTest, AChainThatAddedCoverageIsKeptWithItsChain) {
  opt_.corpus_dir = dir_ + "/corpus/TestX";
  ChainNoter noter;
  opt_.strategies = {&noter};
  opt_.max_runs = 2;
  CampaignResult first;
  RunCampaign(opt_, &first);
  ASSERT_EQ(noter.seen.size(), 2u);
  EXPECT_EQ(noter.seen[0].strategy, "free");
  EXPECT_EQ(noter.seen[1].strategy, "chain");
  EXPECT_TRUE(noter.seen[1].added_coverage) << "the buggy order's pairs are new";
  EXPECT_EQ(noter.seen[1].chain, 2u);
  ASSERT_EQ(first.stats.corpus_added, 1u);
  std::string text;
  for (const auto& e : fs::directory_iterator(opt_.corpus_dir)) {
    std::ifstream f(e.path());
    text.assign(std::istreambuf_iterator<char>(f), {});
  }
  EXPECT_NE(text.find("\nchain 2 0\nchain 0 0\n"), std::string::npos) << text;

  noter.seen.clear();
  CampaignResult second;
  RunCampaign(opt_, &second);
  ASSERT_EQ(noter.seen.size(), 2u);
  EXPECT_EQ(noter.seen[1].strategy, "corpus");
  EXPECT_EQ(noter.seen[1].chain, 2u);
}

// A test that fails in every run, for a reason no finding explains, is
// counted in every such run and reported once; a run whose failure a bug
// that occurred in it explains (the send on the closed channel panics) is
// not counted.
TEST_F(CampaignTest, AFailingTestIsReportedOnceNotPerRun) {
  runner_.test_fails = true;
  opt_.max_runs = 6;
  CampaignResult res;
  RunCampaign(opt_, &res);
  EXPECT_EQ(res.stats.runs, 6u);
  bool reached = std::any_of(res.ran.begin(), res.ran.end(), [](const std::string& k) {
    return k.rfind("partner recv a.go:30 <- send a.go:20", 0) == 0;
  });
  ASSERT_TRUE(reached) << "the partner strategy ran the buggy order";
  EXPECT_GE(res.test_failures.runs, 1u);
  EXPECT_LT(res.test_failures.runs, 6u) << "the buggy run's failure is explained by its bug";
  EXPECT_EQ(res.test_failures.first_by, "free run");
  size_t bugs = 0;
  for (const report::Finding& f : res.findings) bugs += f.severity == report::Severity::Bug;
  EXPECT_EQ(bugs, 1u) << "the failure is no finding";
}

TEST_F(CampaignTest, RunnerErrorsAreCountedOnce) {
  class Failing : public pipeline::ScheduleRunner {
   public:
    bool Run(const schedule::Schedule&, const std::string&, const pipeline::RunOptions&,
             pipeline::RunOutput*, std::string* err) override {
      *err = "the program no longer builds";
      return false;
    }
  } failing;
  opt_.runner = &failing;
  opt_.max_runs = 3;
  CampaignResult res;
  RunCampaign(opt_, &res);
  EXPECT_EQ(res.stats.runs, 0u);
  EXPECT_EQ(res.stats.failed_runs, 3u);
  ASSERT_EQ(res.errors.size(), 1u);
  EXPECT_EQ(res.errors[0], "the program no longer builds");
}

// Every new bug is handed to `found` when it is found (with the schedule of
// the run that showed it), before the campaign ends: a campaign killed
// later has reported it.
TEST_F(CampaignTest, EachBugIsHandedOverWhenFound) {
  std::vector<std::string> kinds;
  opt_.found = [&](const report::Finding& f, const schedule::Schedule& s) {
    kinds.push_back(std::string(report::KindName(f.kind)));
    EXPECT_FALSE(s.ops.empty()) << "the schedule that showed it";
  };
  opt_.max_runs = 6;
  CampaignResult res;
  RunCampaign(opt_, &res);
  ASSERT_FALSE(res.findings.empty());
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "send-on-closed"), kinds.end());
  EXPECT_GE(kinds.size(), 1u);
}

// A program whose runs never end: the first, free run is killed at the
// run wall; the campaign stops there ("unfinished"), analyses nothing of it
// and runs nothing more.
class NeverEnding : public pipeline::ScheduleRunner {
 public:
  bool Run(const schedule::Schedule&, const std::string&, const pipeline::RunOptions& opt,
           pipeline::RunOutput* out, std::string*) override {
    calls++;
    *out = pipeline::RunOutput();
    fs::create_directories(opt.out_dir);
    out->trace_dir = opt.out_dir;
    out->trace = TwoSendersAndClose(false);
    out->record.run.timed_out = true;
    return true;
  }
  std::atomic<int> calls{0};
};

TEST_F(CampaignTest, ATestThatDoesNotEndIsNotFuzzed) {
  NeverEnding never;
  opt_.runner = &never;
  opt_.jobs = 1;
  CampaignResult res;
  RunCampaign(opt_, &res);
  EXPECT_EQ(res.stats.stopped, "unfinished");
  EXPECT_EQ(never.calls.load(), 1);
  EXPECT_EQ(res.stats.runs, 0u) << "nothing of it analysed";
}

// A runner that takes longer than the budget for every run: the campaign
// gives each run no more than what is left before its hard deadline, and
// ends by it.
class SlowRunner : public FakeProgram {
 public:
  bool Run(const schedule::Schedule& s, const std::string& path, const pipeline::RunOptions& opt,
           pipeline::RunOutput* out, std::string* err) override {
    {
      std::lock_guard<std::mutex> l(mu);
      walls.push_back(opt.wall_seconds);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    return FakeProgram::Run(s, path, opt, out, err);
  }
  std::mutex mu;
  std::vector<double> walls;
};

TEST_F(CampaignTest, RunsNeverOutlastTheHardDeadline) {
  SlowRunner slow;
  opt_.runner = &slow;
  opt_.budget_seconds = 1;
  opt_.hard_seconds = 4;
  opt_.run.wall_seconds = 30;
  auto start = std::chrono::steady_clock::now();
  CampaignResult res;
  RunCampaign(opt_, &res);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(took, 4.0);
  EXPECT_EQ(res.stats.stopped, "budget");
  std::lock_guard<std::mutex> l(slow.mu);
  ASSERT_FALSE(slow.walls.empty());
  for (double w : slow.walls) EXPECT_LE(w, 4.0) << "a run's wall is cut to the deadline";
}

}  // namespace
}  // namespace gordian::fuzz
