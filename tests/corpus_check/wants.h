// This file owns the `// want:` annotations of the corpus (docs/corpus.md)
// and the comparison of a program's wants with the findings gordian
// reported for it, by the checker rules of docs/corpus.md:
//   1. every want is matched: a finding of the same kind, compatible status
//      (occurred needs occurred; predicted accepts predicted or confirmed)
//      and, for goroutine-leak, the same primitive, with a location at the
//      want's line;
//   2. every finding of severity bug has a location on a line that carries a
//      want of the same kind;
//   3. a goroutine-leak or global-deadlock finding is also accounted for by a
//      double-lock, lock-order-deadlock or mixed-deadlock want on one of its
//      lines;
//   5. warnings and infos without wants are allowed;
//   6. correct programs have no finding of severity bug;
//   7. a `// nowant: Kind` comment forbids findings of that kind (any
//      severity) whose primary location is on its line: it pins a false
//      alarm that was fixed (a recv-on-closed warning on `case <-done:`).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gordian/report/finding.h"

namespace gordian::corpus {

struct Want {
  std::string file;  // base name, e.g. "main.go"
  uint32_t line = 0;
  report::FindingKind kind = report::FindingKind::Panic;
  report::Status status = report::Status::Occurred;
  report::Primitive primitive = report::Primitive::None;
  bool absent = false;  // a `nowant:`: no finding of kind may be located here (status unused)

  std::string String() const;  // "main.go:12 send-on-closed occurred"
};

// Parses the wants (and nowants, with absent set) of one file's text (name =
// its base name). Malformed annotations go to *problems.
void ParseWants(const std::string& name, const std::string& text, std::vector<Want>* out,
                std::vector<std::string>* problems);

struct CheckResult {
  std::vector<Want> matched;
  std::vector<Want> missed;
  std::vector<std::string> unexpected;  // bug findings no want accounts for, and
                                        // findings on a nowant line, described
  bool ok() const { return missed.empty() && unexpected.empty(); }
};

// Compares the findings of the program in directory prog_dir (its base
// name is matched as the path suffix "<prog_dir>/<file>") with its wants.
// A "predicted" want is met by a predicted or a confirmed finding; when
// must_confirm is given and says yes for the want's kind (the findings come
// from a run that confirms by replay, and that kind is replayed), only a
// confirmed finding meets it.
CheckResult Check(const std::string& prog_dir, const std::vector<Want>& wants,
                  const std::vector<report::Finding>& findings,
                  const std::function<bool(report::FindingKind)>& must_confirm = nullptr);

// "send-on-closed occurred at x/main.go:12 (+1 more location)"
std::string DescribeFinding(const report::Finding& f);

// A finding that claims a bug, whether or not a replay confirmed it: a bug,
// or a prediction of a bug kind that the report shows as a warning until a
// replay confirms it (report::SettleUnconfirmed). A correct program must
// have none.
bool ClaimsABug(const report::Finding& f);

}  // namespace gordian::corpus
