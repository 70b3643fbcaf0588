// This file implements the choice of objects that lose their clocks when
// the engine does not fit (object_shedding.h).
#include "gordian/pipeline/object_shedding.h"

#include <algorithm>

#include <fmt/format.h>

namespace gordian::pipeline {
namespace {

using hb::ObjClass;

const char* ClassNoun(ObjClass c) {
  switch (c) {
    case ObjClass::Chan: return "channel";
    case ObjClass::Mutex: return "mutex";
    case ObjClass::RWMutex: return "RWMutex";
    case ObjClass::WaitGroup: return "WaitGroup";
    case ObjClass::Once: return "Once";
    case ObjClass::Cond: return "Cond";
    case ObjClass::None: break;
  }
  return "object";
}

std::string Thousands(uint64_t n) {
  std::string digits = std::to_string(n), s;
  for (size_t i = 0; i < digits.size(); i++) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

// "channel made at pool.go:41 (2,000,000 operations)": the site of its
// make (channels) or of its first operation.
std::string Describe(const hb::OpIndex& ops, ObjClass c, uint32_t dense) {
  const hb::PackedIdRange recs = ops.Ops(c, dense);
  const trace::Trace& t = ops.trace();
  uint32_t first = recs.front();
  for (uint32_t r : recs) {
    if (t.records[r].kind == trace::Kind::ChanMake) {
      first = r;
      break;
    }
  }
  const char* how = t.records[first].kind == trace::Kind::ChanMake ? "made" : "first used";
  return fmt::format("{} {} at {} ({} operations)", ClassNoun(c), how,
                     trace::SiteText(t, t.records[first]), Thousands(recs.size()));
}

}  // namespace

Shedding ShedLargestObjects(const hb::OpIndex& ops, double share) {
  struct Obj {
    uint64_t n;
    ObjClass c;
    uint32_t dense;
  };
  std::vector<Obj> objs;
  uint64_t total = 0;
  for (int ci = 0; ci < trace::kNumObjClasses; ci++) {
    ObjClass c = static_cast<ObjClass>(ci);
    for (uint32_t d = 0; d < ops.Count(c); d++) {
      uint64_t n = ops.Ops(c, d).size();
      total += n;
      if (n >= kMinShedOps) objs.push_back({n, c, d});
    }
  }
  std::sort(objs.begin(), objs.end(), [](const Obj& a, const Obj& b) {
    return a.n != b.n ? a.n > b.n : a.c != b.c ? a.c < b.c : a.dense < b.dense;
  });
  const trace::Trace& t = ops.trace();
  Shedding s;
  s.unclocked = std::make_shared<hb::RecordMask>(t.records.size());
  hb::RecordMask& mask = *s.unclocked;
  const uint64_t want = static_cast<uint64_t>(share * static_cast<double>(total));
  uint64_t shed = 0;
  for (const Obj& o : objs) {
    if (shed >= want && shed > 0) break;
    for (uint32_t r : ops.Ops(o.c, o.dense)) mask.Set(r);
    shed += o.n;
    s.objects++;
    if (s.largest.size() < 3) s.largest.push_back(Describe(ops, o.c, o.dense));
  }
  // A SelectCase stands for its Select (hb::HappensBefore queries take the
  // Select's clock): the Select keeps its clock while any case's channel
  // does, and loses it when every case's channel is shed.
  for (uint32_t i = 0; i < t.records.size(); i++) {
    if (t.records[i].kind != trace::Kind::Select) continue;
    bool any_case = false, all_shed = true;
    for (uint32_t j = i + 1; j < t.records.size() && t.records[j].kind == trace::Kind::SelectCase &&
                             ops.Owner(j) == i;
         j++) {
      any_case = true;
      all_shed = all_shed && mask[j];
    }
    mask.Set(i, any_case && all_shed);
  }
  s.records = mask.Count();
  return s;
}

std::string DescribeShedding(const Shedding& s) {
  std::string out = fmt::format("{} object{} ({} operations)", s.objects, s.objects == 1 ? "" : "s",
                                Thousands(s.records));
  for (size_t i = 0; i < s.largest.size(); i++) out += (i == 0 ? ": " : ", ") + s.largest[i];
  if (s.objects > s.largest.size()) out += ", ...";
  return out;
}

}  // namespace gordian::pipeline
