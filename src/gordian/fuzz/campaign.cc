// This file implements a fuzzing campaign (campaign.h).
#include "gordian/fuzz/campaign.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "gordian/driver/process.h"
#include "gordian/driver/work_dir.h"
#include "gordian/fuzz/corpus.h"
#include "gordian/fuzz/coverage.h"
#include "gordian/fuzz/test_failure.h"
#include "gordian/pipeline/analyze_trace.h"
#include "gordian/report/dedup.h"

namespace gordian::fuzz {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// A candidate's key for people: each file path cut to its base name
// ("delay 300ms /src/pool/pool.go:41#2" -> "delay 300ms pool.go:41#2").
std::string ShortPaths(const std::string& key) {
  std::string out;
  size_t at = 0;
  while (at <= key.size()) {
    size_t end = key.find(' ', at);
    if (end == std::string::npos) end = key.size();
    std::string word = key.substr(at, end - at);
    size_t slash = word.rfind('/');
    if (slash != std::string::npos && word.find(".go:") != std::string::npos) word = word.substr(slash + 1);
    if (!out.empty()) out += ' ';
    out += word;
    at = end + 1;
  }
  return out;
}

// How well a finding is proven: 2 a replay showed it (confirmed, or
// occurred with a reproduce command), 1 it occurred in a run, 0 predicted
// or refuted. A later run may improve a finding below 2.
int Proof(const report::Finding& f) {
  if (f.status == report::Status::Confirmed) return 2;
  if (f.status == report::Status::Occurred) return f.reproduce.empty() ? 1 : 2;
  return 0;
}

// One bug across the runs of a campaign: the kind and the primary site
// (and a leak's primitive). report::DedupKey also keys the other
// locations, which vary from run to run for the same bug (whether the
// Wait had started when the counter went negative).
std::string BugKey(const report::Finding& f) {
  if (f.locations.empty()) return report::DedupKey(f);
  const report::Location& l = f.locations[0];
  return fmt::format("{}|{}|{}:{}", report::KindName(f.kind), report::PrimitiveName(f.primitive),
                     l.file, l.line);
}

// What the campaign knows of a bug (by BugKey).
enum class Known { Pending, Proven, Open };

class Campaign {
 public:
  Campaign(const CampaignOptions& opt, CampaignResult* out,
           const std::function<void(const CampaignStats&)>& progress)
      : opt_(opt), out_(out), progress_(progress), start_(Clock::now()), grew_(start_) {
    if (opt.runner == nullptr) runner_ = &go_;
    else runner_ = opt.runner;
    // The first run: the test as it is, no schedule but the runtime's.
    worklist_.push_back(FreeRun("free run"));
    // Then what showed a bug before, and what added coverage before, as
    // the test runs now.
    for (const std::string& dir : {opt.regression_dir, opt.corpus_dir}) {
      if (dir.empty()) continue;
      for (CorpusEntry& e : LoadCorpus(dir, opt.invocation.cwd, &out_->warnings)) {
        Candidate c;
        c.schedule = std::move(e.schedule);
        c.schedule.cmd = opt_.invocation;
        c.key = "corpus " + fs::path(e.path).filename().string();
        c.strategy = "corpus";
        proposed_.insert(c.key);
        worklist_.push_back(std::move(c));
        stats_.corpus_read++;
      }
    }
  }

  void Run() {
    int jobs = std::max(1, opt_.jobs);
    std::vector<std::thread> workers;
    for (int i = 1; i < jobs; i++) workers.emplace_back([this] { Work(); });
    Work();
    for (std::thread& w : workers) w.join();
    std::lock_guard<std::mutex> l(mu_);
    out_->stats = Stats();
  }

 private:
  Candidate FreeRun(const std::string& key) const {
    Candidate c;
    c.schedule.cmd = opt_.invocation;
    c.schedule.origin = "fuzz free run";
    c.schedule.goroutines = {"1"};
    c.key = key;
    c.strategy = "free";
    return c;
  }
  double Elapsed() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }
  CampaignStats Stats() const {  // under mu_
    CampaignStats s = stats_;
    s.elapsed = Elapsed();
    s.coverage = coverage_.size();
    s.worklist = worklist_.size();
    return s;
  }
  double Hard() const {
    return opt_.hard_seconds > 0 ? opt_.hard_seconds
                                 : opt_.budget_seconds + opt_.run.wall_seconds + 5;
  }
  // Under mu_: why to stop starting runs, or "".
  std::string StopReason() const {
    if (driver::Interrupted()) return "interrupted";
    if (unfinished_) return "unfinished";
    double now = Elapsed();
    if (now >= Hard()) return "deadline";
    if (now >= opt_.budget_seconds) return "budget";
    // Stale: no growth for that long, and at least one run finished since
    // the last growth (a slow run still in flight may yet bring some).
    if (stats_.runs > 0 && opt_.stale_seconds > 0 && runs_since_growth_ > 0 &&
        std::chrono::duration<double>(Clock::now() - grew_).count() >= opt_.stale_seconds) {
      return "stale";
    }
    if (opt_.max_runs > 0 && started_ >= opt_.max_runs) return "runs";
    return "";
  }

