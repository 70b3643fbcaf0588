// This file answers one question about a select with a default case: can
// another schedule of the run make it take its default? Go takes the
// default only when no case is ready at the moment the select runs, and a
// receive from a closed channel is always ready (so is a send, which then
// panics). A select one of whose channels is closed before it in every
// schedule (the close happens before the select) never takes its default:
// no prediction may claim it does and no fuzzing strategy may propose it.
// (The replay runtime refuses such a choice too: gordianReplayRefuse.)
#pragma once

#include <cstdint>

#include "gordian/hb/happens_before.h"
#include "gordian/trace/ids.h"

namespace gordian::detect {

// False when some case of the select record q is on a channel whose close
// happens before q (the default is then impossible); true otherwise, also
// for a select without a default (callers check kHasDefault themselves).
bool DefaultPossible(const hb::HappensBefore& e, trace::RecordId q);

}  // namespace gordian::detect
