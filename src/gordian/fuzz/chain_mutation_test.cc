// Tests of the scheduling-chain mutations on a space made by hand: ops 1
// to 4, where 1, 2 and 3 are each other's peers and 4 is 3's only peer;
// 4 cannot go before 1; the recorded order is the numbers' order.
#include "gordian/fuzz/chain_mutation.h"

#include <set>

#include <gtest/gtest.h>

namespace gordian::fuzz {
namespace {

ChainSpace Space() {
  ChainSpace s;
  s.peers = {{1, {2, 3}}, {2, {1, 3}}, {3, {1, 2, 4}}, {4, {3}}};
  s.can_precede = [](uint32_t a, uint32_t b) { return !(a == 4 && b == 1); };
  s.recorded_before = [](uint32_t a, uint32_t b) { return a < b; };
  return s;
}

// Every outcome of m on c over many draws.
std::set<Chain> Outcomes(ChainMutation m, const Chain& c) {
  ChainSpace s = Space();
  std::set<Chain> out;
  for (uint64_t seed = 0; seed < 64; seed++) {
    Rng rng(seed);
    Chain x = c;
    if (MutateChain(s, m, rng, &x)) out.insert(x);
  }
  return out;
}

TEST(ChainMutation, FlipSwapsTwoAdjacentOperations) {
  EXPECT_EQ(Outcomes(ChainMutation::Flip, {1, 2}), (std::set<Chain>{{2, 1}}));
  EXPECT_EQ(Outcomes(ChainMutation::Flip, {1, 2, 3}), (std::set<Chain>{{2, 1, 3}, {1, 3, 2}}));
}

TEST(ChainMutation, AbridgeDropsTheFirstOrTheLastButKeepsTwo) {
  EXPECT_TRUE(Outcomes(ChainMutation::Abridge, {1, 2}).empty());
  EXPECT_EQ(Outcomes(ChainMutation::Abridge, {1, 2, 3}), (std::set<Chain>{{2, 3}, {1, 2}}));
}

TEST(ChainMutation, SubstituteReplacesOneOperationByAPeerNotInTheChain) {
  EXPECT_EQ(Outcomes(ChainMutation::Substitute, {1, 2}), (std::set<Chain>{{3, 2}, {1, 3}}));
  // 4's only peer, 3, is in the chain; 3's free peers are 1 and 2.
  EXPECT_EQ(Outcomes(ChainMutation::Substitute, {3, 4}), (std::set<Chain>{{1, 4}, {2, 4}}));
}

TEST(ChainMutation, AugmentAddsAPeerOfTheLastOperation) {
  EXPECT_EQ(Outcomes(ChainMutation::Augment, {1, 2}), (std::set<Chain>{{1, 2, 3}}));
  EXPECT_EQ(Outcomes(ChainMutation::Augment, {2, 3}), (std::set<Chain>{{2, 3, 1}, {2, 3, 4}}));
  EXPECT_TRUE(Outcomes(ChainMutation::Augment, {3, 4}).empty()) << "4's only peer is in it";
}

TEST(ChainMutation, TheSameDrawsGiveTheSameChain) {
  ChainSpace s = Space();
  for (uint64_t seed = 0; seed < 16; seed++) {
    Chain a = {1, 2}, b = {1, 2};
    Rng ra(seed), rb(seed);
    for (ChainMutation m : kChainMutations) {
      MutateChain(s, m, ra, &a);
      MutateChain(s, m, rb, &b);
    }
    EXPECT_EQ(a, b);
  }
}

TEST(ChainMutation, FeasibleAndReordering) {
  ChainSpace s = Space();
  EXPECT_TRUE(ChainFeasible(s, {1, 4}));
  EXPECT_FALSE(ChainFeasible(s, {4, 1}));
  EXPECT_FALSE(ChainFeasible(s, {3, 4, 1})) << "every pair, not only neighbours";
  EXPECT_FALSE(ChainFeasible(s, {1, 1}));
  EXPECT_FALSE(ChainReorders(s, {1, 2, 4})) << "the recorded order asks for nothing new";
  EXPECT_TRUE(ChainReorders(s, {1, 4, 2}));
}

}  // namespace
}  // namespace gordian::fuzz
