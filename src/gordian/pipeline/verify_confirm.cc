// This file owns the confirmation of verify findings (verify_confirm.h):
// finding the test, recording it, the loop over counterexamples (ask the
// checker, map, replay, disallow) and the verdict.
#include "gordian/pipeline/verify_confirm.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gordian/driver/process.h"
#include "gordian/driver/record.h"
#include "gordian/pipeline/binary_runner.h"
#include "gordian/pipeline/counterexample_schedule.h"
#include "gordian/pipeline/reproduce.h"
#include "gordian/pipeline/schedule_runner.h"
#include "gordian/schedule/schedule.h"
#include "gordian/trace/trace.h"
#include "gordian/verify/checker.h"

namespace gordian::pipeline {

namespace fs = std::filesystem;
using report::FindingKind;

namespace {

using clock_type = std::chrono::steady_clock;

clock_type::duration Seconds(double s) {
  return std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(s));
}


// The kinds that are goroutines blocked for ever. The model names the
// cause (a lock-order cycle, a lock held across a channel operation, a
// double lock); a run shows the effect: goroutines still blocked at the
// test's end (a leak) or nothing left to run (a global deadlock), whichever
// the testing package's own goroutines make it. At the same location
// (Shows) any of them confirms any other.
bool SameKind(FindingKind want, FindingKind got) {
  auto blocked = [](FindingKind k) {
    return k == FindingKind::GlobalDeadlock || k == FindingKind::GoroutineLeak ||
           k == FindingKind::LockOrderDeadlock || k == FindingKind::MixedDeadlock || k == FindingKind::DoubleLock;
  };
  return want == got || (blocked(want) && blocked(got));
}

// The replay shows f: a finding of its kind at one of f's locations (file
// by base name, line).
bool Shows(const report::Finding& f, const std::vector<report::Finding>& hit) {
  for (const report::Finding& h : hit) {
    if (!SameKind(f.kind, h.kind) || h.severity == report::Severity::Info) continue;
    for (const report::Location& a : f.locations) {
      for (const report::Location& b : h.locations) {
        if (a.line == b.line && a.line != 0 &&
            fs::path(a.file).filename() == fs::path(b.file).filename()) {
          return true;
        }
      }
    }
  }
  return false;
}

std::string HitText(const std::vector<report::Finding>& hit) {
  std::vector<std::string> out;
  for (const report::Finding& h : hit) {
    if (h.severity == report::Severity::Info) continue;
    out.push_back(fmt::format("{} at {}", report::KindName(h.kind), ShortSite(h)));
    if (out.size() == 3) break;
  }
  return out.empty() ? "no bug" : fmt::format("{}", fmt::join(out, ", "));
}

// The order of a schedule's prefix: what makes two counterexamples the same
// to the real program.
std::string Signature(const schedule::Schedule& s) {
  std::string sig;
  for (const schedule::Op& o : s.ops) sig += fmt::format("{}/{}/{}/{};", o.g, o.index, o.choice, o.blocks ? 1 : 0);
  return sig;
}

const ir::Package* PackageOf(const ir::Program& prog, const ir::Function& fn) {
  for (const ir::Package& p : prog.packages) {
    if (p.path == fn.pkg) return &p;
  }
  // An external test package (x_test) is in x's directory.
  if (fn.pkg.ends_with("_test")) {
    std::string base = fn.pkg.substr(0, fn.pkg.size() - 5);
    for (const ir::Package& p : prog.packages) {
      if (p.path == base) return &p;
    }
  }
  return nullptr;
}

// One recording per test, shared by all findings it reaches.
struct Recording {
  bool ok = false;
  std::string error;
  std::string trace_dir;
  trace::Trace trace;
  // The test binary the recording ran, kept beside its trace: the replays
  // run it directly, without a go test that links it again (most of a
  // replay's time). Empty when it was not kept (they go through go test).
  driver::TestBinary binary;
};

}  // namespace

