// This file implements OccurredIndex (occurred_index.h).
#include "gordian/detect/occurred_index.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace gordian::detect {

using trace::Kind;
using trace::Record;

OccurredIndex::OccurredIndex(const trace::Trace& t) : t_(t) {
  const uint32_t n = size();
  gid_of_.assign(n, 0);
  const uint32_t ng = static_cast<uint32_t>(t.goroutines.size());
  spawn_of_.assign(ng + 1, UINT32_MAX);
  for (const trace::Goroutine& g : t.goroutines) {
    for (uint32_t i = g.begin; i < g.end && i < n; i++) gid_of_[i] = g.gid;
  }

  std::map<uint32_t, size_t> test_pos;  // test index -> tests_ position
  for (uint32_t i = 0; i < n; i++) {
    const Record& r = t.records[i];
    ObjClass f = ClassOf(r.kind);
    if (f != ObjClass::None) ops_[{f, r.obj}].push_back(i);
    switch (r.kind) {
      case Kind::GoSpawn:
        if (r.obj >= 1 && r.obj <= ng) spawn_of_[r.obj] = i;
        break;
      case Kind::ProgramExit:
        exit_rec_ = i;  // the last one, should a trace hold several
        break;
      case Kind::TestStart: {
        TestInfo ti;
        ti.index = r.obj;
        ti.name = std::string(String(r.val));
        ti.gid = gid_of_[i];
        ti.start = r.tpre;
        test_pos[r.obj] = tests_.size();
        tests_.push_back(std::move(ti));
        break;
      }
      default:
        break;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    const Record& r = t.records[i];
    if (r.kind != Kind::TestEnd) continue;
    auto it = test_pos.find(r.obj);
    if (it == test_pos.end()) continue;
    tests_[it->second].end = r.tpre;
    tests_[it->second].failed = (r.flags & trace::kFailed) != 0;
  }
  for (auto& [key, ops] : ops_) {
    std::stable_sort(ops.begin(), ops.end(), [&](uint32_t a, uint32_t b) {
      return t.records[a].tpre < t.records[b].tpre;
    });
  }

  // A goroutine belongs to the test it started (exactly one TestStart), or
  // else to the test of its nearest ancestor; -2 marks "ambiguous: decide by
  // time window", -3 "outside every test": its spawn chain reaches the main
  // goroutine without a TestStart (TestMain, init, an Example function, which
  // runs on the main goroutine). Only a chain that breaks off (a goroutine
  // the runtime started) is left to the time window (-1).
  test_of_gid_.assign(ng + 1, -1);
  std::vector<int> starts(ng + 1, 0);
  std::vector<int32_t> own(ng + 1, -1);
  for (size_t k = 0; k < tests_.size(); k++) {
    uint32_t g = tests_[k].gid;
    if (g <= ng) {
      starts[g]++;
      own[g] = static_cast<int32_t>(k);
    }
  }
  for (uint32_t g = 1; g <= ng; g++) {
    // Walk up the spawn tree (bounded, in case of a corrupt cycle).
    uint32_t cur = g;
    int32_t found = -1;
    for (int depth = 0; cur != 0 && cur <= ng && depth < 10000; depth++) {
      if (starts[cur] == 1) {
        found = own[cur];
        break;
      }
      if (starts[cur] > 1) {
        found = -2;
        break;
      }
      if (cur == 1) {
        found = -3;
        break;
      }
      cur = t.goroutines[cur - 1].parent;
    }
    test_of_gid_[g] = found;
  }
}

std::string OccurredIndex::StableId(uint32_t gid) const {
  const trace::Goroutine* g = t_.FindGoroutine(gid);
  if (g != nullptr && !g->stable_id.empty()) return g->stable_id;
  return fmt::format("g{}", gid);
}

const trace::Site& OccurredIndex::SiteOf(uint32_t rec) const {
  static const trace::Site kUnknown;
  uint32_t site = t_.records[rec].site;
  return site < t_.sites.size() ? t_.sites[site] : kUnknown;
}

bool OccurredIndex::IsUser(uint32_t rec) const {
  const Record& r = t_.records[rec];
  return r.site != 0 && r.site < t_.sites.size() && t_.sites[r.site].user;
}

uint32_t OccurredIndex::LastOp(uint32_t gid) const {
  const trace::Goroutine* g = t_.FindGoroutine(gid);
  if (g == nullptr) return UINT32_MAX;
  for (uint32_t i = g->end; i > g->begin; i--) {
    Kind k = t_.records[i - 1].kind;
    if (k != Kind::SelectCase) return i - 1;
  }
  return UINT32_MAX;
}

bool OccurredIndex::BlockedForever(uint32_t gid) const {
  uint32_t last = LastOp(gid);
  if (last == UINT32_MAX) return false;
  const Record& r = t_.records[last];
  return trace::IsBlocking(r.kind) && r.tpost == 0;
}

const std::vector<uint32_t>& OccurredIndex::OpsOf(ObjClass f, uint32_t obj) const {
  static const std::vector<uint32_t> kEmpty;
  auto it = ops_.find({f, obj});
  return it == ops_.end() ? kEmpty : it->second;
}

uint32_t OccurredIndex::SelectOf(uint32_t case_rec) const {
  uint32_t gid = gid_of_[case_rec];
  const trace::Goroutine* g = t_.FindGoroutine(gid);
  uint32_t begin = g != nullptr ? g->begin : 0;
  for (uint32_t i = case_rec; i > begin; i--) {
    Kind k = t_.records[i - 1].kind;
    if (k == Kind::Select) return i - 1;
    if (k != Kind::SelectCase) break;
  }
  return UINT32_MAX;
}

std::vector<uint32_t> OccurredIndex::CasesOf(uint32_t select_rec) const {
  std::vector<uint32_t> out;
  uint32_t gid = gid_of_[select_rec];
  const trace::Goroutine* g = t_.FindGoroutine(gid);
  uint32_t end = g != nullptr ? g->end : size();
  for (uint32_t i = select_rec + 1; i < end && t_.records[i].kind == Kind::SelectCase; i++) {
    out.push_back(i);
  }
  return out;
}

const TestInfo* OccurredIndex::TestByIndex(uint32_t index) const {
  for (const TestInfo& ti : tests_) {
    if (ti.index == index) return &ti;
  }
  return nullptr;
}

std::string OccurredIndex::TestOfGoroutine(uint32_t gid, uint32_t stamp) const {
  if (gid < test_of_gid_.size() && test_of_gid_[gid] >= 0) {
    return tests_[static_cast<size_t>(test_of_gid_[gid])].name;
  }
  if (gid < test_of_gid_.size() && test_of_gid_[gid] == -3) return "";
  // Ambiguous or unknown: the innermost test whose window holds the stamp.
  const TestInfo* best = nullptr;
  for (const TestInfo& ti : tests_) {
    if (ti.start <= stamp && stamp <= ti.end && (best == nullptr || ti.start > best->start)) {
      best = &ti;
    }
  }
  return best != nullptr ? best->name : "";
}

std::string OccurredIndex::TestOf(uint32_t rec) const {
  return TestOfGoroutine(gid_of_[rec], t_.records[rec].tpre);
}

uint32_t OccurredIndex::SpawnOf(uint32_t gid) const {
  return gid < spawn_of_.size() ? spawn_of_[gid] : UINT32_MAX;
}

std::string OccurredIndex::Where(uint32_t rec) const {
  const trace::Site& s = SiteOf(rec);
  if (s.file.empty()) return "an unknown place";
  return fmt::format("{}:{}", s.file, s.line);
}

std::string OccurredIndex::DescribeChan(uint32_t chan) const {
  if (chan == 0) return "a nil channel";
  for (uint32_t i : OpsOf(ObjClass::Chan, chan)) {
    const Record& r = t_.records[i];
    if (r.kind == Kind::ChanMake && r.site != 0) {
      const trace::Site& s = SiteOf(i);
      return fmt::format("the channel made at {}:{}", BaseName(s.file), s.line);
    }
  }
  return "a channel";
}

std::string_view OccurredIndex::String(uint32_t id) const {
  return id < t_.strings.size() ? std::string_view(t_.strings[id]) : std::string_view();
}

LockHolders OccurredIndex::HoldersAtEnd(ObjClass f, uint32_t obj) const {
  // Acquisitions count at tpost (when the lock was obtained), releases at
  // their single stamp.
  std::vector<std::pair<uint32_t, uint32_t>> events;  // (stamp, record)
  for (uint32_t i : OpsOf(f, obj)) {
    const Record& r = t_.records[i];
    switch (r.kind) {
      case Kind::MutexLock: case Kind::RWLock: case Kind::RLock:
        if (r.tpost != 0) events.push_back({r.tpost, i});
        break;
      case Kind::MutexTryLock: case Kind::RWTryLock: case Kind::RWTryRLock:
        if (r.tpost != 0 && (r.flags & trace::kSuccess)) events.push_back({r.tpost, i});
        break;
      case Kind::MutexUnlock: case Kind::RWUnlock: case Kind::RUnlock:
        if (!(r.flags & trace::kFailed)) events.push_back({r.tpre, i});
        break;
      default:
        break;
    }
  }
  std::stable_sort(events.begin(), events.end());
  LockHolders h;
  for (auto [stamp, i] : events) {
    const Record& r = t_.records[i];
    switch (r.kind) {
      case Kind::MutexLock: case Kind::RWLock: case Kind::MutexTryLock: case Kind::RWTryLock:
        h.writer = i;
        break;
      case Kind::RLock: case Kind::RWTryRLock:
        h.readers.push_back(i);
        break;
      case Kind::MutexUnlock: case Kind::RWUnlock:
        h.writer = UINT32_MAX;
        break;
      case Kind::RUnlock: {
        // Release the read lock of the same goroutine if there is one, else
        // the oldest (RUnlock is not owned either).
        uint32_t gid = gid_of_[i];
        auto it = std::find_if(h.readers.begin(), h.readers.end(),
                               [&](uint32_t x) { return gid_of_[x] == gid; });
        if (it == h.readers.end()) it = h.readers.begin();
        if (it != h.readers.end()) h.readers.erase(it);
        break;
      }
      default:
        break;
    }
  }
  return h;
}

report::Location OccurredIndex::Loc(uint32_t rec, report::Role role) const {
  const Record& r = t_.records[rec];
  const trace::Site& s = SiteOf(rec);
  report::Location l;
  l.file = s.file;
  l.line = s.line;
  l.column = s.column;
  l.role = role;
  l.goroutine = StableId(gid_of_[rec]);
  l.function = s.function;
  l.tpre = r.tpre;
  l.tpost = r.tpost;
  if (r.kind == trace::Kind::SelectCase) l.select_case = r.aux;  // which case: the report reads it
  return l;
}

report::Step OccurredIndex::StepOf(uint32_t rec, report::Role role, std::string what) const {
  return report::Step{Loc(rec, role), std::move(what)};
}

report::GoroutineInfo OccurredIndex::GoroutineOf(uint32_t gid) const {
  report::GoroutineInfo gi;
  gi.id = StableId(gid);
  uint32_t sp = SpawnOf(gid);
  if (sp != UINT32_MAX) {
    const trace::Site& s = SiteOf(sp);
    gi.spawn_file = s.file;
    gi.spawn_line = s.line;
  }
  // Started by the testing package or the runtime: say what it is instead.
  if (sp != UINT32_MAX && !IsUser(sp)) {
    gi.spawn_file.clear();
    gi.spawn_line = 0;
  }
  // The goroutine's function: its GoStart site's function when that is user
  // code, else the test it runs, else the function of its first user record.
  // (The main goroutine runs main.main, or the testing package's main.)
  if (const trace::Goroutine* g = t_.FindGoroutine(gid); g != nullptr && gid != 1) {
    for (uint32_t i = g->begin; i < g->end; i++) {
      const Record& r = t_.records[i];
      // (go x.f(a) runs a compiler wrapper "...gowrapN": skip to x.f's own records)
      if (r.kind == Kind::GoStart && IsUser(i) && !SiteOf(i).function.empty() &&
          SiteOf(i).function.find(".gowrap") == std::string::npos) {
        gi.function = SiteOf(i).function;
        break;
      }
      if (r.kind == Kind::TestStart) {
        gi.function = fmt::format("test {}", String(r.val));
        break;
      }
      const trace::Site& s = SiteOf(i);
      if (!s.function.empty() && s.user) {
        gi.function = s.function;
        break;
      }
    }
  }
  return gi;
}

std::string BaseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

void FinishFinding(const OccurredIndex& ix, report::Finding* f) {
  FillGoroutines(ix, f);
  // An operation is listed where it took effect: a completed blocking
  // operation at its completion (a receive that waited and then saw the
  // close comes after that close, though it started waiting before it), one
  // that never completed where it started to block.
  auto effect = [](const report::Step& s) { return s.loc.tpost != 0 ? s.loc.tpost : s.loc.tpre; };
  std::stable_sort(f->interleaving.begin(), f->interleaving.end(),
                   [&](const report::Step& a, const report::Step& b) {
                     return effect(a) < effect(b);
                   });
}

void FillGoroutines(const OccurredIndex& ix, report::Finding* f) {
  std::set<std::string> seen;
  for (const report::GoroutineInfo& g : f->goroutines) seen.insert(g.id);
  std::vector<std::string> ids;
  auto add = [&](const std::string& id) {
    if (!id.empty() && seen.insert(id).second) ids.push_back(id);
  };
  for (const report::Location& l : f->locations) add(l.goroutine);
  for (const report::Step& s : f->interleaving) add(s.loc.goroutine);
  std::map<std::string, uint32_t> gid_by_id;
  for (const trace::Goroutine& g : ix.trace().goroutines) gid_by_id[ix.StableId(g.gid)] = g.gid;
  for (const std::string& id : ids) {
    auto it = gid_by_id.find(id);
    if (it != gid_by_id.end()) {
      f->goroutines.push_back(ix.GoroutineOf(it->second));
    } else {
      f->goroutines.push_back(report::GoroutineInfo{id, "", 0, ""});
    }
  }
}

report::Role RoleOf(const Record& r) {
  using report::Role;
  switch (r.kind) {
    case Kind::GoSpawn: return Role::Spawn;
    case Kind::ChanMake: return Role::Make;
    case Kind::ChanSend: return Role::Send;
    case Kind::ChanRecv: return Role::Recv;
    case Kind::ChanClose: return Role::Close;
    case Kind::Select: return Role::Select;
    case Kind::SelectCase: return (r.flags & trace::kDirSend) ? Role::Send : Role::Recv;
    case Kind::MutexLock: case Kind::MutexTryLock: case Kind::RWLock: case Kind::RLock:
    case Kind::RWTryLock: case Kind::RWTryRLock:
      return Role::Lock;
    case Kind::MutexUnlock: case Kind::RWUnlock: case Kind::RUnlock:
      return Role::Unlock;
    case Kind::WgAdd:
      return static_cast<int32_t>(r.val) < 0 ? Role::Done : Role::Add;
    case Kind::WgWait: case Kind::CondWait: case Kind::OnceDo:
      return Role::Wait;
    case Kind::Panic:
      return Role::Panic;
    default:
      return Role::Send;
  }
}

std::string OpName(const Record& r) {
  switch (r.kind) {  // the kinds whose name depends on the record
    case Kind::ChanMake: return fmt::format("make(chan, {})", r.val);
    case Kind::ChanSend: return r.obj == 0 ? "send on nil channel" : "send";
    case Kind::ChanRecv: return r.obj == 0 ? "receive from nil channel" : "receive";
    case Kind::SelectCase:
      return (r.flags & trace::kDirSend) ? "select case: send" : "select case: receive";
    case Kind::WgAdd: {
      int32_t d = static_cast<int32_t>(r.val);
      return d == -1 ? "WaitGroup.Done" : fmt::format("WaitGroup.Add({})", d);
    }
    default: return trace::InfoOf(r.kind).op;  // "operation" for bytes that are no kind
  }
}

}  // namespace gordian::detect
