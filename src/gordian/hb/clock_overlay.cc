// This file implements the overlay's fold and raise (clock_overlay.h).
#include "gordian/hb/clock_overlay.h"

namespace gordian::hb {

void FoldOverlay(ClockArena* a, ClockArena::Clock* c, ClockOverlay* ov, uint64_t stamp) {
  for (uint32_t k = 0; k < ov->n; ++k) a->SetMax(c, ov->e[k].g, ov->e[k].e, stamp);
  ov->Clear();
}

bool OverlayRaise(ClockArena* a, ClockArena::Clock* c, ClockOverlay* ov, uint32_t i, uint32_t v,
                  uint64_t stamp) {
  for (uint32_t k = 0; k < ov->n; ++k) {
    if (ov->e[k].g == i) {
      if (ov->e[k].e >= v) return false;
      ov->e[k].e = v;
      return true;
    }
  }
  if (a->Get(c->root, i) >= v) return false;
  if (ov->n >= ClockOverlay::kRaiseLimit) FoldOverlay(a, c, ov, stamp);
  ov->Put(i, v);
  return true;
}

}  // namespace gordian::hb
