// This file owns merging the JSON reports of several runs (the shards of
// one suite: docs/scale.md) into one report for gordian merge. Findings
// are concatenated here and de-duplicated by the reporting that follows
// (dedup.h: the same key as within one run). A test or package seen in
// several reports is kept once with its worst outcome (a package ran in
// every shard, each with a part of its tests); the go command's failures
// and what the analyses dropped are kept from every report.
#pragma once

#include <vector>

#include "gordian/report/json.h"

namespace gordian::report {

// The reports as one; has_verdict (has_fuzz) when any report had one. The
// fuzz seed is the first report's (shards run with the same -seed agree).
JsonReport MergeReports(const std::vector<JsonReport>& reports);

}  // namespace gordian::report
