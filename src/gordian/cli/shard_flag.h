// This file owns the -shard I/N flag that gordian test and gordian fuzz
// share (driver/shard.h decides which tests a shard holds; docs/scale.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gordian/cli/reporting.h"

namespace gordian::cli {

// With shard "" nothing changes. Otherwise parses it (a usage error, exit
// 2, on a bad value), lists the tests of *go_args and rewrites *go_args to
// run only the shard's. Returns the exit status to return at once, or
// nullopt to go on: 2 when the tests cannot be listed; for a shard that
// holds no test, the empty report (written to --json and --sarif, so that
// gordian merge finds every shard's) and 0.
std::optional<int> ApplyShardFlag(const std::string& cmd, const std::string& shard,
                                  double wall_seconds, const ReportOptions& report,
                                  std::vector<std::string>* go_args);

}  // namespace gordian::cli
