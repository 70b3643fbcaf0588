// This file implements the confirmation step (confirm.h).
#include "gordian/pipeline/confirm.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "gordian/detect/rewrite_plan.h"
#include "gordian/driver/deadline.h"
#include "gordian/driver/process.h"
#include "gordian/pipeline/reproduce.h"
#include "gordian/pipeline/schedule_runner.h"
#include "gordian/pipeline/binary_runner.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/rewrite/rewrite.h"
#include "gordian/util/phase_timing.h"

namespace gordian::pipeline {

using schedule::Schedule;

namespace fs = std::filesystem;

namespace {

// The trace directory's own name, for the names of the files made from it.
std::string TraceName(const std::string& trace_dir) {
  fs::path p = fs::path(trace_dir).lexically_normal();
  std::string base = p.filename().string();
  return base.empty() ? p.parent_path().filename().string() : base;
}


// The runner of opt, else the go command's.
ScheduleRunner& RunnerOf(const ConfirmOptions& opt) {
  static GoScheduleRunner go;
  return opt.runner != nullptr ? *opt.runner : go;
}

}  // namespace

ConfirmClocks ClocksForConfirmation(const trace::Trace& t, const hb::HappensBefore& hb,
                                    const std::vector<report::Finding>& findings) {
  ConfirmClocks out;
  for (const report::Finding& f : findings) {
    if (!ReplaysPrediction(f) || f.records.empty()) continue;
    const detect::RewriteSpec& spec = detect::RewriteOf(f.kind);
    if (spec.plan == nullptr) continue;  // not rewritten
    if (!spec.index_only) return {true, UINT32_MAX};
    std::vector<detect::Plan> plans;
    std::string err;
    if (!spec.plan(detect::PlanInput{t, hb, nullptr, f}, &plans, &err)) continue;
    for (const detect::Plan& p : plans) {
      // A past too large to rewrite needs no clock: its rewrite says so
      // before it asks for one.
      if (rewrite::TooLargeToRewrite(t, hb.ops(), p, &err)) continue;
      for (const detect::BugOp& b : p.bug) {
        out.needed = true;
        for (trace::RecordId r : {b.rec, hb.ops().Owner(b.rec)}) {
          out.up_to_stamp = std::max(out.up_to_stamp, t.records[r].tpre);
        }
      }
    }
  }
  return out;
}

void ConfirmFindings(const trace::Trace& t, const std::string& trace_dir,
                     const hb::HappensBefore& hb, std::vector<report::Finding>* findings,
                     const ConfirmOptions& opt, ConfirmSummary* sum) {
  using clock = std::chrono::steady_clock;
  std::map<std::string, double> spent;  // replay seconds per test
  std::unique_ptr<hb::HappensBefore> weak;
  bool weak_tried = false;
  // De-duplicate: one replay per dedup key.
  std::map<std::string, std::vector<size_t>> groups;
  std::vector<std::string> order;
  for (size_t i = 0; i < findings->size(); i++) {
    const report::Finding& f = (*findings)[i];
    if (!ReplaysPrediction(f)) continue;
    std::string key = f.dedup_key.empty() ? fmt::format("#{}", i) : f.dedup_key;
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) order.push_back(key);
    it->second.push_back(i);
  }
  std::string base = TraceName(trace_dir);
  std::error_code ec;
  if (!order.empty()) {
    fs::create_directories(opt.schedule_dir, ec);
    fs::create_directories(opt.work_dir, ec);
  }
  size_t n = 0;
  util::PhaseTimer timer("confirm");  // GORDIAN_TIMING=1: rewrite, schedule, replay per finding
  for (const std::string& key : order) {
    if (driver::Interrupted()) return;  // winding down: no more replays
    const std::vector<size_t>& members = groups[key];
    report::Finding& f = (*findings)[members.front()];
    sum->predicted++;
    std::string kind(report::KindName(f.kind));
    std::string site = ShortSite(f);
    auto note = [&](const std::string& what) {
      sum->notes.push_back(fmt::format("{} at {}: {}", kind, site, what));
    };
    // A finding left predicted says why (report::SettleUnconfirmed shows it
    // as a warning with this note).
    auto leave = [&](const std::string& why) {
      sum->not_rewritten++;
      note("not replayed: " + why);
      for (size_t i : members) (*findings)[i].note = why;
    };
    if (detect::RewriteOf(f.kind).needs_weak && !weak_tried) {
      weak_tried = true;
      weak = hb::BuildWithoutMutexEdges(hb, hb.options());
    }
    rewrite::Rewrite rw;
    std::string err;
    const bool rewritten = rewrite::RewriteFinding(t, trace_dir, hb, weak.get(), f, &rw, &err);
    timer.Lap(fmt::format("rewrite {} ({} ops)", kind, rw.schedule.ops.size()).c_str());
    if (!rewritten) {
      leave("no schedule could be made to force it (" + err + ")");
      continue;
    }
    if (rw.schedule.cmd.mode == "run" && rw.schedule.cmd.args.empty()) {
      rw.schedule.cmd.args = opt.fallback.args;
      if (rw.schedule.cmd.cwd.empty()) rw.schedule.cmd.cwd = opt.fallback.cwd;
    }
    if (rw.schedule.cmd.mode.empty()) {
      leave("the trace does not say how to run the program again");
      continue;
    }
    // The budget is per test: a package whose tests have many predicted
    // bugs does not starve its later tests.
    double left = opt.per_test_seconds - spent[f.test];
    if (left < 1) {
      leave(fmt::format("the replay budget of {} ran out ({:.0f} s of replays per test; raise it "
                        "with --confirm-budget)",
                        f.test.empty() ? std::string("the program") : f.test,
                        opt.per_test_seconds));
      continue;
    }
    // Confirmation is optional work: it stops before the -wall deadline
    // would end the command without a report.
    left = std::min(left, driver::SecondsLeftForOptionalWork());
    if (left < 1) {
      leave("the -wall limit was near (raise -wall)");
      continue;
    }
    std::string path =
        (fs::path(opt.schedule_dir) / fmt::format("{}-{}-{}.sched", base, n, kind)).string();
    std::string out_dir = (fs::path(opt.work_dir) / fmt::format("{}-{}", base, n)).string();
    n++;
    if (!schedule::WriteSchedule(path, rw.schedule, &err)) {
      leave("its schedule could not be written: " + err);
      continue;
    }
    timer.Lap("write schedule");
    RunOptions ro;
    ro.out_dir = out_dir;
    ro.wall_seconds = std::min(opt.per_finding_seconds, left);
    ro.pass_through = opt.pass_through;
    ro.stall_ms = opt.stall_ms;
    ScheduledRun res;
    std::string reproduce = ReproduceCommand(opt.gordian, path);
    report::Status st = report::Status::Unconfirmed;
    if (opt.progress) opt.progress(fmt::format("replaying to confirm {} at {}", kind, site));
    const auto replay_start = clock::now();
    bool ran = RunSchedule(RunnerOf(opt), rw.schedule, path, ro, &res, &err);
    spent[f.test] += std::chrono::duration<double>(clock::now() - replay_start).count();
    timer.Lap("replay (build and run)");
    if (!ran) {
      // A replay that could not run says nothing about the bug.
      leave("its replay failed: " + err);
      continue;
    } else {
      std::string miss = rewrite::CheckExpectations(rw.expect, res.trace);
      if (miss.empty()) {
        st = report::Status::Confirmed;
        note(fmt::format("confirmed ({}); {}", rw.how, reproduce));
      } else if (res.record.run.timed_out) {
        // Stopped at its time limit before the bug's operations: that says
        // nothing about the bug (a schedule of 100,000 operations among
        // thousands of goroutines replays at a few thousand a second). The
        // finding stays predicted.
        sum->not_rewritten++;
        note(fmt::format("not confirmed: the replay was stopped at its {:.0f} s limit after {} of "
                         "{} operations; schedule {}",
                         ro.wall_seconds, res.follow.followed, res.follow.ops, path));
        for (size_t i : members) {
          (*findings)[i].note = fmt::format(
              "its replay was stopped at its {:.0f} s limit after {} of {} operations (raise "
              "--confirm-budget)",
              ro.wall_seconds, res.follow.followed, res.follow.ops);
        }
        continue;
      } else {
        note(fmt::format("unconfirmed: {} [{}]; schedule {}", miss,
                         schedule::DescribeFollow(res.follow),
                         path));
      }
    }
    if (st == report::Status::Confirmed) sum->confirmed++;
    else sum->unconfirmed++;
    // `reproduce` replays the bug: only a confirmed finding has such a
    // command. The schedule of a refuted one stays in schedule_dir only
    // with --verbose, whose note names it.
    if (st != report::Status::Confirmed && !opt.verbose) {
      std::error_code rm;
      fs::remove(path, rm);
    }
    // A leak whose replay ended with every goroutine blocked: the
    // leaked goroutine was what the rest waited for, and the test hangs.
    // Said, so that a reader of "goroutine leak" who runs the reproduce
    // command and sees a global deadlock knows it is the same bug.
    const bool hangs = st == report::Status::Confirmed &&
                       f.kind == report::FindingKind::GoroutineLeak &&
                       rewrite::EndedInGlobalDeadlock(res.trace);
    for (size_t i : members) {
      (*findings)[i].status = st;
      if (st == report::Status::Confirmed) {
        (*findings)[i].reproduce = reproduce;
        (*findings)[i].reproduce_schedule = path;
      }
      if (hangs) {
        (*findings)[i].message += "; in its replay the whole test hangs (every goroutine blocked)";
      }
    }
  }
}

