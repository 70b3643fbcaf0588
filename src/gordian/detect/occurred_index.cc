// This file implements OccurredIndex (occurred_index.h).
#include "gordian/detect/occurred_index.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "gordian/detect/object_key.h"

namespace gordian::detect {

using trace::Kind;
using trace::Record;

namespace {
std::unique_ptr<hb::OpIndex> IndexTrace(const trace::Trace& t) {
  auto ix = std::make_unique<hb::OpIndex>();
  ix->Build(t);
  return ix;
}
}  // namespace

OccurredIndex::OccurredIndex(const trace::Trace& t) : own_(IndexTrace(t)), ops_(*own_), t_(t) {}

std::string OccurredIndex::StableId(Gid gid) const {
  const trace::Goroutine* g = t_.FindGoroutine(trace::Value(gid));
  if (g != nullptr && !g->stable_id.empty()) return g->stable_id;
  return fmt::format("g{}", trace::Value(gid));
}

Gid OccurredIndex::GidOfStableId(const std::string& id) const {
  if (gid_by_id_.empty()) {
    gid_by_id_.reserve(t_.goroutines.size());
    for (const trace::Goroutine& g : t_.goroutines) {
      gid_by_id_.insert_or_assign(StableId(trace::GidOf(g)), trace::GidOf(g));
    }
  }
  auto it = gid_by_id_.find(id);
  return it != gid_by_id_.end() ? it->second : trace::kNoGid;
}

const trace::Site& OccurredIndex::SiteOf(RecordId rec) const {
  static const trace::Site kUnknown;
  uint32_t site = t_.records[rec].site;
  return site < t_.sites.size() ? t_.sites[site] : kUnknown;
}

bool OccurredIndex::IsUser(RecordId rec) const {
  const Record& r = t_.records[rec];
  return r.site != 0 && r.site < t_.sites.size() && t_.sites[r.site].user;
}

RecordId OccurredIndex::LastOp(Gid gid) const {
  const trace::Goroutine* g = t_.FindGoroutine(trace::Value(gid));
  if (g == nullptr) return hb::kNoRecord;
  for (uint32_t i = g->end; i > g->begin; i--) {
    Kind k = t_.records[i - 1].kind;
    if (k != Kind::SelectCase) return i - 1;
  }
  return hb::kNoRecord;
}

bool OccurredIndex::BlockedForever(Gid gid) const {
  uint32_t last = LastOp(gid);
  if (last == hb::kNoRecord) return false;
  const Record& r = t_.records[last];
  return trace::IsBlocking(r.kind) && r.tpost == 0;
}

std::vector<RecordId> OccurredIndex::CasesOf(RecordId select_rec) const {
  std::vector<uint32_t> out;
  const trace::Goroutine* g = t_.FindGoroutine(trace::Value(GidOf(select_rec)));
  uint32_t end = g != nullptr ? g->end : size();
  for (uint32_t i = select_rec + 1; i < end && t_.records[i].kind == Kind::SelectCase; i++) {
    out.push_back(i);
  }
  return out;
}

std::string OccurredIndex::Where(RecordId rec) const {
  const trace::Site& s = SiteOf(rec);
  if (s.file.empty()) return "an unknown place";
  return fmt::format("{}:{}", s.file, s.line);
}

std::string OccurredIndex::DescribeChan(ObjectId chan) const {
  if (chan == ObjectId(0)) return "a nil channel";
  // The index knows the make; OpsOf would sort every object's operations by
  // stamp for it (2 s on a 4M-record trace, for the message of one finding).
  if (uint32_t d = ops_.Dense(ObjClass::Chan, chan); d != hb::kNoObject) {
    uint32_t m = ops_.Channel(d).make_rec;
    if (m != hb::kNoRecord && t_.records[m].site != 0) {
      return "the channel made at " + ShortSite(*this, m);
    }
  }
  for (uint32_t i : OpsOf(ObjClass::Chan, chan)) {
    const Record& r = t_.records[i];
    if (r.kind == Kind::ChanMake && r.site != 0) {
      return "the channel made at " + ShortSite(*this, i);
    }
  }
  return "a channel";
}

std::string_view OccurredIndex::String(uint32_t id) const {
  return id < t_.strings.size() ? std::string_view(t_.strings[id]) : std::string_view();
}

LockHolders OccurredIndex::HoldersAtEnd(ObjClass f, ObjectId obj) const {
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
        h.writer = hb::kNoRecord;
        break;
      case Kind::RUnlock: {
        // Release the read lock of the same goroutine if there is one, else
        // the oldest (RUnlock is not owned either).
        Gid gid = GidOf(i);
        auto it = std::find_if(h.readers.begin(), h.readers.end(),
                               [&](uint32_t x) { return GidOf(x) == gid; });
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

report::Location OccurredIndex::Loc(RecordId rec, report::Role role) const {
  const Record& r = t_.records[rec];
  const trace::Site& s = SiteOf(rec);
  report::Location l;
  l.file = s.file;
  l.line = s.line;
  l.column = s.column;
  l.role = role;
  l.goroutine = StableId(GidOf(rec));
  l.function = s.function;
  l.tpre = r.tpre;
  l.tpost = r.tpost;
  if (r.kind == trace::Kind::SelectCase) l.select_case = r.aux;  // which case: the report reads it
  return l;
}

report::Step OccurredIndex::StepOf(RecordId rec, report::Role role, std::string what) const {
  report::Step st{Loc(rec, role), std::move(what)};
  st.object = ObjectKeyOf(t_.records[rec]);
  st.seq = ValueSeqOf(t_.records[rec]);
  const Record& r = t_.records[rec];
  st.blocks = trace::IsBlocking(r.kind) && r.tpost == 0;
  st.record = rec;
  return st;
}

report::GoroutineInfo OccurredIndex::GoroutineInfoOf(Gid gid) const {
  report::GoroutineInfo gi;
  gi.id = StableId(gid);
  uint32_t sp = SpawnOfGid(gid);
  if (sp != hb::kNoRecord) {
    const trace::Site& s = SiteOf(sp);
    gi.spawn_file = s.file;
    gi.spawn_line = s.line;
  }
  // Started by the testing package or the runtime: say what it is instead.
  if (sp != hb::kNoRecord && !IsUser(sp)) {
    gi.spawn_file.clear();
    gi.spawn_line = 0;
  }
  // The goroutine's function: its GoStart site's function when that is user
  // code, else the test it runs, else the function of its first user record.
  // (The main goroutine runs main.main, or the testing package's main.)
  if (const trace::Goroutine* g = t_.FindGoroutine(trace::Value(gid));
      g != nullptr && gid != Gid(1)) {
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

std::string ShortSite(const OccurredIndex& ix, trace::RecordId rec) {
  const trace::Site& s = ix.SiteOf(rec);
  return fmt::format("{}:{}", BaseName(s.file), s.line);
}

void FinishFinding(const OccurredIndex& ix, report::Finding* f) {
  // An operation is listed where it took effect: a completed blocking
  // operation at its completion (a receive that waited and then saw the
  // close comes after that close, though it started waiting before it), one
  // that never completed where it started to block.
  auto effect = [](const report::Step& s) { return s.loc.tpost != 0 ? s.loc.tpost : s.loc.tpre; };
  std::stable_sort(f->interleaving.begin(), f->interleaving.end(),
                   [&](const report::Step& a, const report::Step& b) {
                     return effect(a) < effect(b);
                   });
  // The other side of each communication among the steps, for the HTML
  // timeline's send->receive arrows.
  std::set<uint32_t> have;
  for (const report::Step& s : f->interleaving) have.insert(s.record);
  for (const report::Step& s : f->interleaving) {
    if (s.record == report::kNoTraceRecord) continue;
    uint32_t p = ix.ops().Partner(s.record);
    if (p == hb::kNoRecord || !have.insert(p).second) continue;
    f->context.push_back(ix.StepOf(p, RoleOf(ix.rec(p)), OpName(ix.rec(p))));
  }
  FillGoroutines(ix, f);
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
  for (const report::Step& s : f->context) add(s.loc.goroutine);
  for (const std::string& id : ids) {
    if (Gid gid = ix.GidOfStableId(id); gid != trace::kNoGid) {
      f->goroutines.push_back(ix.GoroutineInfoOf(gid));
    } else {
      f->goroutines.push_back(report::GoroutineInfo{id, "", 0, "", ""});
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
