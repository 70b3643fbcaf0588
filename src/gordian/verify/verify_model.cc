// This file owns checking one model over the valuations of its parameters
// and turning its violations into findings (verify_model.h).
#include "gordian/verify/verify_model.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <numeric>

#include "gordian/verify/liveness.h"

namespace gordian::verify {
namespace {

report::Role RoleOf(const Instr& in) {
  switch (in.kind) {
    case InstrKind::kSend: return report::Role::Send;
    case InstrKind::kRecv: return report::Role::Recv;
    case InstrKind::kClose: return report::Role::Close;
    case InstrKind::kSelect: return report::Role::Select;
    case InstrKind::kLock: case InstrKind::kRLock: case InstrKind::kTryLock:
      return report::Role::Lock;
    case InstrKind::kUnlock: case InstrKind::kRUnlock: return report::Role::Unlock;
    case InstrKind::kWgAdd:
      return in.expr.nodes.size() == 1 && in.expr.nodes[0].op == ExprOp::kConst && in.expr.nodes[0].value < 0
                 ? report::Role::Done
                 : report::Role::Add;
    case InstrKind::kWgWait: return report::Role::Wait;
    case InstrKind::kGo: return report::Role::Spawn;
    case InstrKind::kPanic: return report::Role::Panic;
    case InstrKind::kMakeChan: case InstrKind::kMakeMutex: case InstrKind::kMakeRWMutex:
    case InstrKind::kMakeWaitGroup: case InstrKind::kMakeOnce: case InstrKind::kMakeCond:
    case InstrKind::kMakeContext: case InstrKind::kMakeTimer:
      return report::Role::Make;
    default: return report::Role::Wait;
  }
}

std::string FileOf(const Model& m, const ir::Pos& pos, const std::string& root) {
  if (pos.file >= m.files.size()) return "";
  const std::string& f = m.files[pos.file];
  if (f.empty() || f[0] == '/' || root.empty()) return f;
  return (std::filesystem::path(root) / f).lexically_normal().string();
}

std::string BaseOf(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// The report's names of a counterexample's goroutines (the model's
// processes): the entry process is "entry"; one started by a go statement
// is named by the site that spawns it ("go@pool.go:31"), "#2", "#3"... for
// further processes of one site, so that every step says where its
// goroutine came from. A process slot the checker reuses for another
// function is another goroutine, with its own name.
class GoroutineNames {
 public:
  explicit GoroutineNames(const Model& m) : m_(m) {}
  std::string Of(int32_t process, int32_t template_index) {
    auto key = std::make_pair(process, template_index);
    auto it = names_.find(key);
    if (it != names_.end()) return it->second;
    std::string name = "entry";
    if (template_index > 0 || process > 0) {
      const ir::Pos& pos = m_.templates[template_index].pos;
      std::string file = pos.file < m_.files.size() ? BaseOf(m_.files[pos.file]) : "?";
      name = fmt::format("go@{}:{}", file, pos.line);
      int n = ++per_site_[name];
      if (n > 1) name += fmt::format("#{}", n);
    }
    return names_[key] = name;
  }

 private:
  const Model& m_;
  std::map<std::pair<int32_t, int32_t>, std::string> names_;
  std::map<std::string, int> per_site_;
};

report::Location LocationOf(const Model& m, const CheckStep& s, const std::string& root, uint32_t order,
                            GoroutineNames& names) {
  report::Location loc;
  if (s.template_index < 0 || s.template_index >= static_cast<int>(m.templates.size())) return loc;
  const Template& t = m.templates[s.template_index];
  loc.goroutine = names.Of(s.process, s.template_index);
  loc.function = t.name;
  loc.tpre = loc.tpost = order;
  if (s.pc < 0 || s.pc >= static_cast<int>(t.code.size())) return loc;
  const Instr& in = t.code[s.pc];
  loc.file = FileOf(m, in.pos, root);
  loc.line = static_cast<uint32_t>(std::max(in.pos.line, 0));
  loc.column = static_cast<uint32_t>(std::max(in.pos.col, 0));
  loc.role = RoleOf(in);
  if (in.kind == InstrKind::kSelect) loc.select_case = s.select_case;
  return loc;
}

// Where each object of a counterexample was made: the model numbers its
// objects in the order its steps make them (a context makes two: its Done
// channel, then itself). The instruction of the n-th object, or null when
// the steps do not say (an object made before them).
std::vector<const Instr*> ObjectMakers(const Model& m, const std::vector<CheckStep>& steps) {
  std::vector<const Instr*> made;
  for (const CheckStep& s : steps) {
    if (s.template_index < 0 || s.template_index >= static_cast<int>(m.templates.size())) continue;
    const Template& t = m.templates[s.template_index];
    if (s.pc < 0 || s.pc >= static_cast<int>(t.code.size())) continue;
    const Instr& in = t.code[s.pc];
    switch (in.kind) {
      case InstrKind::kMakeContext: made.push_back(&in); made.push_back(&in); break;
      case InstrKind::kMakeChan: case InstrKind::kMakeMutex: case InstrKind::kMakeRWMutex:
      case InstrKind::kMakeWaitGroup: case InstrKind::kMakeOnce: case InstrKind::kMakeCond:
      case InstrKind::kMakeTimer: case InstrKind::kMakeVar:
        made.push_back(&in);
        break;
      default: break;
    }
  }
  return made;
}

// An environment step (no process: a timer fires, a deadline cancels a
// context) at the site that made its timer or context.
void EnvironmentStep(const Model& m, const CheckStep& s, const std::vector<const Instr*>& makers,
                     const std::string& root, report::Step* st) {
  const Instr* maker = s.object >= 0 && static_cast<size_t>(s.object) < makers.size() ? makers[s.object] : nullptr;
  if (maker == nullptr) {
    st->loc.goroutine = "timer";
    st->what = "a timer fires or a timeout cancels a context";
    return;
  }
  const bool ctx = maker->kind == InstrKind::kMakeContext;
  st->loc.file = FileOf(m, maker->pos, root);
  st->loc.line = static_cast<uint32_t>(std::max(maker->pos.line, 0));
  st->loc.column = static_cast<uint32_t>(std::max(maker->pos.col, 0));
  st->loc.goroutine = fmt::format("{}@{}:{}", ctx ? "deadline" : "timer", BaseOf(st->loc.file), st->loc.line);
  st->what = ctx ? "the deadline of the context made here passes: it is cancelled"
                 : "the timer made here fires";
}

}  // namespace

std::vector<std::vector<int64_t>> Valuations(const Model& m, const VerifyOptions& opts, size_t* all) {
  std::vector<std::vector<int64_t>> domains;
  for (const Parameter& p : m.params) {
    auto it = opts.param_values.find(p.name);
    std::vector<int64_t> d = it != opts.param_values.end() ? it->second : p.values;
    if (d.empty()) d = {0};
    if (it == opts.param_values.end() && !p.mandatory) d.resize(1);
    domains.push_back(std::move(d));
  }
  size_t n = 1;
  for (const auto& d : domains) {
    n = n > (size_t{1} << 40) / d.size() ? (size_t{1} << 40) : n * d.size();
  }
  *all = n;
  std::vector<std::vector<int64_t>> out;
  // Every valuation when few enough; else grow the index sum until the cap.
  std::vector<size_t> idx(domains.size(), 0);
  std::vector<std::pair<int64_t, std::vector<int64_t>>> cands;
  const size_t limit = std::min<size_t>(n, 200000);
  for (size_t k = 0; k < limit; k++) {
    std::vector<int64_t> v(domains.size());
    int64_t sum = 0;
    for (size_t i = 0; i < domains.size(); i++) {
      v[i] = domains[i][idx[i]];
      sum += static_cast<int64_t>(idx[i]);
    }
    cands.push_back({sum, std::move(v)});
    for (size_t i = domains.size(); i-- > 0;) {
      if (++idx[i] < domains[i].size()) break;
      idx[i] = 0;
    }
  }
  std::stable_sort(cands.begin(), cands.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& c : cands) {
    if (out.size() >= opts.max_valuations) break;
    out.push_back(std::move(c.second));
  }
  return out;
}

std::string ValuationText(const Model& m, const std::vector<int64_t>& values) {
  std::string s;
  for (size_t i = 0; i < m.params.size() && i < values.size(); i++) {
    if (!s.empty()) s += ", ";
    s += fmt::format("{}={}", m.params[i].name, values[i]);
  }
  return s;
}

report::Finding ToFinding(const Model& m, const Violation& v, const std::string& when, const std::string& root) {
  report::Finding f;
  f.kind = v.kind;
  f.status = report::Status::Predicted;
  f.severity = report::DefaultSeverity(v.kind);
  // An explicit panic() the model can reach is mostly deliberate: an
  // argument check, the re-panic of a panic caught elsewhere, a test that
  // checks its panic is recovered (the model sees no recover()). It is a
  // warning; the runtime's panics (a nil lock, a negative capacity) and the
  // named kinds (send on closed, ...) stay bugs. Tried on conc's suite: 8 of
  // its 11 verify bugs were such panics, none a bug.
  if (v.kind == report::FindingKind::Panic && !v.where.empty()) {
    const CheckStep& w = v.where[0];
    if (w.template_index >= 0 && w.template_index < static_cast<int>(m.templates.size()) && w.pc >= 0 &&
        w.pc < static_cast<int>(m.templates[w.template_index].code.size()) &&
        m.templates[w.template_index].code[w.pc].kind == InstrKind::kPanic) {
      f.severity = report::Severity::Warning;
    }
  }
  f.primitive = v.primitive;
  f.test = m.test;
  // By source positions, not template and pc: the same bug reached from
  // two entry points (a test and the function it calls) is one finding.
  GoroutineNames names(m);
  std::vector<std::string> at;
  for (const CheckStep& s : v.where) {
    report::Location l = LocationOf(m, s, root, 0, names);
    at.push_back(fmt::format("{}:{}:{}", l.file, l.line, l.column));
  }
  std::sort(at.begin(), at.end());
  f.dedup_key = fmt::format("verify {} {}", report::KindName(v.kind), fmt::join(at, " "));
  // A location carries the order of its step in the interleaving (the
  // last step of its process at its pc), so the timeline highlights that
  // step and not an earlier iteration on the same line.
  for (const CheckStep& w : v.where) {
    uint32_t order = 0;
    for (size_t i = v.steps.size(); i-- > 0;) {
      const CheckStep& s = v.steps[i];
      if (s.process == w.process && s.template_index == w.template_index && s.pc == w.pc) {
        order = static_cast<uint32_t>(i + 1);
        break;
      }
    }
    f.locations.push_back(LocationOf(m, w, root, order, names));
  }
  uint32_t order = 0;
  std::vector<std::string> seen;
  // The n-th value sent on a channel is the n-th received from it (FIFO,
  // and a rendezvous pairs the two counts too): the steps' seq, from which
  // the timeline draws send -> receive. An environment step (a timer's
  // send) is counted as a send on its channel.
  std::map<int32_t, uint32_t> sent, received;
  const std::vector<const Instr*> makers = ObjectMakers(m, v.steps);
  report::Finding::Score score;
  // A liveness violation's lasso: the first shown step of its cycle says
  // that the run repeats from there.
  bool cycle_marked = v.cycle_start < 0;
  for (size_t si = 0; si < v.steps.size(); ++si) {
    const CheckStep& s = v.steps[si];
    // A branch on data the model does not track (either way is taken) or
    // on an optional parameter (data, tried at one value), or a choice
    // among possible callees: the path turns on what the model guessed.
    if (s.template_index >= 0 && s.template_index < static_cast<int>(m.templates.size()) && s.pc >= 0 &&
        s.pc < static_cast<int>(m.templates[s.template_index].code.size())) {
      const Instr& in = m.templates[s.template_index].code[s.pc];
      if (in.kind == InstrKind::kChoice || (in.kind == InstrKind::kBranch && in.expr.Unknown())) {
        score.untracked_data = true;
      }
      if (in.kind == InstrKind::kBranch) {
        for (const ExprNode& n : in.expr.nodes) {
          if (n.op == ExprOp::kParam && n.index >= 0 && n.index < static_cast<int32_t>(m.params.size()) &&
              !m.params[n.index].mandatory) {
            score.untracked_data = true;
          }
        }
      }
    }
    report::Step st;
    st.loc = LocationOf(m, s, root, ++order, names);
    st.object = s.object >= 0 ? static_cast<uint64_t>(s.object) + 1 : 0;
    if (s.object >= 0 && !s.blocks) {
      if (st.loc.role == report::Role::Send || s.process < 0) {
        st.seq = ++sent[s.object];
      } else if (st.loc.role == report::Role::Recv) {
        st.seq = ++received[s.object];
      } else if (st.loc.role == report::Role::Select && s.template_index >= 0) {
        const Instr& in = m.templates[s.template_index].code[s.pc];
        if (s.select_case >= 0 && s.select_case < static_cast<int32_t>(in.cases.size())) {
          st.seq = in.cases[s.select_case].send ? ++sent[s.object] : ++received[s.object];
        }
      }
    }
    const Template* t = s.template_index >= 0 && s.template_index < static_cast<int>(m.templates.size())
                            ? &m.templates[s.template_index]
                            : nullptr;
    if (t && s.pc >= 0 && s.pc < static_cast<int>(t->code.size())) {
      // Control-flow glue is no step a reader wants to see.
      InstrKind k = t->code[s.pc].kind;
      if (k == InstrKind::kJump || k == InstrKind::kAssign || k == InstrKind::kChoice || k == InstrKind::kNop) {
        continue;
      }
      st.what = t->code[s.pc].text;
    } else if (!t) {
      EnvironmentStep(m, s, makers, root, &st);
    }
    st.blocks = s.blocks;
    if (!cycle_marked && si >= static_cast<size_t>(v.cycle_start) && !s.blocks) {
      st.what = "[the cycle, repeated forever, starts here] " + st.what;
      cycle_marked = true;
    }
    f.interleaving.push_back(std::move(st));
  }
  for (const auto* list : {&v.where, &v.steps}) {
    for (const CheckStep& s : *list) {
      if (s.template_index < 0 || s.template_index >= static_cast<int>(m.templates.size())) continue;
      std::string id = names.Of(s.process, s.template_index);
      if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
      seen.push_back(id);
      const Template& t = m.templates[s.template_index];
      report::GoroutineInfo g;
      g.id = id;
      g.function = t.name;
      if (s.template_index > 0) {
        g.spawn_file = FileOf(m, t.pos, root);
        g.spawn_line = static_cast<uint32_t>(std::max(t.pos.line, 0));
      } else {
        g.origin = "the model's entry point";
      }
      f.goroutines.push_back(std::move(g));
    }
  }
  f.score = score;
  std::string what(report::KindTitle(v.kind));
  f.message = fmt::format("{} in a model of {}{}{}", what, m.entry, when.empty() ? "" : " ", when);
  return f;
}

ModelResult VerifyModel(const Model& m, const VerifyOptions& opts) {
  ModelResult r;
  std::vector<std::vector<int64_t>> vals = Valuations(m, opts, &r.all_valuations);
  r.valuations = vals.size();
  struct Found {
    Violation v;
    std::vector<size_t> at;  // indexes into vals
  };
  std::vector<Found> found;
  const auto start = std::chrono::steady_clock::now();
  const bool timed = opts.max_model_seconds > 0;
  const auto deadline =
      timed ? start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                          std::chrono::duration<double>(opts.max_model_seconds))
            : std::chrono::steady_clock::time_point::max();
  size_t checked = 0;
  const bool may_run_forever = opts.liveness && MayRunForever(m);
  std::vector<size_t> may_cycle;  // the valuations whose graph may have a cycle
  // Why the model's budget stopped it ("" while it has not).
  std::string spent;
  bool partial = false;
  for (size_t i = 0; i < vals.size(); i++) {
    if (r.states >= opts.max_model_states) {
      spent = fmt::format("{} states (-max-model-states)", r.states);
      break;
    }
    if (timed && std::chrono::steady_clock::now() >= deadline) {
      spent = fmt::format("{} states in {:g} s (-max-model-time)", r.states, opts.max_model_seconds);
      break;
    }
    CheckOptions co = opts.check;
    co.param_values = vals[i];
    const uint64_t left = opts.max_model_states - r.states;
    const bool budget_limits = left <= co.max_states;
    if (budget_limits) co.max_states = left;
    co.deadline = std::min(co.deadline, deadline);
    CheckResult cr = Check(m, co);
    r.states += cr.states;
    checked++;
    if (cr.out_of_states && budget_limits) {
      spent = fmt::format("{} states (-max-model-states)", r.states);
      partial = true;
    } else if (cr.out_of_time && timed) {
      partial = true;
      spent = fmt::format("{} states in {:g} s (-max-model-time)", r.states, opts.max_model_seconds);
    } else if (cr.bounded && !r.bounded) {
      r.bounded = true;
      r.bound_reason = cr.bound_reason;
    }
    if (cr.may_cycle || cr.bounded) may_cycle.push_back(i);
    for (Violation& v : cr.violations) {
      auto it = std::find_if(found.begin(), found.end(), [&](const Found& x) { return x.v.key == v.key; });
      if (it == found.end()) {
        found.push_back({std::move(v), {i}});
      } else {
        it->at.push_back(i);
      }
    }
    if (!spent.empty()) break;
  }
  // Liveness (liveness.h), after every valuation's safety check so that
  // it never takes budget from one (the safety results are those of
  // -no-liveness), for the valuations whose reduced graph has a move back
  // to a state no deeper than its source (else no run is infinite), on
  // what the model's budget leaves and at most max_liveness_states.
  std::string live_cut;
  if (may_run_forever && spent.empty()) {
    for (size_t k = 0; k < may_cycle.size(); ++k) {
      const size_t i = may_cycle[k];
      const uint64_t left = std::min(opts.max_model_states - std::min(opts.max_model_states, r.states),
                                     opts.max_liveness_states - std::min(opts.max_liveness_states, r.liveness_states));
      if (left == 0 || (timed && std::chrono::steady_clock::now() >= deadline)) {
        live_cut = fmt::format("liveness search stopped by the budget (-max-model-states, -max-model-time, at most "
                               "{} for liveness) after {} states ({} of {} valuations searched)",
                               opts.max_liveness_states, r.liveness_states, k, may_cycle.size());
        break;
      }
      CheckOptions lo = opts.check;
      lo.param_values = vals[i];
      lo.max_states = std::min<uint64_t>(left, opts.check.max_states);
      lo.deadline = std::min(lo.deadline, deadline);
      LivenessResult lr = CheckLiveness(m, lo);
      r.states += lr.states;
      r.liveness_states += lr.states;
      if (lr.bounded && live_cut.empty()) {
        live_cut = fmt::format("liveness search of {}: {}", vals[i].empty() ? "the model" : ValuationText(m, vals[i]),
                               lr.bound_reason);
      }
      for (Violation& v : lr.violations) {
        auto it = std::find_if(found.begin(), found.end(), [&](const Found& x) { return x.v.key == v.key; });
        if (it == found.end()) {
          found.push_back({std::move(v), {i}});
        } else if (std::find(it->at.begin(), it->at.end(), i) == it->at.end()) {
          it->at.push_back(i);
          std::sort(it->at.begin(), it->at.end());
        }
      }
      if (lr.out_of_states || lr.out_of_time) {
        if (k + 1 < may_cycle.size()) live_cut += fmt::format(" ({} of {} valuations searched)", k + 1, may_cycle.size());
        break;
      }
    }
  }
  if (!live_cut.empty()) {
    r.bounded = true;
    r.bound_reason = r.bound_reason.empty() ? live_cut : r.bound_reason + "; " + live_cut;
  }
  // A valuation the budget cut short was started, not finished: its
  // findings are real, its lack of one says nothing.
  const size_t finished = checked - (partial ? 1 : 0);
  if (!spent.empty()) {
    // The budget's reason leads: it is what a reader can change.
    r.bounded = true;
    r.out_of_budget = true;
    r.bound_reason = fmt::format("bounded: {}, {} of {} valuation{} finished{}", spent, finished, vals.size(),
                                 vals.size() == 1 ? "" : "s",
                                 r.bound_reason.empty() ? "" : "; also " + r.bound_reason);
  }
  r.valuations = checked;
  for (Found& x : found) {
    // Gomela's score, over the valuations finished; one the budget cut
    // short counts only where it shows the bug (what it found is real,
    // what it did not find says nothing).
    const bool in_partial = partial && x.at.back() == checked - 1;
    const uint32_t failing = static_cast<uint32_t>(x.at.size());
    const uint32_t out_of = static_cast<uint32_t>(finished + (in_partial ? 1 : 0));
    auto scored = [&](report::Finding f) {
      f.score->failing = failing;
      f.score->checked = out_of;
      return f;
    };
    std::string when;
    if (!m.params.empty() && x.at[0] >= finished) {
      when = "when " + ValuationText(m, vals[x.at[0]]);
      r.findings.push_back(scored(ToFinding(m, x.v, when, opts.root)));
      continue;
    }
    // "when ..." below is about the valuations finished.
    std::erase_if(x.at, [&](size_t i) { return i >= finished; });
    if (!m.params.empty() && x.at.size() < finished) {
      const std::vector<int64_t>& first = vals[x.at[0]];
      // With one parameter that varies, say "when P >= v" if it fails for
      // every value tried from v up and for none below.
      std::vector<size_t> varying;
      for (size_t p = 0; p < m.params.size(); p++) {
        for (size_t i = 0; i < finished; i++) {
          if (vals[i][p] != vals[0][p]) {
            varying.push_back(p);
            break;
          }
        }
      }
      bool monotone = varying.size() == 1;
      if (monotone) {
        size_t p = varying[0];
        for (size_t i = 0; i < finished; i++) {
          bool fails = std::find(x.at.begin(), x.at.end(), i) != x.at.end();
          if (fails != (vals[i][p] >= first[p])) monotone = false;
        }
      }
      when = monotone ? fmt::format("when {} >= {}", m.params[varying[0]].name, first[varying[0]])
                      : "when " + ValuationText(m, first);
    }
    r.findings.push_back(scored(ToFinding(m, x.v, when, opts.root)));
  }
  return r;
}

}  // namespace gordian::verify