namespace {

// Same kind, same file (by base name: the replayed findings' paths are not
// made relative like the report's) and line of the primary location (for a
// data race, of both accesses).
bool SameBug(const report::Finding& a, const report::Finding& b) {
  if (a.kind != b.kind || a.locations.empty() || b.locations.empty()) return false;
  const report::Location& x = a.locations[0];
  const report::Location& y = b.locations[0];
  bool same = x.line == y.line && fs::path(x.file).filename() == fs::path(y.file).filename();
  // A data race is a pair of accesses: the replay must race at both sites.
  if (same && a.kind == report::FindingKind::DataRace) {
    if (a.locations.size() != b.locations.size()) return false;
    for (size_t i = 1; i < a.locations.size(); i++) {
      const report::Location& p = a.locations[i];
      const report::Location& q = b.locations[i];
      if (p.line != q.line || p.role != q.role ||
          fs::path(p.file).filename() != fs::path(q.file).filename()) {
        return false;
      }
    }
  }
  return same;
}

}  // namespace

void ReproduceOccurred(const trace::Trace& t, const std::string& trace_dir,
                       std::vector<report::Finding>* findings, const ConfirmOptions& opt,
                       ConfirmSummary* sum) {
  // The findings to reproduce, by top-level test ("" for a main program or
  // a finding outside every test).
  std::map<std::string, std::vector<size_t>> by_test;
  size_t wanted = 0;
  for (size_t i = 0; i < findings->size(); i++) {
    const report::Finding& f = (*findings)[i];
    // concurrent-recv is a property of the run (two receives not ordered),
    // not an event a replay can hit again.
    if (f.status == report::Status::Occurred && f.severity != report::Severity::Info &&
        f.kind != report::FindingKind::ConcurrentRecv && f.reproduce.empty()) {
      by_test[f.test.substr(0, f.test.find('/'))].push_back(i);
      wanted++;
    }
  }
  if (wanted == 0 || driver::Interrupted()) return;
  sum->occurred += wanted;
  std::string base = TraceName(trace_dir);
  std::error_code ec;
  fs::create_directories(opt.schedule_dir, ec);
  fs::create_directories(opt.work_dir, ec);
  // One replay per test, of that test alone: its schedule holds the test's
  // operations only, so the reproduce command replays one test in seconds
  // instead of a whole suite (whose schedule took gigabytes). A finding
  // outside every test, or whose test cannot be run alone, replays the
  // whole run when that is small.
  constexpr size_t kMaxWholeRunOps = 1u << 20;
  constexpr size_t kMaxTests = 8;
  size_t n = 0;
  for (const auto& [test, want] : by_test) {
    if (driver::Interrupted()) return;
    double left = std::min(opt.per_finding_seconds, driver::SecondsLeftForOptionalWork());
    if (left < 1) {
      sum->notes.push_back("occurred bugs: no replay (the -wall limit is near)");
      return;
    }
    if (n++ >= kMaxTests) {
      sum->notes.push_back(fmt::format("occurred bugs of {}: no replay (at most {} tests' are replayed)",
                                       test, kMaxTests));
      continue;
    }
    Schedule s;
    std::string why, label;
    if (!test.empty() && schedule::FromTraceForTest(t, trace_dir, test, &s, &why)) {
      label = fmt::format("{}-{}", base, test);
    } else {
      // Counted before it is made: a suite's whole schedule is gigabytes.
      if (size_t ops = schedule::ControlledOpCount(t); ops > kMaxWholeRunOps) {
        sum->notes.push_back(fmt::format(
            "occurred bugs{}: no replay: the recorded run has {} operations{}", test.empty() ? "" : " of " + test,
            ops, why.empty() ? "" : " and " + why));
        continue;
      }
      s = schedule::FromTrace(t, trace_dir);
      label = fmt::format("{}-recorded", base);
    }
    if (s.cmd.mode == "run" && s.cmd.args.empty()) {
      s.cmd.args = opt.fallback.args;
      if (s.cmd.cwd.empty()) s.cmd.cwd = opt.fallback.cwd;
    }
    if (s.cmd.mode.empty()) {
      sum->notes.push_back("occurred bugs: no replay (the trace does not say how to run the program)");
      return;
    }
    s.origin = fmt::format("recorded run {}{}", fs::absolute(trace_dir).lexically_normal().string(),
                           test.empty() ? "" : ", test " + test);
    std::string path = (fs::path(opt.schedule_dir) / (label + ".sched")).string();
    std::string err;
    if (!schedule::WriteSchedule(path, s, &err)) {
      sum->notes.push_back("occurred bugs: no replay: " + err);
      return;
    }
    RunOptions ro;
    ro.out_dir = (fs::path(opt.work_dir) / label).string();
    ro.wall_seconds = left;
    ro.pass_through = opt.pass_through;
    ro.stall_ms = opt.stall_ms;
    ScheduledRun res;
    if (opt.progress) {
      opt.progress(test.empty() ? fmt::format("replaying the recorded run of {}", base)
                                : fmt::format("replaying the recorded run of {}", test));
    }
    if (!RunSchedule(RunnerOf(opt), s, path, ro, &res, &err)) {
      sum->notes.push_back("occurred bugs: replay failed: " + err);
      continue;
    }
    std::string reproduce = ReproduceCommand(opt.gordian, path);
    bool any = false;
    for (size_t i : want) {
      report::Finding& f = (*findings)[i];
      bool hit = false;
      for (const report::Finding& r : res.occurred) hit = hit || SameBug(f, r);
      std::string site = ShortSite(f);
      if (hit) {
        any = true;
        f.reproduce = reproduce;
        f.reproduce_schedule = path;
        sum->reproduced++;
        sum->notes.push_back(fmt::format("{} at {} (occurred): the recorded schedule replays it; {}",
                                         report::KindName(f.kind), site, reproduce));
      } else {
        sum->notes.push_back(fmt::format("{} at {} (occurred): the replay of the recorded schedule "
                                         "did not hit it [{}]", report::KindName(f.kind), site,
                                         schedule::DescribeFollow(res.follow)));
      }
    }
    // A schedule no command names is not kept.
    if (!any) fs::remove(path, ec);
  }
}

