// This file implements the default memory budget (memory.h).
#include "gordian/util/memory.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace gordian::util {

uint64_t PhysicalMemoryBytes() {
  FILE* f = std::fopen("/proc/meminfo", "r");
  if (f == nullptr) return 0;
  char line[256];
  uint64_t kb = 0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    unsigned long long v = 0;
    if (std::sscanf(line, "MemTotal: %llu kB", &v) == 1) {
      kb = v;
      break;
    }
  }
  std::fclose(f);
  return kb * 1024;
}

uint64_t AddressSpaceLimitBytes() {
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return 0;
  return static_cast<uint64_t>(rl.rlim_cur);
}

uint64_t MemoryBudgetFor(uint64_t physical, uint64_t as_limit) {
  uint64_t budget = physical > 0 ? physical / 2 : 4ull << 30;
  // The address space also holds code, stacks and the allocator's slack.
  if (as_limit > 0) budget = std::min(budget, as_limit / 4 * 3);
  return std::max<uint64_t>(budget, 1);
}

uint64_t DefaultMemoryBudget() {
  return MemoryBudgetFor(PhysicalMemoryBytes(), AddressSpaceLimitBytes());
}

}  // namespace gordian::util