std::vector<const ir::Function*> TestsReaching(const ir::Program& prog, const std::string& entry, size_t max) {
  // Reverse call graph over call, go and defer operations.
  std::unordered_map<std::string, std::vector<const ir::Function*>> callers;
  const ir::Function* target = nullptr;
  for (const ir::Function& fn : prog.functions) {
    if (fn.name == entry) target = &fn;
    for (const ir::Block& b : fn.blocks) {
      for (const ir::Op& op : b.ops) {
        if (op.kind != ir::OpKind::kCall && op.kind != ir::OpKind::kGo && op.kind != ir::OpKind::kDefer) continue;
        auto add = [&](const std::string& id) {
          if (!id.empty()) callers[id].push_back(&fn);
        };
        if (const std::string* c = op.fields.Get(ir::Key::kCallee)) add(*c);
        if (const std::string* cs = op.fields.Get(ir::Key::kCallees)) {
          size_t i = 0;
          while (i < cs->size()) {
            size_t j = cs->find_first_of(", ", i);
            if (j == std::string::npos) j = cs->size();
            add(cs->substr(i, j - i));
            i = j + 1;
          }
        }
      }
    }
    // A closure is reached through its parent (the IR names it by the
    // parent's id; its body runs when the parent makes and calls it).
    if (!fn.parent.empty()) callers[fn.id].push_back(prog.FindFunction(fn.parent));
  }
  std::vector<const ir::Function*> out;
  if (target == nullptr) return out;
  std::deque<const ir::Function*> queue{target};
  std::set<std::string> seen{target->id};
  while (!queue.empty() && out.size() < max) {
    const ir::Function* f = queue.front();
    queue.pop_front();
    if (f->kind == "test") out.push_back(f);
    for (const ir::Function* c : callers[f->id]) {
      if (c != nullptr && seen.insert(c->id).second) queue.push_back(c);
    }
  }
  return out;
}

