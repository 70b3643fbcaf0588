// This file implements the flow of `gordian fuzz` (campaigns.h).
#include "gordian/fuzz/campaigns.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "gordian/driver/process.h"
#include "gordian/driver/record.h"
#include "gordian/driver/shard.h"
#include "gordian/driver/test_list.h"
#include "gordian/driver/work_dir.h"
#include "gordian/fuzz/campaign.h"
#include "gordian/fuzz/corpus.h"
#include "gordian/pipeline/analyze_trace.h"
#include "gordian/pipeline/binary_runner.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/trace/trace.h"
#include "gordian/util/fnv.h"

namespace gordian::fuzz {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// One test of one package, and how to run it alone.
struct TestToFuzz {
  std::string package;
  std::string name;
  schedule::Invocation inv;
};

std::string Seconds(double s) {
  return s == static_cast<double>(static_cast<long>(s)) ? fmt::format("{}s", static_cast<long>(s))
                                                        : fmt::format("{:.1f}s", s);
}

// The tests' finding log: every bug of every campaign so far, in the order
// found, improved in place when a later run proves it better.
class Found {
 public:
  explicit Found(const CampaignsOptions& opt) : opt_(opt) {}
  // A campaign's new or better proven bug (from its worker).
  // after: seconds from the start of the test's campaign (its binary built)
  // to the run that showed or proved it.
  void Add(const std::string& test, const std::string& package_dir,
           const std::string& regression_dir, const report::Finding& f, double after) {
    std::lock_guard<std::mutex> l(mu_);
    std::string key = Key(test, f);
    auto it = index_.find(key);
    bool fresh = it == index_.end();
    if (fresh) {
      index_[key] = all_.size();
      all_.push_back(f);
    } else {
      all_[it->second] = f;
    }
    if (f.severity != report::Severity::Info) {
      std::string where = f.locations.empty()
                              ? std::string("?")
                              : fmt::format("{}:{}", fs::path(f.locations[0].file).filename().string(),
                                            f.locations[0].line);
      std::string saved = WriteRegression(test, package_dir, regression_dir, f);
      if (opt_.say) {
        if (opt_.progress_clear) opt_.progress_clear();
        opt_.say(fmt::format("{}: {}: {} at {} ({}) after {:.1f}s{}{}", opt_.cmd, test, report::KindName(f.kind),
                             where, report::StatusName(f.status), after, fresh ? "" : ", now proven",
                             saved.empty() ? "" : "; its schedule: " + saved));
      }
    }
    if (opt_.found) opt_.found(all_);
  }
  std::vector<report::Finding> Take() {
    std::lock_guard<std::mutex> l(mu_);
    return std::move(all_);
  }

 private:
  static std::string Key(const std::string& test, const report::Finding& f) {
    const report::Location* l = f.locations.empty() ? nullptr : &f.locations[0];
    return fmt::format("{}|{}|{}|{}:{}", test, report::KindName(f.kind),
                       report::PrimitiveName(f.primitive), l ? l->file : "", l ? l->line : 0);
  }
  // The schedule that reproduces f, into the test's regression directory
  // (run first by the next campaign); its path relative to the package
  // directory when it is inside it, or "" when there is none or it cannot
  // be written.
  std::string WriteRegression(const std::string& test, const std::string& package_dir,
                              const std::string& regression_dir, const report::Finding& f) {
    if (regression_dir.empty() || f.reproduce_schedule.empty() || package_dir.empty()) return "";
    schedule::Schedule s;
    std::string err;
    if (!schedule::ReadSchedule(f.reproduce_schedule, &s, &err)) return "";
    s.cmd.cwd = package_dir;
    // The file says what it reproduces: the bug is kept with its schedule
    // even when the report files are lost.
    const report::Location* l = f.locations.empty() ? nullptr : &f.locations[0];
    s.origin = fmt::format("gordian fuzz: reproduces {} at {}:{} ({}) in {}", report::KindName(f.kind),
                           l ? fs::path(l->file).filename().string() : "?", l ? l->line : 0,
                           report::StatusName(f.status), test);
    fs::path dir = regression_dir;
    bool added = false;
    if (!AddToCorpus(dir.string(), s, &added, &err)) {
      if (opt_.say) opt_.say(fmt::format("{}: {}: cannot keep the bug's schedule: {}", opt_.cmd, test, err));
      return "";
    }
    fs::path saved = dir / CorpusName(s);
    fs::path rel = saved.lexically_relative(package_dir);
    return rel.empty() || *rel.begin() == ".." ? saved.string() : rel.string();
  }

