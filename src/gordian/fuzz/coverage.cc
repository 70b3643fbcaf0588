// This file implements the coverage signal (coverage.h).
#include "gordian/fuzz/coverage.h"

#include <algorithm>
#include <functional>
#include <string>

#include <fmt/format.h>

#include "gordian/schedule/from_trace.h"

namespace gordian::fuzz {

using trace::Kind;
using trace::ObjClass;

namespace {

// Signals of different sorts never collide on the same text: each starts
// with its sort's letter.
uint64_t Hash(const std::string& s) { return std::hash<std::string>{}(s); }

// The operations on an object that take effect: not the make, not the
// cases a select did not choose.
bool Effective(const trace::Trace& t, const hb::OpIndex& ops, uint32_t r) {
  const trace::Record& rec = t.records[r];
  if (rec.kind == Kind::ChanMake) return false;
  if (rec.kind == Kind::SelectCase) return ops.ChosenCase(ops.Owner(r)) == r;
  return rec.tpost != 0 || rec.kind == Kind::ChanClose;
}

}  // namespace

RunSignals SignalsOf(const trace::Trace& t, const hb::OpIndex& ops) {
  RunSignals s;
  for (int c = 0; c < trace::kNumObjClasses; c++) {
    ObjClass cls = static_cast<ObjClass>(c);
    for (uint32_t o = 0; o < ops.Count(cls); o++) {
      std::vector<uint32_t> recs;
      for (uint32_t r : ops.Ops(cls, o)) {
        if (Effective(t, ops, r)) recs.push_back(r);
      }
      // The order they took effect in (schedule/from_trace.h).
      std::sort(recs.begin(), recs.end(), [&](uint32_t a, uint32_t b) {
        return schedule::OrderKey(t.records[a]) < schedule::OrderKey(t.records[b]);
      });
      for (size_t i = 1; i < recs.size(); i++) {
        if (ops.GidOf(recs[i - 1]) == ops.GidOf(recs[i])) continue;
        const trace::Record& a = t.records[recs[i - 1]];
        const trace::Record& b = t.records[recs[i]];
        s.pairs.push_back(Hash(fmt::format("p{}:{} {}:{}", int(a.kind),
                                           schedule::SiteText(t, a), int(b.kind),
                                           schedule::SiteText(t, b))));
      }
    }
  }
  std::vector<std::string> blocked;
  for (uint32_t r = 0; r < t.records.size(); r++) {
    const trace::Record& rec = t.records[r];
    if (rec.kind == Kind::Select && rec.tpost != 0) {
      std::string c = rec.val == trace::kDefaultCase ? "d" : std::to_string(rec.val);
      s.selects.push_back(Hash(fmt::format("s{} {}", schedule::SiteText(t, rec), c)));
    }
    if (rec.tpost == 0 && trace::InfoOf(rec.kind).blocking && ops.GidOf(r) != trace::kNoGid) {
      blocked.push_back(fmt::format("{}:{}", int(rec.kind), schedule::SiteText(t, rec)));
    }
  }
  if (!blocked.empty()) {
    std::sort(blocked.begin(), blocked.end());
    blocked.erase(std::unique(blocked.begin(), blocked.end()), blocked.end());
    std::string all = "b";
    for (const std::string& b : blocked) all += b + ";";
    s.blocked = Hash(all);
  }
  return s;
}

size_t Coverage::Add(const RunSignals& s) {
  size_t added = 0;
  for (uint64_t h : s.pairs) added += seen_.insert(h).second;
  for (uint64_t h : s.selects) added += seen_.insert(h).second;
  if (s.blocked != 0) added += seen_.insert(s.blocked).second;
  return added;
}

}  // namespace gordian::fuzz
