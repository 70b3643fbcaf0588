// This file implements Summarize and DescribeEnd (summary.h).
#include "gordian/trace/summary.h"

#include <algorithm>
#include <charconv>
#include <map>

#include <fmt/format.h>

namespace gordian::trace {

TraceSummary Summarize(const Trace& t) {
  TraceSummary s;
  s.records = t.records.size();
  s.truncated = t.truncated;
  for (const Goroutine& g : t.goroutines) {
    if (g.stable_id != "recorder") s.goroutines++;
  }
  for (const Record& r : t.records) {
    switch (r.kind) {
      case Kind::TestStart: s.tests++; break;
      case Kind::TestEnd: s.tests_failed += (r.flags & kFailed) ? 1 : 0; break;
      case Kind::BlockedAtTestEnd: s.leaked += r.val != 0; break;  // val 0: at program exit
      case Kind::GlobalDeadlock:
        s.global_deadlock = true;
        s.deadlocked = r.obj;
        break;
      case Kind::Panic:
        s.panic = r.val < t.strings.size() ? t.strings[r.val] : std::string();
        break;
      case Kind::ProgramExit:
        s.exited = true;
        s.exit_status = r.val;
        s.exit_how = r.aux;
        break;
      default:
        if (IsBlocking(r.kind) && r.tpost == 0) s.never_completed++;
        break;
    }
  }
  if (!s.exited) {
    auto it = t.meta.find("exit_status");
    uint32_t v = 0;
    if (it != t.meta.end()) {
      auto [p, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
      if (ec == std::errc()) {
        s.exited = true;
        s.exit_status = v;
      }
    }
  }
  return s;
}

std::vector<TestOutcome> TestOutcomes(const Trace& t) {
  // Records are grouped by goroutine, not by time: starts are sorted by
  // stamp and ends matched by test index.
  std::vector<const Record*> starts;
  for (const Record& r : t.records) {
    if (r.kind == Kind::TestStart) starts.push_back(&r);
  }
  std::stable_sort(starts.begin(), starts.end(),
                   [](const Record* a, const Record* b) { return a->tpre < b->tpre; });
  std::vector<TestOutcome> out;
  std::map<uint32_t, size_t> by_index;  // TestStart obj (test index) -> position in out
  for (const Record* r : starts) {
    TestOutcome o;
    o.name = r->val < t.strings.size() ? t.strings[r->val] : std::string();
    by_index[r->obj] = out.size();
    out.push_back(std::move(o));
  }
  for (const Record& r : t.records) {
    if (r.kind != Kind::TestEnd) continue;
    auto it = by_index.find(r.obj);
    if (it == by_index.end()) continue;
    out[it->second].finished = true;
    out[it->second].failed = (r.flags & kFailed) != 0;
  }
  return out;
}

std::string DescribeEnd(const TraceSummary& s) {
  if (s.global_deadlock) {
    return fmt::format("ended in a global deadlock: {} goroutines blocked forever (status {})",
                       s.deadlocked, s.exit_status);
  }
  if (!s.exited) return "did not finish (killed, or the trace was cut short)";
  switch (s.exit_how) {
    case 1: return fmt::format("exited with status {} (os.Exit)", s.exit_status);
    case 2:
      return s.panic.empty() ? fmt::format("panicked (status {})", s.exit_status)
                             : fmt::format("panicked (status {}): {}", s.exit_status, s.panic);
    case 3: return fmt::format("hit a fatal error (status {})", s.exit_status);
    case 4: return fmt::format("ended in a global deadlock (status {})", s.exit_status);
    default: return fmt::format("exited with status {}", s.exit_status);
  }
}

}  // namespace gordian::trace
