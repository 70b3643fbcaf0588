// This file implements the mutations of scheduling chains (chain_mutation.h).
#include "gordian/fuzz/chain_mutation.h"

#include <algorithm>

namespace gordian::fuzz {
namespace {

bool InChain(const Chain& c, uint32_t op) { return std::find(c.begin(), c.end(), op) != c.end(); }

// The peers of op that are not in c.
std::vector<uint32_t> FreePeers(const ChainSpace& space, const Chain& c, uint32_t op) {
  std::vector<uint32_t> out;
  auto it = space.peers.find(op);
  if (it == space.peers.end()) return out;
  for (uint32_t p : it->second) {
    if (!InChain(c, p)) out.push_back(p);
  }
  return out;
}

}  // namespace

const char* ChainMutationName(ChainMutation m) {
  switch (m) {
    case ChainMutation::Flip: return "flip";
    case ChainMutation::Abridge: return "abridge";
    case ChainMutation::Substitute: return "substitute";
    case ChainMutation::Augment: return "augment";
  }
  return "?";
}

bool MutateChain(const ChainSpace& space, ChainMutation m, Rng& rng, Chain* c) {
  switch (m) {
    case ChainMutation::Flip: {
      if (c->size() < 2) return false;
      size_t i = rng.Below(c->size() - 1);
      std::swap((*c)[i], (*c)[i + 1]);
      return true;
    }
    case ChainMutation::Abridge: {
      if (c->size() < 3) return false;
      if (rng.Chance(0.5)) c->erase(c->begin());
      else c->pop_back();
      return true;
    }
    case ChainMutation::Substitute: {
      // Which positions have a free peer; one of them, one of its peers.
      std::vector<size_t> at;
      for (size_t i = 0; i < c->size(); i++) {
        if (!FreePeers(space, *c, (*c)[i]).empty()) at.push_back(i);
      }
      if (at.empty()) return false;
      size_t i = at[rng.Below(at.size())];
      std::vector<uint32_t> free = FreePeers(space, *c, (*c)[i]);
      (*c)[i] = free[rng.Below(free.size())];
      return true;
    }
    case ChainMutation::Augment: {
      if (c->empty()) return false;
      std::vector<uint32_t> free = FreePeers(space, *c, c->back());
      if (free.empty()) return false;
      c->push_back(free[rng.Below(free.size())]);
      return true;
    }
  }
  return false;
}

bool ChainFeasible(const ChainSpace& space, const Chain& c) {
  for (size_t i = 0; i < c.size(); i++) {
    for (size_t j = i + 1; j < c.size(); j++) {
      if (c[i] == c[j] || !space.can_precede(c[i], c[j])) return false;
    }
  }
  return true;
}

bool ChainReorders(const ChainSpace& space, const Chain& c) {
  for (size_t i = 0; i < c.size(); i++) {
    for (size_t j = i + 1; j < c.size(); j++) {
      if (space.recorded_before(c[j], c[i])) return true;
    }
  }
  return false;
}

}  // namespace gordian::fuzz
