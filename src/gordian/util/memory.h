// This file says how much memory the analysis may use by default: half of
// the machine's physical memory (MemTotal in /proc/meminfo), and no more
// than three quarters of the address-space limit when one is set (ulimit
// -v), so that the analysis degrades before an allocation fails. The
// -mem flag (size.h) overrides it.
#pragma once

#include <cstdint>

namespace gordian::util {

// MemTotal of /proc/meminfo in bytes, or 0 when it cannot be read.
uint64_t PhysicalMemoryBytes();
// The soft RLIMIT_AS in bytes, or 0 when there is none.
uint64_t AddressSpaceLimitBytes();
// The default analysis memory budget from the two above (4 GiB when
// neither is known).
uint64_t DefaultMemoryBudget();
// The same from given figures (0 = unknown), for tests.
uint64_t MemoryBudgetFor(uint64_t physical, uint64_t address_space_limit);

}  // namespace gordian::util