  // With opt_.exact, run m takes its candidate from the worklist as the
  // runs before m - J (J: the number of workers) left it: their proposals
  // join the worklist in the order of their run numbers, just before run m
  // is picked, and run m waits for run m - J to finish if it has not. What a
  // run runs then depends on the seed and on the traces of the runs before
  // it, not on which runs finished first (the free runs still vary by the
  // runtime's scheduling). Without it, proposals join as runs finish and no
  // worker waits. With one worker both are the same: run m follows run m - 1.
  void Work() {
    const size_t lag = static_cast<size_t>(std::max(1, opt_.jobs));
    for (;;) {
      Candidate c;
      size_t id = 0;
      {
        std::unique_lock<std::mutex> l(mu_);
        std::string stop = StopReason();
        if (!stop.empty()) {
          if (stats_.stopped.empty()) stats_.stopped = stop;
          finished_cv_.notify_all();  // the others stop too
          return;
        }
        size_t m = started_;
        if (opt_.exact && m >= lag && !JoinUpTo(m - lag)) {
          // Run m - J is still running: wait for it (or for a stop reason,
          // a budget or an interrupt, checked again every 50 ms).
          finished_cv_.wait_for(l, std::chrono::milliseconds(50));
          continue;
        }
        if (!worklist_.empty()) {
          c = std::move(worklist_.front());
          worklist_.pop_front();
        } else {
          // An idle worker runs the test freely (the runtime's own
          // scheduling varies) rather than wait for proposals: what the
          // runs in flight propose joins the worklist for the next worker
          // that is done.
          c = FreeRun("free run");
        }
        id = started_++;
        out_->ran.push_back(c.key);
      }
      std::vector<Candidate> proposed = RunOne(c, id);
      std::lock_guard<std::mutex> l(mu_);
      finished_[id] = std::move(proposed);
      if (!opt_.exact) JoinFinished();
      finished_cv_.notify_all();
    }
  }

  // Under mu_: the proposals of runs joined_ .. last, in the order of their
  // numbers, join the worklist (unless a proposal with the same key was
  // made before); false when one of those runs has not finished.
  bool JoinUpTo(size_t last) {
    while (joined_ <= last) {
      auto it = finished_.find(joined_);
      if (it == finished_.end()) return false;
      for (Candidate& p : it->second) {
        if (proposed_.insert(p.key).second) worklist_.push_back(std::move(p));
      }
      finished_.erase(it);
      joined_++;
    }
    return true;
  }

  // Under mu_: the proposals of every finished run join the worklist (in
  // the order of run numbers among them).
  void JoinFinished() {
    for (auto& [run, proposals] : finished_) {
      for (Candidate& p : proposals) {
        if (proposed_.insert(p.key).second) worklist_.push_back(std::move(p));
      }
    }
    finished_.clear();
  }

