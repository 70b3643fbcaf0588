// This file owns the mapping of a verify counterexample onto a recorded run
// (counterexample_schedule.h). Matching, per step of the counterexample:
//   - process 0 (the entry) is the goroutine of the recording that first
//     performs, at the same source line, the first controlled operation or
//     `go` statement of process 0;
//   - a process started by a `go` step of process P is the child of P's
//     goroutine whose GoSpawn record is at the `go` statement's line, the
//     n-th such spawn for the n-th such step (several goroutines from one
//     `go` statement, and loops, by spawn order); the checker reuses the
//     slots of ended processes, so a process is bound to its spawn at its
//     first step, by template, in spawn order;
//   - a controlled step (send, lock, Add, ...) of a process is the next
//     controlled operation of its goroutine, from where the previous match
//     ended, with a matching kind at the same file and line (loops: the n-th
//     occurrence; inlined callees: their own positions). Operations of the
//     goroutine passed over on the way (the model left them out) go into
//     the prefix just before it, in program order.
// Steps that are no controlled operation (makes, branches, TryLock, a
// timer firing) are not ordered: they run freely.
#include "gordian/pipeline/counterexample_schedule.h"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "gordian/schedule/from_trace.h"

namespace gordian::pipeline {

namespace {

using trace::Kind;
using verify::InstrKind;

// The trace kinds a model instruction can be recorded as; empty: not a
// controlled operation (not ordered by the schedule).
std::vector<Kind> KindsOf(const verify::Instr& in) {
  switch (in.kind) {
    case InstrKind::kSend: return {Kind::ChanSend};
    case InstrKind::kRecv: return {Kind::ChanRecv};
    case InstrKind::kClose: return {Kind::ChanClose};
    case InstrKind::kSelect:
      // A one-case select with default is a non-blocking send or receive
      // to the runtime; the recorder may still write it as a Select.
      if (in.cases.size() == 1 && in.a >= 0) {
        return {Kind::Select, in.cases[0].send ? Kind::ChanSend : Kind::ChanRecv};
      }
      return {Kind::Select};
    case InstrKind::kLock: return {Kind::MutexLock, Kind::RWLock};
    case InstrKind::kUnlock: return {Kind::MutexUnlock, Kind::RWUnlock};
    case InstrKind::kRLock: return {Kind::RLock};
    case InstrKind::kRUnlock: return {Kind::RUnlock};
    case InstrKind::kWgAdd: return {Kind::WgAdd};
    case InstrKind::kWgWait: return {Kind::WgWait};
    case InstrKind::kOnceBegin: return {Kind::OnceDo};
    case InstrKind::kCondWait: return {Kind::CondWait};
    case InstrKind::kCondSignal: return {Kind::CondSignal};
    case InstrKind::kCondBroadcast: return {Kind::CondBroadcast};
    default: return {};
  }
}

// Whether the trace's file (absolute, as compiled) is the model's file (as
// the IR names it: relative to root, or absolute).
bool SameFile(const std::string& traced, const std::string& modelled, const std::string& root) {
  if (modelled.empty() || traced.empty()) return false;
  if (traced == modelled) return true;
  if (!root.empty() && modelled[0] != '/') {
    std::string abs = root + (root.back() == '/' ? "" : "/") + modelled;
    if (traced == abs) return true;
  }
  // The IR's root and the recording's paths can differ by a symlink: the
  // path's tail decides.
  std::string tail = modelled[0] == '/' ? modelled.substr(modelled.rfind('/') + 1) : modelled;
  return traced.size() > tail.size() && traced.compare(traced.size() - tail.size(), tail.size(), tail) == 0 &&
         traced[traced.size() - tail.size() - 1] == '/';
}

// The first goroutine of t that does in (one of kinds, or a spawn for a
// `go`) where at_line(record, in) says it is: the entry's goroutine.
template <typename AtLine>
bool EntryGoroutine(const trace::Trace& t, const verify::Instr& in, const std::vector<Kind>& kinds, AtLine at_line,
                    uint32_t* gid) {
  bool found = false;
  for (const trace::Goroutine& g : t.goroutines) {
    for (uint32_t r = g.begin; r < g.end && !found; r++) {
      const trace::Record& rec = t.records[r];
      bool kind_ok = in.kind == InstrKind::kGo ? rec.kind == Kind::GoSpawn
                                               : std::find(kinds.begin(), kinds.end(), rec.kind) != kinds.end();
      if (kind_ok && at_line(rec, in)) found = true;
    }
    if (found) {
      *gid = g.gid;
      break;
    }
  }
  return found;
}

// The schedule's operation for record r of t, the k-th controlled record of
// schedule goroutine g: the matched step's (st, which ran in; blocks and the
// select case it took), or one passed over on the way (st null: a select
// keeps the case it took in the recording).
schedule::Op OpOf(const trace::Trace& t, uint32_t r, size_t k, uint32_t g, const verify::CheckStep* st,
                  const verify::Instr& in) {
  const trace::Record& rec = t.records[r];
  schedule::Op op;
  op.g = g;
  op.kind = rec.kind;
  op.obj = rec.obj;
  op.val = rec.val;
  op.flags = rec.flags;
  op.index = static_cast<uint32_t>(k);
  op.site = schedule::SiteText(t, rec);
  if (st) {
    op.blocks = st->blocks;
    if (rec.kind == Kind::Select) {
      op.choice = RuntimeSelectCase(in, st->select_case);
      op.obj = 0;  // the case's channel in this run is not known here
    }
  } else if (rec.kind == Kind::Select && rec.tpost != 0) {
    op.choice = rec.val == trace::kDefaultCase ? schedule::kChoiceDefault : static_cast<int32_t>(rec.val);
  }
  return op;
}

struct Bound {
  uint32_t gid = 0;      // the recorded goroutine
  int32_t tmpl = -1;
  bool ended = false;
};

}  // namespace

int32_t RuntimeSelectCase(const verify::Instr& in, int32_t c) {
  const int32_t n = static_cast<int32_t>(in.cases.size());
  if (c < 0 || c >= n) return schedule::kChoiceDefault;
  int32_t sends = 0, before = 0;
  for (const verify::SelectCase& k : in.cases) sends += k.send ? 1 : 0;
  for (int32_t i = 0; i < c; i++) before += in.cases[i].send == in.cases[c].send ? 1 : 0;
  // cmd/compile (walkSelectCases) fills sends from the front and receives
  // from the back.
  return in.cases[c].send ? before : n - 1 - before;
}

bool ScheduleFromCounterexample(const verify::Model& m, const verify::Violation& v, const trace::Trace& t,
                                const std::string& trace_dir, const std::string& root,
                                schedule::Schedule* out, std::string* why) {
  schedule::Schedule s;
  s.cmd = schedule::InvocationOf(t, trace_dir);
  s.origin = fmt::format("verify counterexample of {} on trace {}", m.entry, trace_dir);
  s.expect = std::string(report::KindName(v.kind));
  std::unordered_map<uint32_t, uint32_t> sid = schedule::ScheduleGoroutines(t, &s);
  // Per recorded goroutine: its controlled records in program order, and
  // how many of them the prefix has taken.
  std::unordered_map<uint32_t, std::vector<uint32_t>> controlled;
  std::unordered_map<uint32_t, size_t> taken;
  for (const trace::Goroutine& g : t.goroutines) {
    auto& list = controlled[g.gid];
    for (uint32_t i = g.begin; i < g.end; i++) {
      if (schedule::IsControlled(t.records[i].kind)) list.push_back(i);
    }
  }
  auto at_pos = [&](const trace::Record& r, const ir::Pos& p) {
    const trace::Site& site = t.SiteOf(r);
    if (r.site == 0 || p.line <= 0 || site.line != static_cast<uint32_t>(p.line)) return false;
    const std::string& f = p.file < m.files.size() ? m.files[p.file] : std::string();
    return SameFile(site.file, f, root);
  };
  // A select is recorded where the runtime's selectgo is called from,
  // which the compiler may place on a case's line (a one-case select with
  // default is a non-blocking send or receive at its case).
  auto at_line = [&](const trace::Record& r, const verify::Instr& in) {
    if (at_pos(r, in.pos)) return true;
    if (in.kind != InstrKind::kSelect) return false;
    for (const verify::SelectCase& c : in.cases) {
      if (at_pos(r, c.pos)) return true;
    }
    return false;
  };
  auto describe = [&](size_t i, const verify::CheckStep& st, const verify::Instr& in) {
    const std::string& f = in.pos.file < m.files.size()
                               ? m.files[in.pos.file] : std::string("?");
    return fmt::format("step {} (process {}: {} at {}:{})", i + 1, st.process,
                       in.text.empty() ? std::string(verify::InstrKindName(in.kind)) : in.text,
                       f.substr(f.rfind('/') + 1), in.pos.line);
  };
  std::map<int32_t, Bound> procs;  // model process -> recorded goroutine
  struct Spawn {
    int32_t tmpl;
    uint32_t gid;
  };
  std::deque<Spawn> pending;  // spawned, not yet bound to a process
  std::unordered_map<uint32_t, uint32_t> spawn_cursor;  // gid -> next record to look at for GoSpawn
  std::map<int32_t, std::pair<int32_t, int32_t>> last_pc;  // process -> (template, pc) of its last step
  std::map<int32_t, size_t> last_op;  // process -> index in s.ops of its last matched operation
  for (size_t i = 0; i < v.steps.size(); i++) {
    const verify::CheckStep& st = v.steps[i];
    if (st.process < 0 || st.template_index < 0) continue;  // the environment: runs freely
    const verify::Template& tp = m.templates[st.template_index];
    if (st.pc < 0 || st.pc >= static_cast<int32_t>(tp.code.size())) continue;
    const verify::Instr& in = tp.code[st.pc];
    // A process's step at the pc of its previous step is the same
    // operation again: a Cond.Wait's relock after its wait, or the blocked
    // end state of an operation already begun (a leak's Wait).
    auto [last_it, first_step] = last_pc.try_emplace(st.process, std::pair<int32_t, int32_t>{-1, -1});
    const bool again = !first_step && last_it->second == std::pair<int32_t, int32_t>{st.template_index, st.pc} &&
                       last_op.count(st.process);
    last_it->second = {st.template_index, st.pc};
    if (again) {
      if (st.blocks) s.ops[last_op[st.process]].blocks = true;
      continue;
    }
    std::vector<Kind> kinds = KindsOf(in);
    if (kinds.empty() && in.kind != InstrKind::kGo) {
      if (in.kind == InstrKind::kEnd) {
        auto it = procs.find(st.process);
        if (it != procs.end()) it->second.ended = true;
        last_op.erase(st.process);
        last_pc.erase(st.process);
      }
      continue;
    }
    // Bind the process to its goroutine at its first step.
    auto it = procs.find(st.process);
    if (it == procs.end() || it->second.ended || it->second.tmpl != st.template_index) {
      Bound b;
      b.tmpl = st.template_index;
      if (st.template_index == 0 && it == procs.end()) {
        // The entry: the first goroutine that does this step's operation here.
        if (!EntryGoroutine(t, in, kinds, at_line, &b.gid)) {
          *why = fmt::format("{}: the recorded run has no goroutine that does it (the test does not reach {} "
                             "the way the model does)", describe(i, st, in), m.entry);
          return false;
        }
      } else {
        auto p = std::find_if(pending.begin(), pending.end(), [&](const Spawn& x) { return x.tmpl == st.template_index; });
        if (p == pending.end()) {
          *why = fmt::format("{}: the goroutine that does it was not started in the recorded run", describe(i, st, in));
          return false;
        }
        b.gid = p->gid;
        pending.erase(p);
      }
      procs[st.process] = b;
      it = procs.find(st.process);
    }
    // The checker gives a new process the slot of an ended one; when the
    // bound goroutine has no such operation left and a goroutine of the
    // same function was started and not bound yet, the step is that one's.
    auto has_left = [&](uint32_t gid) {
      const std::vector<uint32_t>& list = controlled[gid];
      for (size_t j = taken[gid]; j < list.size(); j++) {
        const trace::Record& rec = t.records[list[j]];
        if (std::find(kinds.begin(), kinds.end(), rec.kind) != kinds.end() && at_line(rec, in)) return true;
      }
      return false;
    };
    if (in.kind != InstrKind::kGo && st.template_index != 0 && !has_left(it->second.gid)) {
      auto p = std::find_if(pending.begin(), pending.end(), [&](const Spawn& x) {
        return x.tmpl == st.template_index && has_left(x.gid);
      });
      if (p != pending.end()) {
        it->second.gid = p->gid;
        pending.erase(p);
        last_op.erase(st.process);
      }
    }
    const uint32_t gid = it->second.gid;
    const trace::Goroutine* g = t.FindGoroutine(gid);
    if (in.kind == InstrKind::kGo) {
      // The n-th spawn at this line of the goroutine, in program order.
      uint32_t& cur = spawn_cursor.try_emplace(gid, g->begin).first->second;
      bool found = false;
      for (; cur < g->end; cur++) {
        const trace::Record& rec = t.records[cur];
        if (rec.kind == Kind::GoSpawn && at_line(rec, in)) {
          pending.push_back({in.b, rec.obj});
          found = true;
          cur++;
          break;
        }
      }
      if (!found) {
        *why = fmt::format("{}: the recorded run has no such go statement there", describe(i, st, in));
        return false;
      }
      continue;
    }
    if (!sid.count(gid)) {
      *why = fmt::format("{}: its goroutine has no stable identity in the recording", describe(i, st, in));
      return false;
    }
    const std::vector<uint32_t>& list = controlled[gid];
    size_t& k = taken[gid];
    size_t j = k;
    for (; j < list.size(); j++) {
      const trace::Record& rec = t.records[list[j]];
      if (std::find(kinds.begin(), kinds.end(), rec.kind) != kinds.end() && at_line(rec, in)) break;
    }
    if (j == list.size()) {
      *why = fmt::format("{}: no such operation of goroutine {} is left in the recorded run", describe(i, st, in),
                         g->stable_id);
      return false;
    }
    for (; k <= j; k++) s.ops.push_back(OpOf(t, list[k], k, sid.at(gid), k == j ? &st : nullptr, in));
    last_op[st.process] = s.ops.size() - 1;
  }
  if (s.ops.empty()) {
    *why = "the counterexample has no operation a schedule orders";
    return false;
  }
  *out = std::move(s);
  return true;
}

}  // namespace gordian::pipeline
