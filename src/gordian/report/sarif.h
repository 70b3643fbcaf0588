// This file writes findings as SARIF 2.1.0 (OASIS Static Analysis Results
// Interchange Format), for code scanning services:
//   runs[0].tool.driver: name, version and semanticVersion (the binary's,
//     util/version.h), one rule per finding kind (id = the
//     kind's name, shortDescription, fullDescription, default level);
//   results: ruleId/ruleIndex, level (bug: error, warning: warning, info:
//     note), message, locations (the primary location: uri relative to the
//     module root with uriBaseId SRCROOT, region startLine/startColumn),
//     relatedLocations (the other locations), codeFlows with one threadFlow
//     per goroutine whose steps carry a global executionOrder (the
//     interleaving), partialFingerprints (the de-duplication key), and
//     properties (status, test, primitive, goroutines);
//   runs[0].invocations[0].toolExecutionNotifications: one warning per
//     thing the analysis dropped to stay within its memory budget (only when
//     it dropped something).
#pragma once

#include <string>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/util/version.h"

namespace gordian::report {

struct SarifOptions {
  std::string tool_version{util::Version()};  // tool.driver.version
  std::string source_root;  // absolute directory for SRCROOT ("" = leave it undefined)
  std::vector<std::string> degraded;  // what the analysis dropped (memory budget)
};

std::string ToSarif(const std::vector<Finding>& findings, const SarifOptions& opt = {});
bool WriteSarifFile(const std::string& path, const std::vector<Finding>& findings,
                    const SarifOptions& opt, std::string* err);

}  // namespace gordian::report
