// This file implements the registry of rewrite plans: the rewrite column of
// report/finding_kinds.def, whose entries the detector files define.
#include "gordian/detect/rewrite_plan.h"

#include <iterator>

namespace gordian::detect {

#define GORDIAN_FINDING_KIND(Id, name, severity, shows, runtime_panic, rewrite, ...) extern const RewriteSpec rewrite;
#include "gordian/report/finding_kinds.def"
#undef GORDIAN_FINDING_KIND

extern const RewriteSpec kNoRewrite{};

const RewriteSpec& RewriteOf(report::FindingKind k) {
  static constexpr const RewriteSpec* kSpecs[] = {
#define GORDIAN_FINDING_KIND(Id, name, severity, shows, runtime_panic, rewrite, ...) &rewrite,
#include "gordian/report/finding_kinds.def"
#undef GORDIAN_FINDING_KIND
  };
  static_assert(std::size(kSpecs) == static_cast<size_t>(report::FindingKind::Count_));
  size_t i = static_cast<size_t>(k);
  return i < std::size(kSpecs) ? *kSpecs[i] : kNoRewrite;
}

BugOp ChanBugOp(const trace::Trace& t, const hb::OpIndex& ops, trace::RecordId r, Expect expect,
                bool check) {
  BugOp b{ops.Owner(r), kChoiceRecorded, expect, check};
  if (t.records[r].kind == trace::Kind::SelectCase) {
    b.choice = static_cast<int32_t>(t.records[r].aux);
    if (expect == Expect::Closed) b.expect = Expect::SelectCaseClosed;
  }
  return b;
}

}  // namespace gordian::detect
