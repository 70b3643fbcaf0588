// This file implements the occurred detectors for misused sync primitives:
// negative-waitgroup (Add or Done drove the counter below zero: a panic, a
// warning when it was recovered, recovered.cc) and unlock-of-unlocked
// (Unlock or RUnlock of a lock not held: a fatal error, never recovered).
// The recorder flags the failing call with kFailed; the other locations are
// the operations on the same object that led there.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "gordian/detect/occurred/detectors.h"

namespace gordian::detect {
namespace {

constexpr size_t kMaxOtherLocations = 4;
constexpr size_t kMaxSteps = 8;

Finding Make(const OccurredIndex& ix, FindingKind kind, uint32_t rec) {
  Finding f = OccurredFinding(ix, kind, rec);
  f.locations.push_back(ix.Loc(rec, RoleOf(ix.rec(rec))));
  return f;
}

// Adds the operations on the failing record's object that came before it:
// the latest few as steps, and one location per distinct (role, site) other
// than the failing one's.
void AddHistory(const OccurredIndex& ix, uint32_t failing, const std::string& what,
                Finding* f) {
  const Record& fr = ix.rec(failing);
  const auto& ops = ix.OpsOf(ClassOf(fr.kind), trace::ObjectIdOf(fr));
  std::vector<uint32_t> before;
  for (uint32_t i : ops) {
    if (i == failing) break;
    before.push_back(i);
  }
  size_t first = before.size() > kMaxSteps - 1 ? before.size() - (kMaxSteps - 1) : 0;
  for (size_t k = first; k < before.size(); k++) {
    f->interleaving.push_back(ix.StepOf(before[k], RoleOf(ix.rec(before[k])),
                                        OpName(ix.rec(before[k]))));
  }
  f->interleaving.push_back(ix.StepOf(failing, RoleOf(fr), what));

  std::set<std::tuple<int, uint32_t>> seen;  // (role, site)
  seen.insert({static_cast<int>(RoleOf(fr)), fr.site});
  for (auto it = before.rbegin(); it != before.rend(); ++it) {
    if (f->locations.size() > kMaxOtherLocations) break;
    const Record& r = ix.rec(*it);
    Role role = RoleOf(r);
    if (!seen.insert({static_cast<int>(role), r.site}).second) continue;
    f->locations.push_back(ix.Loc(*it, role));
  }
}

}  // namespace

void DetectSyncMisuse(const OccurredIndex& ix, OccurredState* st, std::vector<Finding>* out) {
  for (uint32_t i = 0; i < ix.size(); i++) {
    const Record& r = ix.rec(i);
    if (!(r.flags & trace::kFailed)) continue;
    std::string g = ix.StableId(ix.GidOf(i));
    if (r.kind == Kind::WgAdd) {
      int32_t delta = static_cast<int32_t>(r.val);
      int32_t after = static_cast<int16_t>(r.aux);
      Finding f = Make(ix, FindingKind::NegativeWaitGroup, i);
      std::string call = delta == -1 ? "Done" : fmt::format("Add({})", delta);
      f.message = fmt::format(
          "goroutine {} called WaitGroup.{} when the counter was {}, making it {}; "
          "the call panics",
          g, call, after - delta, after);
      AddHistory(ix, i, fmt::format("WaitGroup.{}: counter {} < 0, panic", call, after), &f);
      SettlePanic(ix, i, st, &f);
      FinishFinding(ix, &f);
      out->push_back(std::move(f));
    } else if (r.kind == Kind::MutexUnlock || r.kind == Kind::RWUnlock ||
               r.kind == Kind::RUnlock) {
      Finding f = Make(ix, FindingKind::UnlockOfUnlocked, i);
      const char* what = r.kind == Kind::RUnlock ? "RUnlock of an RWMutex that was not read-locked"
                         : r.kind == Kind::RWUnlock ? "Unlock of an RWMutex that was not locked"
                                                    : "Unlock of a Mutex that was not locked";
      f.message = fmt::format("goroutine {} called {}; this is a fatal error", g, what);
      AddHistory(ix, i, fmt::format("{}: fatal error", OpName(r)), &f);
      FinishFinding(ix, &f);
      out->push_back(std::move(f));
      st->crash_stamp = std::min(st->crash_stamp, r.tpre);
    }
  }
}

}  // namespace gordian::detect
