// This file decides whether a panic was recovered (PanicRecovered,
// occurred.h). Tests provoke misuse panics on purpose and catch them with a
// deferred recover (a negative WaitGroup counter, a second close, a send on
// a closed channel, checked for their message); such a panic is a warning,
// not a bug. The trace does not record recover() itself, but an unrecovered
// panic ends the program at once: the goroutine runs its deferred calls and
// the runtime exits with status 2 (ProgramExit aux 2, written by the dying
// goroutine). So a panic was recovered when the program outlived it:
//   - no fatal ProgramExit (panic or fatal error) was written by the
//     panicking goroutine after it; and
//   - in a test: the test ended and passed (`testing` marks a test that
//     panics as failed before it re-panics; a panic swallowed by a recover
//     that then fails the test stays a bug); outside tests: the program
//     exited with status 0.
// A fatal error (unlock of an unlocked mutex in every Go version gordian
// supports) can never be recovered; callers do not ask for those.
// SettlePanic applies the answer to the finding of a panicking operation.
#include <algorithm>

#include "gordian/detect/occurred/detectors.h"

namespace gordian::detect {

bool PanicRecovered(const OccurredIndex& ix, RecordId rec) {
  const Record& r = ix.rec(rec);
  const Gid gid = ix.GidOf(rec);
  int exit_status = -1;  // -1: the trace has no ProgramExit (killed, or cut off)
  if (uint32_t x = ix.ExitRecord(); x != hb::kNoRecord) {
    const Record& e = ix.rec(x);
    exit_status = static_cast<int>(e.val);
    const bool fatal = e.aux == static_cast<uint16_t>(trace::ExitHow::FatalPanic) ||
                       e.aux == static_cast<uint16_t>(trace::ExitHow::FatalError);
    if (fatal && ix.GidOf(x) == gid && e.tpre >= r.tpre) return false;
  }
  std::string test = ix.TestOf(rec);
  if (!test.empty()) {
    for (const TestInfo& ti : ix.tests()) {
      if (ti.name == test && ti.start <= r.tpre && r.tpre <= ti.end) {
        return ti.end != trace::kNoStamp && !ti.failed;
      }
    }
  }
  return exit_status == 0;
}

void SettlePanic(const OccurredIndex& ix, RecordId rec, OccurredState* st,
                 report::Finding* f) {
  if (PanicRecovered(ix, rec)) {
    f->severity = report::Severity::Warning;
    f->message += "; the panic was recovered";
    return;
  }
  st->crash_stamp = std::min(st->crash_stamp, ix.rec(rec).tpre);
}

}  // namespace gordian::detect
