// This file implements the source excerpts of reports (source_lines.h).
#include "gordian/report/source_lines.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "gordian/report/paths.h"

namespace gordian::report {

const std::vector<std::string>* SourceCache::Lines(const std::string& path) {
  auto it = files_.find(path);
  if (it != files_.end()) return it->second.ok ? &it->second.lines : nullptr;
  Entry e;
  std::ifstream in(path, std::ios::binary);
  if (in) {
    e.ok = true;
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      e.lines.push_back(std::move(line));
    }
  }
  auto [ins, _] = files_.emplace(path, std::move(e));
  return ins->second.ok ? &ins->second.lines : nullptr;
}

const std::string& SourceCache::Root(const std::string& root) {
  if (!root_done_) {
    std::error_code ec;
    std::filesystem::path r = std::filesystem::weakly_canonical(root, ec);
    if (!ec && !root.empty()) root_ = r.string();
    root_done_ = true;
  }
  return root_;
}

bool MayShowSource(const std::string& path, const std::string& canonical_root) {
  if (canonical_root.empty() || !path.ends_with(".go")) return false;
  std::error_code ec;
  std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
  if (ec || Under(canonical_root, p.string()).empty()) return false;
  // A FIFO or device would hang or never end; a missing file is said so.
  return !std::filesystem::exists(p, ec) || std::filesystem::is_regular_file(p, ec);
}

SourceExcerpt ExcerptOf(const Location& l, int context, SourceCache* cache,
                        const std::string& source_root) {
  SourceExcerpt ex;
  if (l.line == 0 || l.file.empty()) return ex;
  if (!MayShowSource(DiskPath(l), cache->Root(source_root))) {
    ex.note = "source not shown: outside the module reported on";
    return ex;
  }
  const std::vector<std::string>* lines = cache->Lines(DiskPath(l));
  if (lines == nullptr) {
    ex.note = fmt::format("source not available: {} cannot be read", DiskPath(l));
    return ex;
  }
  if (l.line > lines->size()) {
    ex.note = fmt::format("source changed: {} has only {} lines", l.file, lines->size());
    return ex;
  }
  uint32_t c = static_cast<uint32_t>(std::max(context, 0));
  uint32_t from = l.line > c ? l.line - c : 1;
  uint32_t to = std::min<uint32_t>(static_cast<uint32_t>(lines->size()), l.line + c);
  ex.first_line = from;
  for (uint32_t n = from; n <= to; n++) ex.lines.push_back((*lines)[n - 1]);
  return ex;
}

}  // namespace gordian::report