namespace {

// The models of a group of findings, those whose entry is a test first
// (the easy case: the counterexample starts where the test does).
std::vector<size_t> ModelsOf(const std::vector<size_t>& members, const std::vector<verify::Model>& models,
                             const std::vector<size_t>& model_of) {
  std::vector<size_t> ms;
  for (size_t i : members) {
    if (std::find(ms.begin(), ms.end(), model_of[i]) == ms.end()) ms.push_back(model_of[i]);
  }
  std::stable_sort(ms.begin(), ms.end(), [&](size_t a, size_t b) {
    return !models[a].test.empty() && models[b].test.empty();
  });
  return ms;
}

// Records test once for all findings it reaches, into rec (its trace, or
// why there is none); n: the recordings so far, this one included (the
// name of its directory).
void RecordTest(const ir::Program& prog, const ir::Function& test, const std::string& what, size_t n,
                const VerifyConfirmOptions& opt, VerifyConfirmSummary* sum, Recording* rec) {
  if (!rec->trace_dir.empty() || !rec->error.empty()) return;
  const ir::Package* pkg = PackageOf(prog, test);
  std::string test_name = test.name.substr(test.name.rfind('.') + 1);
  if (pkg == nullptr || pkg->dir.empty()) {
    rec->error = fmt::format("the directory of {}'s package is not known", test.name);
  } else {
    if (opt.progress) opt.progress(fmt::format("recording {} to confirm {}", test_name, what));
    driver::RecordOptions ro;
    ro.mode = driver::RecordMode::kTest;
    ro.args = {fmt::format("-run=^{}$", test_name), "."};
    ro.cwd = fs::path(pkg->dir).is_absolute() ? pkg->dir : (fs::path(prog.root) / pkg->dir).string();
    ro.out_dir = (fs::path(opt.work_dir) / fmt::format("record-{}", n)).string();
    ro.wall_seconds = opt.record_seconds;
    ro.pass_through = false;
    ro.self_exe = opt.self_exe;
    ro.keep_binary = true;
    driver::RecordResult rr;
    std::string err;
    if (!driver::Record(ro, &rr, &err)) {
      rec->error = fmt::format("recording {} failed: {}", test_name, err);
    } else if (rr.build_failed) {
      sum->build_failed = true;
      std::string first = rr.build_errors.empty() ? rr.run.Describe() : rr.build_errors[0].String();
      rec->error = fmt::format("the test {} does not build ({}); fix the build to confirm", test_name, first);
    } else if (rr.traces.empty()) {
      rec->error = fmt::format("recording {} left no trace ({})", test_name, rr.run.Describe());
    } else if (!trace::ReadTrace(rr.traces[0].trace_dir, &rec->trace, &err)) {
      rec->error = fmt::format("the recording of {} does not read: {}", test_name, err);
    } else {
      rec->trace_dir = rr.traces[0].trace_dir;
      driver::KeptTestBinary(rr.traces[0], rr, &rec->binary);
    }
  }
}

// What confirming one bug (the findings of one dedup key) has come to, over
// the models that have it.
struct ConfirmAttempt {
  report::Status verdict = report::Status::Predicted;
  std::string reproduce, why;
  int replays = 0, unmapped = 0, refuted = 0;
  // Why the first counterexample that did not map did not, over all the
  // finding's models (a later model may try none: the bound is shared).
  std::string first_unmapped;
  bool any_test = false, failed = false, timed_out = false;
  double replay_secs = 0;  // of the finding's time, in replays
  // The finding's searches and replays end at end (its test's recording,
  // shared with other findings, moves it on), the whole confirmation at
  // total_end.
  clock_type::time_point end, total_end;
  bool OutOfTime() const {
    const auto now = clock_type::now();
    return now >= end || now >= total_end;
  }
};

// The bug of key (f0 the first of its findings, what its name in progress
// lines) as model m has it: the checker is asked for counterexamples on the
// recording of test_name, valuation by valuation, each replayed with
// runner until one shows the bug; what came of it goes into *a.
void TryModel(const verify::Model& m, const std::string& key, const report::Finding& f0, const std::string& what,
              const Recording& rec, const std::string& test_name, ScheduleRunner& runner,
              const VerifyConfirmOptions& opt, size_t* nsched, ConfirmAttempt* a) {
  // Valuations smallest first; a counterexample already tried is disallowed.
  std::set<std::string> tried;
  size_t all = 0;
  std::vector<std::vector<int64_t>> vals = verify::Valuations(m, opt.vopt, &all);
  for (const std::vector<int64_t>& val : vals) {
    bool next_valuation = false;
    while (!next_valuation && a->replays < opt.tries && a->unmapped < opt.max_unmapped &&
           a->verdict != report::Status::Confirmed && !a->OutOfTime()) {
      if (driver::Interrupted()) {
        a->failed = true;
        a->why = "interrupted";
        break;
      }
      verify::CheckOptions co = opt.vopt.check;
      co.param_values = val;
      co.deadline = std::min({clock_type::now() + Seconds(opt.check_seconds), a->end, a->total_end});
      auto of_this_bug = [&](const verify::Violation& v) {
        return verify::ToFinding(m, v, "", opt.vopt.root).dedup_key == key;
      };
      co.reject = [&](const verify::Violation& v) {
        if (a->unmapped >= opt.max_unmapped) return false;
        if (!of_this_bug(v)) return false;
        schedule::Schedule s;
        std::string w;
        if (!ScheduleFromCounterexample(m, v, rec.trace, rec.trace_dir, opt.vopt.root, &s, &w)) {
          // Disallowed: a step with no recorded match.
          a->unmapped++;
          a->refuted++;
          if (a->first_unmapped.empty()) a->first_unmapped = w;
          return true;
        }
        return tried.count(Signature(s)) > 0;
      };
      co.enough = of_this_bug;
      verify::CheckResult cr = verify::Check(m, co);
      // The search stops at the first violation of this bug it reports:
      // the last one, if any.
      const verify::Violation* v =
          !cr.violations.empty() && of_this_bug(cr.violations.back()) ? &cr.violations.back() : nullptr;
      if (v == nullptr) {
        next_valuation = true;
        break;
      }
      schedule::Schedule s;
      std::string w;
      if (!ScheduleFromCounterexample(m, *v, rec.trace, rec.trace_dir, opt.vopt.root, &s, &w)) {
        // Past max_unmapped the checker no longer disallows.
        a->why = "no counterexample maps onto the recorded run of " + test_name + ": " + w;
        break;
      }
      tried.insert(Signature(s));
      std::string path =
          (fs::path(opt.schedule_dir) / fmt::format("verify-{}-{}.sched", (*nsched)++, report::KindName(f0.kind)))
              .string();
      std::string err;
      if (!schedule::WriteSchedule(path, s, &err)) {
        a->failed = true;
        a->why = err;
        break;
      }
      if (opt.progress) opt.progress(fmt::format("replaying counterexample {} of {}", a->replays + 1, what));
      RunOptions ro;
      ro.out_dir = (fs::path(opt.work_dir) / fmt::format("replay-{}", *nsched)).string();
      ro.wall_seconds = opt.replay_seconds;
      ro.pass_through = false;
      ro.self_exe = opt.self_exe;
      ScheduledRun res;
      a->replays++;
      const auto replay_start = clock_type::now();
      const bool ran = RunSchedule(runner, s, path, ro, &res, &err);
      a->replay_secs += std::chrono::duration<double>(clock_type::now() - replay_start).count();
      if (!ran) {
        if (driver::Interrupted()) {
          a->failed = true;
          a->why = "interrupted during a replay";
          break;
        }
        a->refuted++;
        a->why = fmt::format("counterexample {}: the replay failed: {}", a->refuted, err);
        continue;
      }
      if (Shows(f0, res.occurred)) {
        a->verdict = report::Status::Confirmed;
        a->reproduce = ReproduceCommand(opt.gordian, fs::absolute(path).string());
        std::string valuation = verify::ValuationText(m, val);
        a->why = fmt::format("confirmed on {} ({}{}{}); {}", test_name,
                             a->refuted == 0 ? "the first counterexample"
                                             : fmt::format("after {} refuted counterexample{}", a->refuted,
                                                           a->refuted == 1 ? "" : "s"),
                             valuation.empty() ? "" : ", " + valuation,
                             a->refuted > 0 && !a->first_unmapped.empty() ? "; first refuted: " + a->first_unmapped : "",
                             a->reproduce);
      } else {
        a->refuted++;
        a->why = fmt::format("counterexample {} replayed on {}: the bug did not show ({}; the run hit {}); "
                             "schedule {}", a->refuted, test_name, schedule::DescribeFollow(res.follow),
                             HitText(res.occurred), path);
      }
    }
    if (a->failed || a->verdict == report::Status::Confirmed || a->replays >= opt.tries ||
        a->unmapped >= opt.max_unmapped || a->OutOfTime()) {
      break;
    }
  }
  if (a->verdict != report::Status::Confirmed && !a->failed && (a->refuted > 0 || a->replays > 0)) {
    a->verdict = report::Status::Unconfirmed;
    if (a->why.empty() || a->replays == 0) {
      a->why = fmt::format("{} counterexample{} tried, none maps onto the recorded run of {}: {}", a->refuted,
                           a->refuted == 1 ? "" : "s", test_name, a->first_unmapped);
    }
  } else if (a->verdict != report::Status::Confirmed && !a->failed && a->OutOfTime()) {
    a->timed_out = true;
    a->why = fmt::format("not tried: its {:g} s to confirm ran out before a counterexample was replayed",
                         opt.finding_seconds);
  } else if (a->verdict != report::Status::Confirmed && !a->failed && a->why.empty()) {
    a->why = "the checker gave no counterexample of this bug again (bounded search?)";
  }
}

}  // namespace