  // Runs c as run number id; returns what the strategies propose from it
  // (nothing for a run that gave no trace or was interrupted).
  std::vector<Candidate> RunOne(const Candidate& c, size_t id) {
    fs::path dir = fs::path(opt_.work_dir) / fmt::format("run-{}", id);
    std::error_code ec;
    fs::create_directories(dir, ec);
    struct Cleanup {
      fs::path d;
      ~Cleanup() { driver::RemoveTree(d.string()); }
    } cleanup{dir};
    std::string path = (dir / "schedule").string();
    std::string err;
    pipeline::RunOptions ro = opt_.run;
    ro.out_dir = (dir / "trace").string();
    // A run never ends past the campaign's hard deadline (less the time its
    // trace needs to be read).
    ro.wall_seconds = std::max(1.0, std::min(ro.wall_seconds, Hard() - Elapsed() - 3));
    pipeline::RunOutput run;
    bool ok = schedule::WriteSchedule(path, c.schedule, &err) &&
              runner_->Run(c.schedule, path, ro, &run, &err);
    // A run an interrupt stopped did not end by itself: nothing in it
    // (its test's failure, its blocked goroutines) is taken.
    if (run.record.run.interrupted) return {};
    if (run.record.run.timed_out) {
      std::lock_guard<std::mutex> l(mu_);
      stats_.killed_runs++;  // what it recorded until then is still analysed
      // A first run, free, that did not end by itself: the test does not
      // end (or not within the run wall). Fuzzing it would only repeat
      // that, and analysing a run cut short there would take the time the
      // campaign does not have: the test is not fuzzed.
      if (c.strategy == "free" && id < static_cast<size_t>(std::max(1, opt_.jobs))) {
        unfinished_ = true;
      }
      if (unfinished_) return {};
    }
    if (!ok) {
      std::lock_guard<std::mutex> l(mu_);
      stats_.failed_runs++;
      if (std::find(out_->errors.begin(), out_->errors.end(), err) == out_->errors.end()) {
        out_->errors.push_back(err);
      }
      Report();
      return {};
    }
    // Every detector on the run.
    auto analysis = std::make_unique<pipeline::TraceAnalysis>();
    std::vector<report::Finding> found;
    pipeline::AnalyzeOptions ao;
    ao.test = opt_.test;
    // The strategies ask the engine about any pair of operations.
    ao.clocks_on_demand = false;
    ao.package = opt_.package;
    report::Verdict verdict;
    bool first = c.strategy == "free" && id == 0;
    ao.verdict = &verdict;
    pipeline::AnalyzeRead(opt_.cmd, run.trace, run.trace_dir, ao, analysis.get(), &found);
    bool plain_failure = !run.record.run.timed_out && FailedPlainly(verdict, found);
    if (run.trace.truncated) {
      std::lock_guard<std::mutex> l(mu_);
      stats_.truncated_runs++;
    }
    RunSignals sig = SignalsOf(run.trace, analysis->ops);
    double at = Elapsed();
    std::vector<report::Finding> fresh;
    bool added_coverage = false;
    {
      std::lock_guard<std::mutex> l(mu_);
      stats_.runs++;
      if (first) {
        out_->verdict = verdict;
        out_->have_verdict = true;
      }
      if (plain_failure) {
        TestFailures& tf = out_->test_failures;
        if (tf.runs++ == 0) {
          tf.first_at = Elapsed();
          tf.first_by = c.key;
          tf.output = FailureExcerpt(run.record.run.out + run.record.run.err, opt_.test);
        }
      }
      added_coverage = coverage_.Add(sig) > 0;
      if (added_coverage) {
        grew_ = Clock::now();
        runs_since_growth_ = 0;
        if (c.strategy != "free" && c.strategy != "corpus" && !opt_.corpus_dir.empty()) {
          Keep(c.schedule);
        }
      } else {
        runs_since_growth_++;
      }
      for (report::Finding& f : found) {
        if (f.severity == report::Severity::Info) continue;
        std::string key = BugKey(f);
        auto it = seen_.find(key);
        // A bug that no replay has shown yet is taken again when this run
        // shows it (it occurred here): its replay may succeed this time.
        bool retry = it != seen_.end() && it->second == Known::Open &&
                     f.status == report::Status::Occurred;
        if (it != seen_.end() && !retry) continue;
        seen_[key] = Known::Pending;  // no other worker confirms it meanwhile
        fresh.push_back(f);
      }
    }
    // Confirmation of the new bugs, by replay, outside the lock: one
    // schedule directory per run (the confirmation names files after the
    // trace, which every run of a package shares).
    double left = Hard() - Elapsed() - 1;
    if (!fresh.empty() && analysis->have_hb && left >= 1) {
      pipeline::ConfirmOptions co = opt_.confirm;
      // Confirmation never takes the campaign past its hard deadline.
      co.per_test_seconds = std::min(co.per_test_seconds, left);
      co.per_finding_seconds = std::min(co.per_finding_seconds, left);
      co.schedule_dir = (fs::path(opt_.confirm.schedule_dir) / fmt::format("run-{}", id)).string();
      co.work_dir = (dir / "confirm").string();
      if (co.runner == nullptr) co.runner = runner_;
      pipeline::ConfirmTrace(opt_.cmd, run.trace, *analysis->hb, run.trace_dir, &fresh, co);
    }
    std::vector<Candidate> proposed;
    bool stopping = false;
    {
      std::lock_guard<std::mutex> l(mu_);
      std::string why = StopReason();
      stopping = why == "budget" || why == "deadline" || why == "interrupted" || why == "unfinished";
    }
    // No mutation once the campaign's time is up (nothing would run the
    // proposals, and they can take long), nor of a run too large to mutate
    // in time.
    if (analysis->have_hb && !stopping && run.trace.records.size() <= opt_.max_mutated_records) {
      std::lock_guard<std::mutex> l(strategy_mu_);
      Rng rng = Rng::ForRun(opt_.seed, id);
      AnalysedRun ar{run.trace, run.trace_dir, *analysis->hb, found, rng, &c, added_coverage};
      for (Strategy* s : opt_.strategies) s->Propose(ar, &proposed);
    }
    std::lock_guard<std::mutex> l(mu_);
    for (report::Finding& f : fresh) {
      std::string key = BugKey(f);
      seen_[key] = Proof(f) == 2 || !opt_.confirm.enabled ? Known::Proven : Known::Open;
      auto old = std::find_if(out_->findings.begin(), out_->findings.end(),
                              [&](const report::Finding& o) { return BugKey(o) == key; });
      if (old != out_->findings.end()) {
        if (Proof(f) <= Proof(*old)) continue;
        size_t k = static_cast<size_t>(old - out_->findings.begin());
        if (c.strategy != "free") f.found_under = ShortPaths(c.key);
        *old = std::move(f);  // keeps the time it was first seen
        out_->found_by[k] = c.key;
        if (opt_.found) opt_.found(*old, c.schedule);
        continue;
      }
      if (f.severity == report::Severity::Bug) stats_.bugs++;
      if (c.strategy != "free") f.found_under = ShortPaths(c.key);
      out_->findings.push_back(std::move(f));
      out_->found_at.push_back(at);
      out_->found_by.push_back(c.key);
      if (opt_.found) opt_.found(out_->findings.back(), c.schedule);
    }
    Report();
    return proposed;
  }

