// This file implements the whole-run timeline of a trace (timeline_of_trace.h).
#include "gordian/pipeline/timeline_of_trace.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include <fmt/format.h>

#include "gordian/detect/object_key.h"
#include "gordian/trace/kinds.h"

namespace gordian::pipeline {
namespace {

using trace::Kind;
using trace::Record;

// The records drawn: operations of a goroutine on something another
// goroutine sees. Test, program and watchdog records, goroutine starts and
// ends (the lane itself), and the select cases that were not chosen (their
// select is drawn) are left out.
bool Drawn(const Record& r) {
  switch (r.kind) {
    case Kind::None: case Kind::GoStart: case Kind::GoEnd: case Kind::TestStart:
    case Kind::TestEnd: case Kind::BlockedAtTestEnd: case Kind::GlobalDeadlock:
    case Kind::ProgramExit:
      return false;
    case Kind::SelectCase:
      return (r.flags & trace::kChosen) != 0;
    default:
      return trace::InfoOf(r.kind).name != nullptr;
  }
}

// An op code: the kind, and for a select case its direction (a case that
// sends is drawn as a send).
uint16_t OpCodeOf(const Record& r) {
  uint16_t code = static_cast<uint16_t>(r.kind) << 1;
  if (r.kind == Kind::SelectCase && (r.flags & trace::kDirSend)) code |= 1;
  return code;
}

const char* OpName(const Record& r) {
  if (r.kind == Kind::SelectCase) {
    return (r.flags & trace::kDirSend) ? "select case: send" : "select case: receive";
  }
  return trace::InfoOf(r.kind).op;
}

const char* OpRole(const Record& r) {
  switch (r.kind) {
    case Kind::ChanSend: return "send";
    case Kind::ChanRecv: return "recv";
    case Kind::SelectCase: return (r.flags & trace::kDirSend) ? "send" : "recv";
    case Kind::ChanClose: return "close";
    case Kind::MutexLock: case Kind::RWLock: case Kind::RLock: return "lock";
    case Kind::MutexUnlock: case Kind::RWUnlock: case Kind::RUnlock: return "unlock";
    case Kind::GoSpawn: return "spawn";
    case Kind::Panic: return "panic";
    default: return "other";
  }
}

std::string SiteLabel(const trace::Site& s) {
  if (s.file.empty()) return "";
  std::string l = fmt::format("{}:{}", s.file, s.line);
  if (!s.function.empty()) l += " " + s.function;
  return l;
}

}  // namespace

report::RunTimeline RunTimelineOf(const trace::Trace& t, const std::string& name,
                                  size_t max_ops) {
  report::RunTimeline tl;
  tl.name = name;
  // Where each goroutine was spawned: the GoSpawn record naming it.
  std::unordered_map<uint32_t, uint32_t> spawn_site;  // child gid -> site id
  for (const Record& r : t.records) {
    if (r.kind == Kind::GoSpawn) spawn_site.emplace(r.obj, r.site);
  }
  std::vector<uint32_t> lane_of(t.goroutines.size() + 1, 0);
  for (const trace::Goroutine& g : t.goroutines) {
    lane_of[g.gid] = static_cast<uint32_t>(tl.lanes.size());
    std::string function;
    for (const Record& r : t.RecordsOf(g)) {
      if (r.kind == Kind::GoStart) continue;  // its site is the go statement, in the parent
      const trace::Site& s = t.SiteOf(r);
      if (r.site != 0 && s.user && !s.function.empty()) {
        function = s.function;
        break;
      }
    }
    std::string label = g.stable_id.empty() ? fmt::format("gid {}", g.gid) : g.stable_id;
    if (!function.empty()) label += " " + function;
    if (g.gid == 1) {
      label += " (main goroutine)";
    } else if (auto it = spawn_site.find(g.gid); it != spawn_site.end() && it->second != 0 &&
                                                 it->second < t.sites.size()) {
      const trace::Site& s = t.sites[it->second];
      label += fmt::format(" (spawned at {}:{})", s.file, s.line);
    }
    tl.lanes.push_back(std::move(label));
  }
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < t.records.size(); i++) {
    if (Drawn(t.records[i])) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return t.records[a].tpre < t.records[b].tpre;
  });
  if (order.size() > max_ops) {
    tl.dropped = order.size() - max_ops;
    order.resize(max_ops);
  }
  // Records -> goroutine: records are grouped by goroutine.
  std::vector<uint32_t> gid_of_rec(t.records.size(), 0);
  for (const trace::Goroutine& g : t.goroutines) {
    std::fill(gid_of_rec.begin() + g.begin, gid_of_rec.begin() + g.end, g.gid);
  }
  std::unordered_map<uint16_t, uint16_t> op_code;  // OpCodeOf -> index into ops
  std::unordered_map<uint32_t, uint32_t> site_index;  // site id -> index into sites
  size_t n = order.size();
  tl.lane.reserve(n);
  tl.op.reserve(n);
  tl.site.reserve(n);
  tl.blocked.reserve(n);
  tl.object.reserve(n);
  tl.seq.reserve(n);
  for (uint32_t i : order) {
    const Record& r = t.records[i];
    tl.lane.push_back(lane_of[gid_of_rec[i]]);
    auto [oc, new_op] = op_code.emplace(OpCodeOf(r), static_cast<uint16_t>(tl.ops.size()));
    if (new_op) {
      tl.ops.push_back(OpName(r));
      tl.op_roles.push_back(OpRole(r));
    }
    tl.op.push_back(oc->second);
    auto [sc, new_site] = site_index.emplace(r.site, static_cast<uint32_t>(tl.sites.size()));
    if (new_site) tl.sites.push_back(r.site == 0 ? "" : SiteLabel(t.SiteOf(r)));
    tl.site.push_back(sc->second);
    tl.blocked.push_back(trace::IsBlocking(r.kind) && r.tpost == 0 ? 1 : 0);
    tl.object.push_back(detect::ObjectKeyOf(r));
    tl.seq.push_back(detect::ValueSeqOf(r));
  }
  return tl;
}

}  // namespace gordian::pipeline
