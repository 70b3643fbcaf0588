// This file declares the fuzzer's random numbers: one generator per
// campaign, seeded by `gordian fuzz -seed N` (or from the clock, and then
// printed), from which every random choice of the campaign and of its
// strategies comes. A run gets its own generator derived from the
// campaign's seed and the run's number (Rng::ForRun), so what a strategy
// draws for run 7 does not depend on which other runs finished first
// under -j: the same seed and the same runs give the same proposals.
// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and its output is
// the same on every platform, unlike std::uniform_int_distribution's.
#pragma once

#include <cstdint>

namespace gordian::fuzz {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  // The next 64 random bits.
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n); 0 when n is 0. (Draws below 2^64 mod n are
  // rejected, so that every remainder is equally likely.)
  uint64_t Below(uint64_t n) {
    if (n == 0) return 0;
    const uint64_t reject_below = (0 - n) % n;  // 2^64 mod n
    uint64_t x = Next();
    while (x < reject_below) x = Next();
    return x % n;
  }
  // Uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // True with probability p.
  bool Chance(double p) { return Unit() < p; }

  // The generator of run number `run` of the campaign seeded with seed.
  static Rng ForRun(uint64_t seed, uint64_t run) {
    Rng mix(seed ^ (run * 0xd1b54a32d192ed03ull));
    return Rng(mix.Next());
  }

 private:
  uint64_t state_;
};

}  // namespace gordian::fuzz
