// This file owns de-duplication and ordering of findings. One bug seen by
// several goroutines, loop iterations or tests is reported once:
//   key = kind + primary site + the roles and sites of the other locations
//         (for goroutine-leak: kind + primitive + primary site, since the
//         partners differ from one leaked goroutine to the next).
// Merging keeps the strongest status (occurred > confirmed > predicted >
// unconfirmed), unions the goroutines and the locations at new sites, and
// counts the occurrences. A predicted finding whose kind and primary site
// also occurred (or was confirmed) adds nothing and is merged into it.
// The result is sorted by file, line, kind (then column, message).
#pragma once

#include <string>
#include <vector>

#include "gordian/report/finding.h"

namespace gordian::report {

std::string DedupKey(const Finding& f);
void Dedup(std::vector<Finding>* findings);
void SortFindings(std::vector<Finding>* findings);

// One deadlock, one finding: a global-deadlock that blocks the same
// operations as a more specific deadlock of the same test (mixed-deadlock,
// lock-order-deadlock, double-lock), or that the same replay showed, is
// folded into that one, which names it under `also` (Dedup calls it).
void MergeDeadlockKinds(std::vector<Finding>* findings);

}  // namespace gordian::report