bool ConfirmTrace(const std::string& cmd, const trace::Trace& t, const hb::HappensBefore& hb,
                  const std::string& trace_dir, std::vector<report::Finding>* findings,
                  const ConfirmOptions& opt) {
  if (!opt.enabled) return false;
  bool any = false;
  for (const report::Finding& f : *findings) {
    any = any || (ReplaysPrediction(f) && !f.records.empty()) ||
          (f.status == report::Status::Occurred && f.severity != report::Severity::Info);
  }
  if (!any) return false;
  // The recording's own binary, when it was kept: no go test or go build
  // (and no link) per replay.
  ConfirmOptions with_binary;
  GoScheduleRunner go;
  std::unique_ptr<ScheduleRunner> binary;
  const ConfirmOptions* o = &opt;
  if (opt.runner == nullptr) {
    auto race_meta = t.meta.find("race");
    const bool race = race_meta != t.meta.end() && race_meta->second == "1";
    if (!opt.recorded_binary.path.empty()) {
      driver::TestBinary b = opt.recorded_binary;
      b.race = race;
      binary = std::make_unique<TestBinaryRunner>(std::move(b), &go);
    } else if (!opt.recorded_program.path.empty()) {
      binary = std::make_unique<ProgramBinaryRunner>(opt.recorded_program, race, &go);
    }
  }
  if (binary != nullptr) {
    with_binary = opt;
    with_binary.runner = binary.get();
    o = &with_binary;
  }
  ConfirmSummary sum;
  ConfirmFindings(t, trace_dir, hb, findings, *o, &sum);
  ReproduceOccurred(t, trace_dir, findings, *o, &sum);
  if (opt.verbose) {
    for (const std::string& n : sum.notes) fmt::print(stderr, "{}: confirm: {}\n", cmd, n);
  }
  return true;
}

}  // namespace gordian::pipeline
