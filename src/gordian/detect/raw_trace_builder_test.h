// This file defines RawTraceBuilder, a test helper that builds in-memory traces
// record by record, kinds and fields as given (hb/trace_builder.h's
// TraceBuilder writes whole operations and keeps their invariants):
// goroutines, sites, strings and records with stamps from one global
// counter, as the recorder would write them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gordian/trace/trace.h"

namespace gordian::detect::testing {

class RawTraceBuilder {
 public:
  RawTraceBuilder() {
    t_.sites.push_back({});
    t_.strings.push_back("");
    per_g_.emplace_back();  // gid 1 = main
    info_.push_back(G(1, 0, 0, "1"));
  }

  // A user site in /mod/file at line (column 0, as the recorder writes).
  uint32_t Site(const std::string& file, uint32_t line, bool user = true,
                const std::string& function = "example.com/m.F") {
    t_.sites.push_back({"/mod/" + file, line, 0, function, user});
    return static_cast<uint32_t>(t_.sites.size() - 1);
  }
  uint32_t Str(const std::string& s) {
    t_.strings.push_back(s);
    return static_cast<uint32_t>(t_.strings.size() - 1);
  }

  // Spawns a goroutine from parent at site; returns its gid.
  uint32_t Go(uint32_t parent, uint32_t site) {
    uint32_t gid = static_cast<uint32_t>(per_g_.size() + 1);
    uint32_t index = children_[parent]++;
    Op(parent, trace::Kind::GoSpawn, site, gid, index);
    per_g_.emplace_back();
    info_.push_back(G(gid, parent, index,
                      info_[parent - 1].stable_id + "." + std::to_string(index)));
    Op(gid, trace::Kind::GoStart, 0, parent, index);
    return gid;
  }

  // A goroutine that leaks: parent makes channel chan at make_site and
  // spawns, at make_site, a goroutine blocked forever in a send on it at
  // send_site. Returns the sender's gid.
  uint32_t StuckSender(uint32_t parent, uint32_t make_site, uint32_t send_site,
                       uint32_t chan) {
    Op(parent, trace::Kind::ChanMake, make_site, chan, 0);
    uint32_t g = Go(parent, make_site);
    Begin(g, trace::Kind::ChanSend, send_site, chan, 1);
    return g;
  }

  // A completed non-blocking operation (tpre == tpost). Returns a handle.
  size_t Op(uint32_t gid, trace::Kind k, uint32_t site, uint32_t obj, uint32_t val = 0,
            uint8_t flags = 0, uint16_t aux = 0) {
    uint32_t s = ++clock_;
    per_g_[gid - 1].push_back({k, flags, aux, site, s, s, obj, val});
    return Handle(gid);
  }
  // A blocking operation that starts now; Finish completes it later. One
  // that is never finished keeps tpost == 0.
  size_t Begin(uint32_t gid, trace::Kind k, uint32_t site, uint32_t obj, uint32_t val = 0,
               uint8_t flags = 0, uint16_t aux = 0) {
    per_g_[gid - 1].push_back({k, flags, aux, site, ++clock_, 0, obj, val});
    return Handle(gid);
  }
  void Finish(size_t h, uint8_t more_flags = 0, uint32_t val = UINT32_MAX) {
    trace::Record& r = per_g_[h >> 32][h & 0xffffffff];
    r.tpost = ++clock_;
    r.flags |= more_flags;
    if (val != UINT32_MAX) r.val = val;
  }
  // A blocking operation that completes at once.
  size_t Blocking(uint32_t gid, trace::Kind k, uint32_t site, uint32_t obj, uint32_t val = 0,
                  uint8_t flags = 0) {
    size_t h = Begin(gid, k, site, obj, val, flags);
    Finish(h);
    return h;
  }

  trace::Trace Build() const {
    trace::Trace t = t_;
    for (size_t g = 0; g < per_g_.size(); g++) {
      trace::Goroutine gi = info_[g];
      gi.begin = static_cast<uint32_t>(t.records.size());
      t.records.insert(t.records.end(), per_g_[g].begin(), per_g_[g].end());
      gi.end = static_cast<uint32_t>(t.records.size());
      t.goroutines.push_back(gi);
    }
    return t;
  }

 private:
  static trace::Goroutine G(uint32_t gid, uint32_t parent, uint32_t index, std::string id) {
    trace::Goroutine g;
    g.gid = gid;
    g.parent = parent;
    g.child_index = index;
    g.stable_id = std::move(id);
    return g;
  }
  size_t Handle(uint32_t gid) const {
    return (static_cast<size_t>(gid - 1) << 32) | (per_g_[gid - 1].size() - 1);
  }

  trace::Trace t_;
  std::vector<std::vector<trace::Record>> per_g_;
  std::vector<trace::Goroutine> info_;
  std::map<uint32_t, uint32_t> children_;
  uint32_t clock_ = 0;
};

}  // namespace gordian::detect::testing