  const CampaignsOptions& opt_;
  std::mutex mu_;
  std::vector<report::Finding> all_;
  std::map<std::string, size_t> index_;
};

}  // namespace

std::string CacheCorpusDir(const std::string& cache_dir, const std::string& package_dir,
                           const std::string& test) {
  // One corpus per checkout of the package.
  return (fs::path(cache_dir) / "fuzz-corpus" / fmt::format("{:016x}", util::Fnv1a64(package_dir)) / test)
      .string();
}

TestBounds BoundsFor(double budget, double run_wall, double total_left, size_t tests_left) {
  TestBounds b{budget, run_wall, 0};
  if (total_left > 0 && tests_left > 0) {
    // Each test gets an equal share of what is left, which must hold its
    // budget, a run in flight at the end of it, and the margin.
    double share = total_left / static_cast<double>(tests_left);
    b.run_wall = std::max(1.0, std::min(run_wall, share / 3));
    b.budget = std::max(0.5, std::min(budget, share - b.run_wall - 5));
  }
  b.hard = b.budget + b.run_wall + 5;
  return b;
}

namespace {

// The tests to fuzz, each with the invocation that runs it alone: one
// recording that runs no test (for how to run each package's tests again)
// and the tests' names from go test -list. None, with out->err or
// out->end set, when there is nothing to fuzz.
std::vector<TestToFuzz> ListTestsToFuzz(const CampaignsOptions& opt, const std::string& cwd,
                                        const std::function<void(const std::string&)>& say,
                                        CampaignsResult* out) {
  driver::RecordOptions ro;
  ro.mode = driver::RecordMode::kTest;
  ro.args = driver::WithOnlyTests(opt.go_args, {});
  ro.cwd = cwd;
  ro.out_dir = opt.scratch_dir + "/build";
  ro.wall_seconds = opt.wall_seconds;
  ro.pass_through = false;
  driver::RecordResult built;
  if (opt.progress) opt.progress("building the packages' tests");
  if (!driver::Record(ro, &built, &out->err)) return {};
  if (driver::Interrupted() || built.run.interrupted) {
    out->end = CampaignsResult::End::kInterrupted;
    return {};
  }
  if (built.build_failed) {
    out->build_failed = true;
    for (const auto& e : built.build_errors) say(e.String());
    out->err = "the build failed; fix the errors and run again";
    return {};
  }
  std::vector<driver::PackageTests> names;
  std::string err;
  if (!driver::ListTests(opt.go_args, cwd, opt.wall_seconds, &names, &err)) {
    if (driver::Interrupted()) {
      out->end = CampaignsResult::End::kInterrupted;
      return {};
    }
    out->err = err;
    return {};
  }
  std::vector<TestToFuzz> tests;
  std::vector<std::string> recorded;
  for (const driver::PackageTrace& p : built.traces) {
    trace::Trace t;
    if (!trace::ReadTrace(p.trace_dir, &t, &err)) {
      say(fmt::format("{}: {}: {}", opt.cmd, p.trace_dir, err));
      continue;
    }
    std::string pkg = p.import_path.empty() ? p.name : p.import_path;
    schedule::Invocation inv = schedule::InvocationOf(t, p.trace_dir);
    if (inv.mode != "test" || inv.cwd.empty()) {
      say(fmt::format("{}: {}: the recording does not say how to run its tests again", opt.cmd, pkg));
      continue;
    }
    recorded.push_back(pkg);
    for (const driver::PackageTests& n : names) {
      if (n.package != pkg || !n.listed) continue;
      for (const std::string& name : n.tests) tests.push_back(TestToFuzz{pkg, name, schedule::OnlyTest(inv, name)});
    }
  }
  for (const driver::PackageTests& n : names) {
    if (!n.tests.empty() && std::find(recorded.begin(), recorded.end(), n.package) == recorded.end()) {
      say(fmt::format("{}: {}: not fuzzed: its test binary left no recording to run its tests from",
                      opt.cmd, n.package));
    }
  }
  out->tests = tests.size();
  if (tests.empty()) {
    out->err = fmt::format("no test to fuzz ({}); do the packages have tests, and does -run select any?",
                           built.traces.empty() ? "go test ran no test binary" : "go test -list listed none");
    return {};
  }
  return tests;

}

// The options of test k's campaign within bounds b.
CampaignOptions CampaignOptionsFor(const CampaignsOptions& opt, const TestToFuzz& tt, size_t k,
                                   const TestBounds& b, pipeline::ScheduleRunner* runner) {
  CampaignOptions co;
  co.cmd = opt.cmd;
  co.invocation = tt.inv;
  co.test = tt.name;
  co.package = tt.package;
  co.budget_seconds = b.budget;
  co.hard_seconds = b.hard;
  co.stale_seconds = opt.stale_seconds;
  co.max_runs = opt.max_runs;
  co.jobs = opt.jobs;
  co.seed = opt.seed;
  co.exact = opt.exact;
  co.runner = runner;
  if (opt.corpus.empty()) {
    co.corpus_dir = CacheCorpusDir(opt.cache_dir, tt.inv.cwd, tt.name);
  } else if (opt.corpus != "off") {
    co.corpus_dir = (fs::absolute(opt.corpus) / tt.package / tt.name).string();
  }
  if (!opt.write_regressions) {
    // nowhere
  } else if (opt.corpus.empty()) {
    co.regression_dir = (fs::path(tt.inv.cwd) / "testdata" / "gordian-fuzz" / tt.name).string();
  } else {
    // A corpus directory the user named holds the bug schedules too: the
    // package's tree is left as it was.
    co.regression_dir = co.corpus_dir;
  }
  co.work_dir = fmt::format("{}/test-{}", opt.scratch_dir, k);
  co.run.wall_seconds = b.run_wall;
  co.run.pass_through = false;
  co.run.stall_ms = 300;  // a schedule the program cannot follow costs little
  co.run.trace_max_mb = opt.run_trace_max_mb;
  co.confirm.enabled = opt.confirm;
  co.confirm.schedule_dir = (fs::path(opt.schedule_dir) / fmt::format("test-{}", k)).string();
  co.confirm.per_finding_seconds = b.run_wall;
  co.confirm.per_test_seconds = 2 * b.run_wall;
  co.confirm.gordian = opt.self_exe.empty() ? "gordian" : opt.self_exe;
  co.confirm.verbose = opt.verbose;
  co.strategies = opt.strategies;
  return co;
}

// What test tt's campaign did, said and added to out: its end line, its
// verdict, the failures no finding explains, the corpus' warnings and the
// runs that failed.
void ReportCampaign(const CampaignsOptions& opt, const TestToFuzz& tt, const TestBounds& b,
                    const CampaignOptions& co, const CampaignResult& res,
                    const std::function<void(const std::string&)>& say, CampaignsResult* out) {
  const CampaignStats& s = res.stats;
  if (s.stopped == "unfinished") {
    out->not_fuzzed.push_back(fmt::format("{} did not finish in {} (-run-wall)", tt.name, Seconds(b.run_wall)));
    say(fmt::format("{}: {} did not finish in {} (-run-wall); not fuzzed", opt.cmd, tt.name,
                    Seconds(b.run_wall)));
  } else {
    say(fmt::format("{}: {}: {} runs in {:.1f}s ({:.1f} runs/s), coverage {}, stopped: {}{}{}{}", opt.cmd,
                    tt.name, s.runs, s.elapsed, s.elapsed > 0 ? s.runs / s.elapsed : 0.0, s.coverage,
                    s.stopped,
                    s.killed_runs > 0 ? fmt::format("; {} run(s) killed at -run-wall", s.killed_runs) : "",
                    s.truncated_runs > 0
                        ? fmt::format("; {} run(s) cut short at {} MB of trace", s.truncated_runs,
                                      opt.run_trace_max_mb)
                        : "",
                    s.corpus_read + s.corpus_added > 0
                        ? fmt::format("; corpus: {} replayed, {} added to {}", s.corpus_read,
                                      s.corpus_added, co.corpus_dir)
                        : ""));
  }
  if (res.have_verdict) {
    for (const report::TestVerdict& v : res.verdict.tests) {
      if (v.name == tt.name || v.name.starts_with(tt.name + "/")) out->verdict.tests.push_back(v);
    }
  } else if (s.stopped == "unfinished") {
    out->verdict.tests.push_back(report::TestVerdict{tt.package, tt.name, report::TestResult::Unfinished});
  }
  if (const TestFailures& tf = res.test_failures; tf.runs > 0) {
    // No finding explains it: the test depends on timing (a timeout, a
    // sleep, a deadline) that a loaded machine can change as the
    // schedules did. Said as such, with the first run that showed it.
    std::string why = tf.first_by == "free run"
                          ? "it failed in a run without a schedule too: timing-sensitive or flaky "
                            "under recording"
                          : "it depends on timing these schedules changed, as a loaded machine can";
    std::string text = fmt::format("{}: {}: the test failed in {} of {} runs with no concurrency finding to "
                                   "explain it; {} (first after {:.1f}s, {}){}",
                                   opt.cmd, tt.name, tf.runs, s.runs, why, tf.first_at, tf.first_by,
                                   tf.output.empty() ? "" : ":");
    if (!tf.output.empty()) {
      std::string indented = "    " + tf.output;
      for (size_t at = 0; (at = indented.find('\n', at)) != std::string::npos; at += 5) {
        indented.insert(at + 1, "    ");
      }
      text += "\n" + indented;
    }
    say(text);
    out->fuzz.test_failures.push_back(
        report::FuzzTestFailure{tt.package, tt.name, tf.runs, s.runs, tf.first_by, tf.output});
    // go test would have failed under that schedule: so does the verdict.
    bool in_verdict = false;
    for (report::TestVerdict& v : out->verdict.tests) {
      if (v.package == tt.package && v.name == tt.name) {
        in_verdict = true;
        if (v.result == report::TestResult::Pass) v.result = report::TestResult::Fail;
      }
    }
    if (!in_verdict) {
      out->verdict.tests.push_back(report::TestVerdict{tt.package, tt.name, report::TestResult::Fail});
    }
  }
  for (const std::string& w : res.warnings) say(fmt::format("{}: {}: corpus: {}", opt.cmd, tt.name, w));
  for (const std::string& e : res.errors) {
    say(fmt::format("{}: {}: {} run(s) failed: {}", opt.cmd, tt.name, s.failed_runs, e));
  }
}

}  // namespace

