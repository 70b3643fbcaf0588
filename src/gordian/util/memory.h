// This file says how much memory the analysis may use by default: half of
// the memory the process may have, that is the machine's physical memory
// (MemTotal in /proc/meminfo) or the memory limit of its control group when
// that is lower (a container or CI runner: cgroup v2's memory.max, v1's
// memory.limit_in_bytes, the tightest along the group's path), and no more
// than three quarters of the address-space limit when one is set (ulimit
// -v), so that the analysis degrades before an allocation fails or the
// kernel's OOM killer ends the run. The -mem flag (size.h) overrides it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gordian::util {

// MemTotal of /proc/meminfo in bytes, or 0 when it cannot be read.
uint64_t PhysicalMemoryBytes();
// The soft RLIMIT_AS in bytes, or 0 when there is none.
uint64_t AddressSpaceLimitBytes();
// The memory limit of this process's control group in bytes, or 0 when
// there is none (or none can be read).
uint64_t CgroupMemoryLimitBytes();
// The same from the text of /proc/self/cgroup and a reader of files under
// /sys/fs/cgroup (nullopt when a file cannot be read), for tests.
uint64_t CgroupMemoryLimitFrom(std::string_view proc_self_cgroup,
                               const std::function<std::optional<std::string>(const std::string&)>& read);
// The default analysis memory budget from the figures above (4 GiB when
// none is known).
uint64_t DefaultMemoryBudget();
// The same from given figures (0 = unknown), for tests.
uint64_t MemoryBudgetFor(uint64_t physical, uint64_t address_space_limit,
                         uint64_t cgroup_limit = 0);

}  // namespace gordian::util
