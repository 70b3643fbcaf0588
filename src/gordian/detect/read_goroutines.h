// This file decides, before the happens-before engine runs, which
// goroutines' clock entries some detector can read (the engine's
// projection, hb::HbOptions::read_goroutines; docs/analysis-needs.md,
// "Clocks on the read goroutines").
//
// Every detector asks only Before(a, b) = a's post epoch <= b's pre clock
// entry for a's goroutine, so only the entries of goroutines that can be
// the a of some question are read; joins are pointwise, so clocks restricted
// to those entries are exact for them. Questions pair records of one object
// (or, for lock order and mixed deadlock, records on locks and channels
// that clock_needs.h keeps anyway), so a goroutine is read when it has a
// record on an object some record of which keeps a clock (is not exempt by
// clock_needs.h; the goroutine's own records on it may be, when no
// question takes them as b), with one refinement for WaitGroups, where
// every goroutine of a fan-out calls Done:
//   - a positive Add is always read (negative WaitGroup: Before(Add, Done);
//     the engine's own Wait rule reads them too);
//   - a Done or a Wait is read unless the WaitGroup is safe by spawn edges
//     alone: all positive Adds are made by one goroutine P, and matching
//     every Done to the Adds P made before spawning (transitively) the
//     Done's goroutine leaves no Done short. The engine's relation includes
//     the spawn edges, so the negative-WaitGroup detector then finds the
//     group safe and asks nothing about its Dones (ConcurrentAdd, the only
//     question whose a is a Done, is asked of unsafe groups only).
// And every goroutine that calls a testing method (a TestCall record:
// testing after end asks Before(call, TestEnd)).
// Without an exemption mask (no object exempt) every goroutine is read:
// nothing to gain, nothing to risk.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gordian/hb/op_index.h"
#include "gordian/hb/record_mask.h"

namespace gordian::detect {

struct ReadGoroutines {
  // 1 for each goroutine index some question can read the entry of (null:
  // every goroutine, also when each one is read: no projection to pay for).
  std::shared_ptr<const std::vector<uint8_t>> read;
  uint32_t count = 0;  // how many are read (when read is set)
};

// unneeded: ClockNeeds::unneeded (null or empty: every goroutine is read).
ReadGoroutines ReadGoroutinesOf(const hb::OpIndex& ops, const hb::RecordMask* unneeded);

}  // namespace gordian::detect