void RunCampaigns(const CampaignsOptions& opt, CampaignsResult* out) {
  *out = CampaignsResult();
  out->fuzz.seed = opt.seed;
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  auto say = [&](const std::string& line) {
    if (opt.progress_clear) opt.progress_clear();
    if (opt.say) opt.say(line);
  };
  std::string cwd = opt.cwd.empty() ? fs::current_path().string() : opt.cwd;

  // 1. The build, and the tests.
  std::vector<TestToFuzz> tests = ListTestsToFuzz(opt, cwd, say, out);
  if (tests.empty()) return;

  // 2. A campaign per test, each from the same seed.
  TestBounds first = BoundsFor(opt.budget_seconds, opt.run_wall_seconds, opt.total_seconds, tests.size());
  if (opt.total_seconds > 0) {
    say(fmt::format("{}: seed {}; {} test{}, about {} each; all of it ends within {} (-total)", opt.cmd,
                    opt.seed, tests.size(), tests.size() == 1 ? "" : "s", Seconds(first.hard),
                    Seconds(opt.total_seconds + 5)));
  } else {
    say(fmt::format("{}: seed {}; {} test{}, each ends within {} ({} of fuzzing, a run in flight, "
                    "the replays); all of it within {}", opt.cmd, opt.seed, tests.size(),
                    tests.size() == 1 ? "" : "s", Seconds(first.hard), Seconds(first.budget),
                    Seconds(first.hard * static_cast<double>(tests.size()))));
  }
  Found found(opt);
  std::map<std::string, std::unique_ptr<pipeline::TestBinaryRunner>> binaries;
  pipeline::GoScheduleRunner go_runner;
  bool stopped = false;
  for (size_t k = 0; k < tests.size(); k++) {
    const TestToFuzz& tt = tests[k];
    if (driver::Interrupted()) {
      stopped = true;
      break;
    }
    double total_left = opt.total_seconds > 0 ? opt.total_seconds - elapsed() : 0;
    if (opt.total_seconds > 0 && total_left < 2) {
      for (size_t j = k; j < tests.size(); j++) {
        out->not_fuzzed.push_back(fmt::format("{}: the total (-total {}) was spent",
                                              tests[j].name, Seconds(opt.total_seconds)));
      }
      stopped = true;
      break;
    }
    TestBounds b = BoundsFor(opt.budget_seconds, opt.run_wall_seconds, total_left, tests.size() - k);
    pipeline::ScheduleRunner* runner = nullptr;  // go test per run
    std::string bin_key = tt.inv.cwd + (tt.inv.race ? " -race" : "");
    if (!opt.go_test_per_run) {
      auto it = binaries.find(bin_key);
      if (it == binaries.end()) {
        std::string bin_dir = fmt::format("{}/bin-{}", opt.scratch_dir, binaries.size());
        std::error_code ec;
        fs::create_directories(bin_dir, ec);
        driver::TestBinary bin;
        std::string berr;
        if (driver::BuildTestBinary(tt.inv.cwd, tt.inv.race, {}, bin_dir, opt.wall_seconds, &bin, &berr)) {
          it = binaries.emplace(bin_key, std::make_unique<pipeline::TestBinaryRunner>(bin, &go_runner)).first;
        } else {
          if (driver::Interrupted()) {
            stopped = true;
            break;
          }
          say(fmt::format("{}: {}: {}; each run goes through go test instead", opt.cmd, tt.package, berr));
          it = binaries.emplace(bin_key, nullptr).first;
        }
      }
      runner = it->second.get();
    }
    CampaignOptions co = CampaignOptionsFor(opt, tt, k, b, runner);
    const std::string package_dir = tt.inv.cwd;
    const auto campaign_start = Clock::now();
    co.found = [&](const report::Finding& f, const schedule::Schedule&) {
      found.Add(tt.name, package_dir, co.regression_dir, f,
                std::chrono::duration<double>(Clock::now() - campaign_start).count());
    };
    std::string label = fmt::format("{} ({} of {})", tt.name, k + 1, tests.size());
    auto progress = [&](const CampaignStats& s) {
      if (!opt.progress) return;
      opt.progress(fmt::format("{}: {} runs, {:.1f} runs/s, coverage {}, {} bug{}", label, s.runs,
                               s.elapsed > 0 ? s.runs / s.elapsed : 0.0, s.coverage, s.bugs,
                               s.bugs == 1 ? "" : "s"));
    };
    CampaignResult res;
    RunCampaign(co, &res, progress);
    if (opt.progress_clear) opt.progress_clear();
    ReportCampaign(opt, tt, b, co, res, say, out);
    const CampaignStats& s = res.stats;
    if (s.stopped == "interrupted" || driver::Interrupted()) {
      stopped = true;
      break;
    }
    out->fuzzed++;
  }
  out->findings = found.Take();
  out->end = stopped ? CampaignsResult::End::kInterrupted : CampaignsResult::End::kDone;
}

CampaignDirs::~CampaignDirs() {
  if (!scratch_.empty()) driver::RemoveTree(scratch_);
}

bool CampaignDirs::Make(std::string* err) {
  if (!driver::CacheDir(&cache_, err) || !driver::MakeRunDir(cache_, &scratch_, err)) return false;
  driver::PruneSchedules(cache_);
  return true;
}

void CampaignDirs::SetUp(CampaignsOptions* opt) const {
  opt->cache_dir = cache_;
  opt->scratch_dir = scratch_;
  opt->schedule_dir = (fs::path(cache_) / "schedules" / fs::path(scratch_).filename()).string();
  std::string self = driver::SelfExe();
  opt->self_exe = self.empty() ? "gordian" : self;
}

}  // namespace gordian::fuzz