  // Whether the run's test failed (or did not finish in a binary that
  // ended by itself) with no bug that occurred in the run to explain it.
  bool FailedPlainly(const report::Verdict& v, const std::vector<report::Finding>& found) const {
    bool failed = std::any_of(v.tests.begin(), v.tests.end(), [&](const report::TestVerdict& t) {
      return t.name == opt_.test && t.result != report::TestResult::Pass;
    });
    if (!failed) return false;
    return std::none_of(found.begin(), found.end(), [](const report::Finding& f) {
      return f.severity == report::Severity::Bug && f.status == report::Status::Occurred;
    });
  }

  // Under mu_: stores a schedule whose run added coverage in the corpus.
  void Keep(const schedule::Schedule& s) {
    bool added = false;
    std::string err;
    if (!AddToCorpus(opt_.corpus_dir, s, &added, &err)) {
      if (std::find(out_->warnings.begin(), out_->warnings.end(), err) == out_->warnings.end()) {
        out_->warnings.push_back(err);
      }
      return;
    }
    stats_.corpus_added += added;
  }

  void Report() {  // under mu_
    if (progress_) progress_(Stats());
  }

  const CampaignOptions& opt_;
  CampaignResult* out_;
  const std::function<void(const CampaignStats&)>& progress_;
  pipeline::GoScheduleRunner go_;
  pipeline::ScheduleRunner* runner_;
  const Clock::time_point start_;

  std::mutex mu_;  // everything below
  Clock::time_point grew_;           // coverage last grew
  size_t runs_since_growth_ = 0;     // runs analysed since
  std::deque<Candidate> worklist_;
  std::set<std::string> proposed_;   // keys ever proposed (joined)
  // Proposals of finished runs not yet joined, by run number; runs below
  // joined_ have joined (JoinUpTo).
  std::map<size_t, std::vector<Candidate>> finished_;
  size_t joined_ = 0;
  std::condition_variable finished_cv_;  // a run finished, or a worker stopped
  std::map<std::string, Known> seen_;  // findings by BugKey
  Coverage coverage_;
  CampaignStats stats_;
  size_t started_ = 0;
  bool unfinished_ = false;  // the first free run was killed at the run wall
  std::mutex strategy_mu_;  // strategies propose one run at a time
};

}  // namespace

void RunCampaign(const CampaignOptions& opt, CampaignResult* out,
                 const std::function<void(const CampaignStats&)>& progress) {
  *out = CampaignResult();
  for (Strategy* s : opt.strategies) s->Begin();
  Campaign c(opt, out, progress);
  c.Run();
}

}  // namespace gordian::fuzz
