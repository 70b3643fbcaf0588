// This file implements GoroutineOps and SiteIs (goroutine_ops.h).
#include "gordian/schedule/goroutine_ops.h"

#include <charconv>

#include "gordian/schedule/schedule.h"

namespace gordian::schedule {

GoroutineOps::GoroutineOps(const trace::Trace& t, Lookup lookup) {
  const bool by_path = lookup == Lookup::kByIndexAndPath;
  start_.reserve(t.goroutines.size() + 1);
  paths_.reserve(t.goroutines.size());
  if (by_path) index_.reserve(t.goroutines.size());
  start_.push_back(0);
  for (const trace::Goroutine& g : t.goroutines) {
    std::string_view path;
    if (!g.stable_id.empty()) {
      // A stable id names one goroutine; should one come twice, Of finds
      // the first (a schedule could not tell them apart either). Without
      // the hash every goroutine keeps its path.
      if (!by_path || index_.emplace(g.stable_id, static_cast<uint32_t>(paths_.size())).second) {
        path = g.stable_id;
      }
      for (uint32_t i = g.begin; i < g.end; i++) {
        if (IsControlled(t.records[i].kind)) recs_.push_back(i);
      }
    }
    paths_.push_back(path);
    start_.push_back(static_cast<uint32_t>(recs_.size()));
  }
}

std::span<const trace::RecordId> GoroutineOps::Of(std::string_view path) const {
  auto it = index_.find(path);
  if (it == index_.end()) return {};
  return Ops(it->second);
}

bool SiteIs(const trace::Trace& t, const trace::Record& r, std::string_view site) {
  const trace::Site& s = t.SiteOf(r);
  if (r.site == 0 || s.file.empty()) return site == "?";
  // "file:line": the file, a colon, then the line's digits and nothing else.
  if (site.size() <= s.file.size() + 1 || site.compare(0, s.file.size(), s.file) != 0 ||
      site[s.file.size()] != ':') {
    return false;
  }
  std::string_view digits = site.substr(s.file.size() + 1);
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, s.line);
  return ec == std::errc() && digits == std::string_view(buf, end - buf);
}

}  // namespace gordian::schedule
