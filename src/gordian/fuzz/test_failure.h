// This file declares what the campaign keeps of a run whose test failed
// with no concurrency finding to explain it (a t.Fatal on a value, a panic
// of the test's own): the few lines of go test's output that say why, so
// that the failure is reported once per campaign, with its reason, however
// many runs show it.
#pragma once

#include <cstddef>
#include <string>

namespace gordian::fuzz {

// The lines of go test's output about test's failure: its "--- FAIL: test"
// line and the indented lines under it (t.Error and t.Log output,
// subtests), then a "panic:" line that follows, at most max_lines in all,
// joined by '\n'. "" when the output has no such line.
std::string FailureExcerpt(const std::string& output, const std::string& test,
                           size_t max_lines = 8);

}  // namespace gordian::fuzz
