// This file defines the vector clock as the analyses see it: one logical time
// per goroutine, materialised from the happens-before engine's compact store
// (see clock_store.h) when a caller asks for a whole clock.
//
// Epochs: the p-th record of a goroutine (p = 0, 1, ... in program order) has
// its own entry 2p+1 at its pre event and 2p+2 at its post event, so that
// "a's post happens before b's pre" is one comparison of integers. 0 means
// "nothing known about that goroutine".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gordian::hb {

// A logical time of one goroutine (see above). Kept a plain integer on
// purpose: queries compare epochs with <=, and the clock store packs them.
using Epoch = uint32_t;

inline constexpr Epoch PreEpochAt(uint32_t pos) { return 2 * pos + 1; }
inline constexpr Epoch PostEpochAt(uint32_t pos) { return 2 * pos + 2; }

// A materialised vector clock, indexed by goroutine index (gid - 1). Not used
// on the hot path: the engine works on raw uint32_t rows.
class VectorClock {
 public:
  VectorClock() = default;
  explicit VectorClock(uint32_t n) : v_(n, 0) {}

  uint32_t size() const { return static_cast<uint32_t>(v_.size()); }
  Epoch operator[](uint32_t i) const { return v_[i]; }
  Epoch& operator[](uint32_t i) { return v_[i]; }
  Epoch* data() { return v_.data(); }
  const Epoch* data() const { return v_.data(); }

  // this := max(this, o), pointwise.
  void Join(const VectorClock& o);
  // this <= o pointwise.
  bool LessEq(const VectorClock& o) const;
  // Neither this <= o nor o <= this.
  bool Incomparable(const VectorClock& o) const {
    return !LessEq(o) && !o.LessEq(*this);
  }
  bool operator==(const VectorClock& o) const { return v_ == o.v_; }

  // "[1,0,4]".
  std::string ToString() const;

 private:
  std::vector<Epoch> v_;
};

}  // namespace gordian::hb
