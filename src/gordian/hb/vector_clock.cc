// This file implements the materialised vector clock's pointwise operations.
#include "gordian/hb/vector_clock.h"

#include <algorithm>

namespace gordian::hb {

void VectorClock::Join(const VectorClock& o) {
  if (o.v_.size() > v_.size()) v_.resize(o.v_.size(), 0);
  for (size_t i = 0; i < o.v_.size(); ++i) v_[i] = std::max(v_[i], o.v_[i]);
}

bool VectorClock::LessEq(const VectorClock& o) const {
  for (size_t i = 0; i < v_.size(); ++i) {
    Epoch other = i < o.v_.size() ? o.v_[i] : 0;
    if (v_[i] > other) return false;
  }
  return true;
}

std::string VectorClock::ToString() const {
  std::string s = "[";
  for (size_t i = 0; i < v_.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v_[i]);
  }
  s += ']';
  return s;
}

}  // namespace gordian::hb
