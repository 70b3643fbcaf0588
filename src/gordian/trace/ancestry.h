// This file owns the walk up goroutines' spawn chains that gives each
// goroutine an answer of its nearest ancestor's: the test a goroutine
// belongs to (hb::OpIndex), the top-level test's goroutine it descends
// from (pipeline/trace_windows.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "gordian/trace/trace.h"

namespace gordian::trace {

// For every gid 1..ng of t (index gid; index 0 is `broken`): own(gid) when
// that goroutine has an answer of its own, else its parent's, found by
// walking up; `broken` where the chain breaks off (an unknown parent, a
// corrupt cycle). Memoised, so that a chain of goroutines each spawned by
// the previous one (a worker pool's successors) costs its length once, not
// once per goroutine on it.
template <typename T, typename Own>
std::vector<T> ByNearestAncestor(const Trace& t, Own own, T broken) {
  const uint32_t ng = static_cast<uint32_t>(t.goroutines.size());
  enum : uint8_t { kUnknown, kOnPath, kKnown };
  std::vector<uint8_t> state(ng + 1, kUnknown);
  std::vector<T> out(ng + 1, broken);
  std::vector<uint32_t> path;
  for (uint32_t g = 1; g <= ng; g++) {
    uint32_t cur = g;
    T found = broken;
    path.clear();
    while (cur != 0 && cur <= ng && state[cur] != kOnPath) {
      if (state[cur] == kKnown) {
        found = out[cur];
        break;
      }
      if (std::optional<T> mine = own(cur)) {
        found = *mine;
        out[cur] = found;
        state[cur] = kKnown;
        break;
      }
      state[cur] = kOnPath;
      path.push_back(cur);
      cur = t.goroutines[cur - 1].parent;
    }
    for (uint32_t p : path) {
      out[p] = found;
      state[p] = kKnown;
    }
  }
  out[0] = broken;
  return out;
}

}  // namespace gordian::trace
