// This file declares GoPie's mutations of scheduling chains, apart from
// any trace: a chain is a list of operations of one run (record numbers)
// that a schedule makes take effect in that order; what a mutation may
// use is given by a ChainSpace (which operations are peers, and which
// orders the run allows). The scheduling-chains strategy
// (scheduling_chains.cc) builds the space from an analysed run.
//
//   flip        two adjacent operations swap places (the pair-flip
//               strategy is this mutation on chains of two)
//   abridge     the first or the last operation is dropped (a chain keeps
//               at least two)
//   substitute  one operation is replaced by one of its peers that is not
//               in the chain
//   augment     a peer of the last operation, not in the chain, is added
//               at the end
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "gordian/fuzz/rng.h"
#include "gordian/trace/ids.h"

namespace gordian::fuzz {

using trace::RecordId;
using Chain = std::vector<RecordId>;

enum class ChainMutation : uint8_t { Flip, Abridge, Substitute, Augment };
inline constexpr ChainMutation kChainMutations[] = {ChainMutation::Flip, ChainMutation::Abridge,
                                                    ChainMutation::Substitute,
                                                    ChainMutation::Augment};
const char* ChainMutationName(ChainMutation m);

struct ChainSpace {
  // The peers of an operation: operations on the same object, by other
  // goroutines, that the run leaves unordered with it. Sorted.
  std::map<RecordId, std::vector<RecordId>> peers;
  // Whether a can take effect before b in some run (a != b).
  std::function<bool(RecordId a, RecordId b)> can_precede;
  // Whether a took effect before b in the recorded run.
  std::function<bool(RecordId a, RecordId b)> recorded_before;
};

// Applies m to *c with choices drawn from rng; false (and *c unchanged)
// when m does not apply (a chain of two cannot be abridged, an operation
// with no free peer cannot be substituted).
bool MutateChain(const ChainSpace& space, ChainMutation m, Rng& rng, Chain* c);

// Every operation of c can take effect before every later one.
bool ChainFeasible(const ChainSpace& space, const Chain& c);

// Some pair of c is in the other order than the recorded run's: the chain
// asks for something the run did not do.
bool ChainReorders(const ChainSpace& space, const Chain& c);

}  // namespace gordian::fuzz
