// This file implements ApplyShardFlag (shard_flag.h).
#include "gordian/cli/shard_flag.h"

#include <filesystem>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/driver/shard.h"
#include "gordian/report/verdict.h"

namespace gordian::cli {

std::optional<int> ApplyShardFlag(const std::string& cmd, const std::string& shard,
                                  double wall_seconds, const ReportOptions& report,
                                  std::vector<std::string>* go_args) {
  if (shard.empty()) return std::nullopt;
  driver::Shard s;
  std::string err;
  if (!driver::ParseShard(shard, &s, &err)) return UsageError(fmt::format("{}: {}", cmd, err));
  std::vector<std::string> args;
  size_t selected = 0, total = 0;
  std::error_code ec;
  if (!driver::ShardArgs(*go_args, std::filesystem::current_path(ec).string(), wall_seconds, s,
                         &args, &selected, &total, &err)) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    return kExitToolError;
  }
  if (!report.quiet) {
    fmt::print(stderr, "{}: shard {}/{}: {} of {} test names\n", cmd, s.index, s.count, selected,
               total);
  }
  if (selected == 0) {
    report::Verdict none;
    return Report(cmd, {}, report, &none);
  }
  *go_args = std::move(args);
  return std::nullopt;
}

}  // namespace gordian::cli
