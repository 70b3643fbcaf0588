// This file implements `gordian cache [clean]`: where gordian's cache is,
// what each area holds and its size, and cleaning it (driver/cache_usage.h),
// as `go clean -cache` does for go's.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/driver/cache_usage.h"
#include "gordian/driver/work_dir.h"
#include "gordian/util/flags.h"
#include "gordian/util/size.h"

namespace gordian::cli {

int RunCache(const std::vector<std::string>& args) {
  const std::string cmd = "gordian cache";
  util::FlagSet flags(cmd);
  std::vector<std::string> pos;
  const char* usage =
      "usage: gordian cache [clean]\n\n"
      "Shows where gordian keeps its cache ($GORDIAN_CACHE, else\n"
      "$XDG_CACHE_HOME/gordian, else ~/.cache/gordian) and how much each part\n"
      "of it takes. The schedules that reproduce commands name and gordian\n"
      "fuzz's working corpus are kept under GORDIAN_CACHE_MAX together (default\n"
      "4GiB; e.g. GORDIAN_CACHE_MAX=1GB), the oldest removed first.\n"
      "'gordian cache clean' removes everything in it but the scratch\n"
      "directories of gordian commands still running (reproduce commands of\n"
      "earlier reports stop working; the rest is rebuilt when needed).\n\nFlags:\n";
  if (auto done = ParseCommandLine(&flags, args, &pos, usage)) return *done;
  if (pos.size() > 1 || (pos.size() == 1 && pos[0] != "clean")) {
    return UsageError(fmt::format("{}: unknown argument {:?}; the only one is clean", cmd, pos.back()));
  }
  std::string cache, err;
  if (!driver::CacheDir(&cache, &err)) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    return kExitToolError;
  }
  if (!pos.empty()) {
    uint64_t removed = 0;
    if (!driver::CleanCache(cache, &removed, &err)) {
      fmt::print(stderr, "{}: {}\n", cmd, err);
      return kExitToolError;
    }
    fmt::print("{}: removed {} from {}\n", cmd, util::FormatSize(removed), cache);
    return kExitOK;
  }
  uint64_t max = 0;
  if (!driver::CacheMaxBytes(&max, &err)) fmt::print(stderr, "{}: warning: {}\n", cmd, err);
  uint64_t total = 0;
  std::vector<driver::CacheArea> areas = driver::CacheUsage(cache);
  fmt::print("{}\n", cache);
  for (const driver::CacheArea& a : areas) {
    fmt::print("  {:<12} {:>10}  {}\n", a.name, util::FormatSize(a.bytes), a.what);
    total += a.bytes;
  }
  fmt::print("  {:<12} {:>10}  (schedules and fuzz-corpus are kept under {}: GORDIAN_CACHE_MAX)\n",
             "total", util::FormatSize(total), util::FormatSize(max));
  return kExitOK;
}

}  // namespace gordian::cli