void ConfirmVerifyFindings(const ir::Program& prog, const std::vector<verify::Model>& models,
                           const std::vector<size_t>& model_of, std::vector<report::Finding>* findings,
                           const VerifyConfirmOptions& opt, VerifyConfirmSummary* sum) {
  const auto start = clock_type::now();
  std::error_code ec;
  fs::create_directories(opt.work_dir, ec);
  fs::create_directories(opt.schedule_dir, ec);
  // Findings by dedup key, in report order.
  std::map<std::string, std::vector<size_t>> groups;
  std::vector<std::string> order;
  for (size_t i = 0; i < findings->size(); i++) {
    const report::Finding& f = (*findings)[i];
    if (f.status != report::Status::Predicted || f.severity == report::Severity::Info) continue;
    auto [it, fresh] = groups.try_emplace(f.dedup_key);
    if (fresh) order.push_back(f.dedup_key);
    it->second.push_back(i);
  }
  std::map<std::string, Recording> recordings;  // test function id -> its recording
  GoScheduleRunner runner;
  size_t nsched = 0;
  const auto total_end = start + Seconds(opt.total_seconds);
  for (const std::string& key : order) {
    if (driver::Interrupted()) {
      sum->errors.push_back("interrupted: the remaining findings stay predicted");
      break;
    }
    if (clock_type::now() >= total_end) {
      // Stays predicted: a warning with its score, as one no test reaches.
      sum->out_of_time++;
      for (size_t i : groups[key]) {
        if ((*findings)[i].note.empty()) {
          (*findings)[i].note = fmt::format("possible (not tried: -confirm-time {:g}s ran out)", opt.total_seconds);
        }
      }
      continue;
    }
    sum->looked_at++;
    std::vector<size_t>& members = groups[key];
    const report::Finding& f0 = (*findings)[members.front()];
    const std::string what = fmt::format("{} at {}", report::KindName(f0.kind), ShortSite(f0));
    std::vector<size_t> ms = ModelsOf(members, models, model_of);
    const auto f_start = clock_type::now();
    ConfirmAttempt at;
    at.end = f_start + Seconds(opt.finding_seconds);
    at.total_end = total_end;
    for (size_t mi : ms) {
      if (at.verdict == report::Status::Confirmed || at.replays >= opt.tries || at.failed || at.OutOfTime()) break;
      const verify::Model& m = models[mi];
      std::vector<const ir::Function*> tests = TestsReaching(prog, m.entry, 1);
      if (tests.empty()) continue;
      at.any_test = true;
      const ir::Function& test = *tests[0];
      std::string test_name = test.name.substr(test.name.rfind('.') + 1);
      Recording& rec = recordings[test.id];
      const auto rec_start = clock_type::now();
      RecordTest(prog, test, what, recordings.size(), opt, sum, &rec);
      at.end += clock_type::now() - rec_start;
      if (!rec.error.empty()) {
        at.failed = true;
        at.why = rec.error;
        break;
      }
      std::unique_ptr<TestBinaryRunner> binary_runner;
      ScheduleRunner* replay_runner = &runner;
      if (!rec.binary.path.empty()) {
        binary_runner = std::make_unique<TestBinaryRunner>(rec.binary, &runner);
        replay_runner = binary_runner.get();
      }
      TryModel(m, key, f0, what, rec, test_name, *replay_runner, opt, &nsched, &at);
    }
    const double secs = std::chrono::duration<double>(clock_type::now() - f_start).count();
    if (!at.any_test) {
      sum->no_test++;
      sum->notes.push_back(fmt::format("{}: stays predicted: no test reaches {}", what, models[ms[0]].entry));
      // A warning with its score: nothing ran it, nothing refuted it.
      for (size_t i : members) {
        if ((*findings)[i].note.empty()) (*findings)[i].note = "possible (no test reaches it)";
      }
      continue;
    }
    if (at.failed) {
      sum->failed++;
      sum->errors.push_back(fmt::format("{}: not confirmed: {}", what, at.why));
      sum->notes.push_back(fmt::format("{}: stays predicted: {}", what, at.why));
      continue;
    }
    if (at.verdict == report::Status::Confirmed) {
      sum->confirmed++;
      if (at.refuted > 0) sum->confirmed_later++;
    } else if (at.verdict == report::Status::Unconfirmed) {
      sum->unconfirmed++;
    }
    sum->notes.push_back(fmt::format("{}: {}: {} ({} replay{} in {:.1f} s, {:.1f} s in all)", what,
                                     report::StatusName(at.verdict), at.why, at.replays, at.replays == 1 ? "" : "s",
                                     at.replay_secs, secs));
    for (size_t i : members) {
      report::Finding& f = (*findings)[i];
      f.status = at.verdict;
      if (at.verdict == report::Status::Confirmed) f.reproduce = at.reproduce;
      if (at.verdict == report::Status::Predicted && at.timed_out && f.note.empty()) {
        f.note = "possible (" + at.why + ")";
      }
    }
  }
  sum->seconds = std::chrono::duration<double>(clock_type::now() - start).count();
}

}  // namespace gordian::pipeline
