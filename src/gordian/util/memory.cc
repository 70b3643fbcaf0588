// This file implements the default memory budget (memory.h).
#include "gordian/util/memory.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

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

namespace {

// A limit file's value: bytes, or 0 for none ("max" in v2; v1 writes a
// number near 2^63 for none).
uint64_t LimitValue(const std::optional<std::string>& text) {
  if (!text) return 0;
  unsigned long long v = 0;
  if (std::sscanf(text->c_str(), "%llu", &v) != 1) return 0;  // "max"
  return v >= (1ull << 60) ? 0 : v;
}

// The tightest limit named `file` along the group path, from the group up
// to the root of the hierarchy mounted at `root`. Inside a container the
// hierarchy's root is often the container's own group, and the path
// /proc/self/cgroup names does not exist below it: then the root's own
// file is what limits us.
uint64_t TightestAlong(const std::string& root, std::string path, const std::string& file,
                       const std::function<std::optional<std::string>(const std::string&)>& read) {
  uint64_t tightest = 0;
  auto take = [&](uint64_t v) {
    if (v != 0 && (tightest == 0 || v < tightest)) tightest = v;
  };
  while (!path.empty() && path != "/") {
    take(LimitValue(read(root + path + "/" + file)));
    size_t up = path.rfind('/');
    if (up == std::string::npos) break;  // not a path: no parents to look at
    path.erase(up);
  }
  take(LimitValue(read(root + "/" + file)));
  return tightest;
}

}  // namespace

uint64_t CgroupMemoryLimitFrom(std::string_view proc_self_cgroup,
                               const std::function<std::optional<std::string>(const std::string&)>& read) {
  // Lines "hierarchy-id:controllers:path": "0::/path" is cgroup v2, a line
  // whose controllers include "memory" is v1's memory hierarchy.
  std::istringstream lines{std::string(proc_self_cgroup)};
  uint64_t v1 = 0, v2 = 0;
  for (std::string line; std::getline(lines, line);) {
    size_t a = line.find(':');
    size_t b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    std::string controllers = line.substr(a + 1, b - a - 1);
    std::string path = line.substr(b + 1);
    if (line.compare(0, a, "0") == 0 && controllers.empty()) {
      v2 = TightestAlong("/sys/fs/cgroup", path, "memory.max", read);
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      v1 = TightestAlong("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes", read);
    }
  }
  if (v1 == 0) return v2;
  return v2 == 0 ? v1 : std::min(v1, v2);
}

uint64_t CgroupMemoryLimitBytes() {
  auto read = [](const std::string& file) -> std::optional<std::string> {
    std::ifstream in(file);
    if (!in) return std::nullopt;
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  std::optional<std::string> self = read("/proc/self/cgroup");
  return self ? CgroupMemoryLimitFrom(*self, read) : 0;
}

uint64_t MemoryBudgetFor(uint64_t physical, uint64_t as_limit, uint64_t cgroup_limit) {
  if (cgroup_limit > 0 && (physical == 0 || cgroup_limit < physical)) physical = cgroup_limit;
  uint64_t budget = physical > 0 ? physical / 2 : 4ull << 30;
  // The address space also holds code, stacks and the allocator's slack.
  if (as_limit > 0) budget = std::min(budget, as_limit / 4 * 3);
  return std::max<uint64_t>(budget, 1);
}

uint64_t DefaultMemoryBudget() {
  return MemoryBudgetFor(PhysicalMemoryBytes(), AddressSpaceLimitBytes(), CgroupMemoryLimitBytes());
}

}  // namespace gordian::util
