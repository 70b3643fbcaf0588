// This file implements the occurred cyclic deadlocks: goroutines blocked
// forever in a cycle of waits, read off the end of the trace.
//   lock-order-deadlock: G1 waits for a lock G2 holds while G2 waits for a
//     lock G1 holds (any cycle length; RWMutex readers count as holders of a
//     write Lock's lock);
//   mixed-deadlock: G holds lock m and is blocked forever on a channel
//     operation (or select), while H is blocked forever acquiring m and H is
//     the goroutine that could have completed G's operation: H used the
//     channel before, or G spawned H after making the channel (it handed the
//     channel over).
// The goroutines of a cycle are "explained": they are not also reported as
// leaks, and a global deadlock made of them alone is not reported either.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "gordian/detect/occurred/detectors.h"

namespace gordian::detect {
namespace {

bool IsLockWait(Kind k) {
  return k == Kind::MutexLock || k == Kind::RWLock || k == Kind::RLock;
}
bool IsChanWait(Kind k) {
  return k == Kind::ChanSend || k == Kind::ChanRecv || k == Kind::Select;
}

// The records holding the lock that the blocked record b waits for, other
// than b's own goroutine's.
std::vector<uint32_t> HoldersBlocking(const OccurredIndex& ix, uint32_t b) {
  const Record& r = ix.rec(b);
  LockHolders h = ix.HoldersAtEnd(ClassOf(r.kind), trace::ObjectIdOf(r));
  std::vector<uint32_t> out;
  if (h.writer != hb::kNoRecord) out.push_back(h.writer);
  if (r.kind == Kind::RWLock) out.insert(out.end(), h.readers.begin(), h.readers.end());
  std::erase_if(out, [&](uint32_t x) { return ix.GidOf(x) == ix.GidOf(b); });
  return out;
}

std::vector<ObjectId> ChannelsOf(const OccurredIndex& ix, uint32_t b) {
  const Record& r = ix.rec(b);
  if (r.kind != Kind::Select) return {trace::ObjectIdOf(r)};
  std::vector<ObjectId> out;
  for (uint32_t c : ix.CasesOf(b)) out.push_back(trace::ObjectIdOf(ix.rec(c)));
  return out;
}

// Could goroutine h have completed the channel wait of goroutine g on chan?
bool PlausiblePartner(const OccurredIndex& ix, Gid g, Gid h, ObjectId chan) {
  if (chan == ObjectId(0)) return false;
  uint32_t made_at = 0;
  for (uint32_t i : ix.OpsOf(ObjClass::Chan, chan)) {
    if (ix.GidOf(i) == h) return true;
    if (ix.rec(i).kind == Kind::ChanMake && ix.GidOf(i) == g) made_at = ix.rec(i).tpre;
  }
  uint32_t sp = ix.SpawnOfGid(h);
  return made_at != 0 && sp != hb::kNoRecord && ix.GidOf(sp) == g && ix.rec(sp).tpre > made_at;
}

}  // namespace

void DetectBlockedCycles(const OccurredIndex& ix, OccurredState* st, std::vector<Finding>* out) {
  // Forever-blocked goroutines not explained yet, by gid, with their op.
  std::map<Gid, uint32_t> blocked;
  for (const trace::Goroutine& gr : ix.trace().goroutines) {
    Gid g = trace::GidOf(gr);
    if (ix.BlockedForever(g) && !st->explained_blocked.count(g)) blocked[g] = ix.LastOp(g);
  }

  // Lock-order cycles: follow "waits for a lock held by" edges.
  std::map<Gid, std::vector<std::pair<Gid, uint32_t>>> waits;  // g -> (holder gid, holding rec)
  for (auto [g, op] : blocked) {
    if (!IsLockWait(ix.rec(op).kind)) continue;
    for (uint32_t h : HoldersBlocking(ix, op)) waits[g].push_back({ix.GidOf(h), h});
  }
  std::set<Gid> in_cycle;
  for (const auto& waiting : waits) {
    // A plain variable, not a structured binding: lambdas below capture it
    // (clang before 16 cannot capture bindings).
    const Gid start = waiting.first;
    if (in_cycle.count(start)) continue;
    // Depth-first search for a path back to start through blocked lockers.
    std::vector<std::pair<Gid, uint32_t>> path;  // (gid, holding rec of the next)
    std::set<Gid> seen;
    std::function<bool(Gid)> dfs = [&](Gid g) -> bool {
      auto it = waits.find(g);
      if (it == waits.end()) return false;
      for (auto [h, hold] : it->second) {
        path.push_back({g, hold});
        if (h == start) return true;
        if (!in_cycle.count(h) && seen.insert(h).second && dfs(h)) return true;
        path.pop_back();
      }
      return false;
    };
    if (!dfs(start) || path.size() < 2) continue;
    // Report from the goroutine with the smallest stable id.
    std::rotate(path.begin(),
                std::min_element(path.begin(), path.end(),
                                 [&](const auto& a, const auto& b) {
                                   return ix.StableId(a.first) < ix.StableId(b.first);
                                 }),
                path.end());
    Finding f = OccurredFinding(ix, FindingKind::LockOrderDeadlock, blocked[path[0].first]);
    std::string chain;
    for (auto [g, hold] : path) {
      uint32_t op = blocked[g];
      f.locations.push_back(ix.Loc(op, Role::Lock));
      chain += fmt::format("{}goroutine {} waits at {} for a lock goroutine {} took at {}",
                           chain.empty() ? "" : "; ", ix.StableId(g), ShortSite(ix, op),
                           ix.StableId(ix.GidOf(hold)), ShortSite(ix, hold));
    }
    for (auto [g, hold] : path) {
      f.locations.push_back(ix.Loc(hold, Role::Lock));
      f.interleaving.push_back(ix.StepOf(hold, Role::Lock, OpName(ix.rec(hold)) + ": acquired"));
      uint32_t op = blocked[g];
      f.interleaving.push_back(
          ix.StepOf(op, Role::Lock, OpName(ix.rec(op)) + ": blocks forever"));
      in_cycle.insert(g);
      st->explained_blocked.insert(g);
    }
    f.message = fmt::format("lock-order deadlock: {}", chain);
    FinishFinding(ix, &f);
    out->push_back(std::move(f));
  }

  // Mixed deadlocks: a channel wait under a lock that its partner waits for.
  for (const auto& blocked_at : blocked) {
    const Gid h = blocked_at.first;  // captured below: no structured binding
    const uint32_t hop = blocked_at.second;
    if (in_cycle.count(h) || !IsLockWait(ix.rec(hop).kind)) continue;
    for (uint32_t hold : HoldersBlocking(ix, hop)) {
      Gid g = ix.GidOf(hold);
      auto gi = blocked.find(g);
      if (gi == blocked.end() || in_cycle.count(g) || !IsChanWait(ix.rec(gi->second).kind)) {
        continue;
      }
      uint32_t gop = gi->second;
      std::vector<ObjectId> chans = ChannelsOf(ix, gop);
      if (!std::any_of(chans.begin(), chans.end(),
                       [&](ObjectId c) { return PlausiblePartner(ix, g, h, c); })) {
        continue;
      }
      const Record& gr = ix.rec(gop);
      Finding f = OccurredFinding(ix, FindingKind::MixedDeadlock, gop);
      f.message = fmt::format(
          "goroutine {} waits in a channel {} at {} while holding the lock it took at {}; "
          "goroutine {}, which would complete it, waits for that lock at {}",
          ix.StableId(g), gr.kind == Kind::Select ? "select" : OpName(gr), ShortSite(ix, gop),
          ShortSite(ix, hold), ix.StableId(h), ShortSite(ix, hop));
      f.locations.push_back(ix.Loc(gop, RoleOf(gr)));
      f.locations.push_back(ix.Loc(hop, Role::Lock));
      f.locations.push_back(ix.Loc(hold, Role::Lock));
      f.interleaving.push_back(ix.StepOf(hold, Role::Lock, OpName(ix.rec(hold)) + ": acquired"));
      f.interleaving.push_back(ix.StepOf(gop, RoleOf(gr), OpName(gr) + ": blocks forever"));
      f.interleaving.push_back(
          ix.StepOf(hop, Role::Lock, OpName(ix.rec(hop)) + ": blocks forever"));
      FinishFinding(ix, &f);
      out->push_back(std::move(f));
      in_cycle.insert(g);
      in_cycle.insert(h);
      st->explained_blocked.insert(g);
      st->explained_blocked.insert(h);
      break;
    }
  }
}

}  // namespace gordian::detect
