// This file defines the stamp order: every step the clock builder's
// scheduler can take, as (stamp << 32 | goroutine index), in stamp order.
// The scheduler replays the ready goroutine whose next step has the
// smallest stamp; with thousands of goroutines a heap over them cost a
// cache miss per step (the next record of a goroutine that ran thousands of
// steps ago) and a dozen unpredictable comparisons (docs/scale.md, "How
// the engine gets there"). Walking the steps in stamp order instead reads them in
// order and tells, steps ahead, which goroutine comes next, so that its
// loads can be started early. The steps are given a window of stamps at a
// time (about 2^18 steps: 2 MB and as much for the sort's scratch, not 8
// bytes for every step of the trace at once; windows of 2^20 steps cost 16
// to 32 MB at the peak of a pipeline's analysis, docs/analysis-needs.md).
#pragma once

#include <cstdint>
#include <vector>

#include "gordian/trace/ids.h"
#include "gordian/trace/trace.h"

namespace gordian::hb {

// The stamps at which a record is a goroutine's next step (Builder::HeadKey
// gives one of them, depending on the goroutine's state): its tpre when it
// never completed, or for the pre steps of a Once.Do that ran f and of a
// Cond.Wait; its tpost when it completed (the Once.Do's post is a step of
// its own, after f's records).
inline bool StepsAtPre(const trace::Record& r) {
  return r.tpost == 0 || (r.kind == trace::Kind::OnceDo && (r.flags & trace::kSuccess)) ||
         r.kind == trace::Kind::CondWait;
}
inline bool StepsAtPost(const trace::Record& r) { return r.tpost != 0; }

class StampOrder {
 public:
  // Goroutines' record ranges must lie inside the trace. window_steps:
  // about how many steps a window holds.
  void Init(const trace::Trace& t, size_t window_steps);
  // The next window's steps, sorted by stamp, then goroutine, then record
  // (into *out, replacing what it held); false once every step was given.
  // Window after window the stamps rise, but for a goroutine whose stamps
  // go backwards (an inconsistent trace): its steps come in its record
  // order, each in the first window that reaches it.
  bool Next(std::vector<uint64_t>* out);

 private:
  struct Cursor {
    trace::RecordId rec = 0;  // the next record with a step not given yet
    uint32_t stamp = 0;  // that step's stamp
    bool post = false;   // that step is the record's post step
  };
  // Moves c to the step after its current one in goroutine g; false when
  // g has none left.
  bool Advance(uint32_t g, Cursor* c) const;
  // Sets c to the first step of record c->rec.
  void First(Cursor* c) const;

  const trace::Trace* t_ = nullptr;
  std::vector<Cursor> cur_;     // per goroutine
  std::vector<uint32_t> live_;  // goroutines with steps left
  uint64_t lo_ = 0;             // the smallest stamp not given yet
  uint64_t span_ = 1;           // stamps per window
  size_t window_steps_ = 0;     // the steps a window should hold
  std::vector<uint64_t> scratch_;
};

namespace internal {
// The steps a window of the stamp order holds (default 2^18, at least 2
// per goroutine and, up to 2^20, 128; a value below 64 asks for 2):
// tests make it small to compare windows with one window.
extern size_t stamp_window_steps;
}  // namespace internal

// Sorts values by their high 32 bits, keeping the order of equal ones
// (a radix sort: three passes of 11 bits, each skipped when every value
// has the same digit there). scratch: reused storage.
void SortByHighWord(std::vector<uint64_t>* v, std::vector<uint64_t>* scratch);

}  // namespace gordian::hb
