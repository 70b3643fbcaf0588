// The cache's areas, its size limit and its cleaning (cache_usage.h).
#include "gordian/driver/cache_usage.h"

#include <signal.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "gordian/driver/work_dir.h"
#include "gordian/util/size.h"

namespace gordian::driver {

namespace fs = std::filesystem;

namespace {

uint64_t TreeBytes(const fs::path& p) {
  std::error_code ec;
  if (fs::is_symlink(p, ec)) return 0;
  if (fs::is_regular_file(p, ec)) {
    uint64_t n = fs::file_size(p, ec);
    return ec ? 0 : n;
  }
  uint64_t total = 0;
  for (fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    if (it->is_regular_file(e2) && !it->is_symlink(e2)) {
      uint64_t n = it->file_size(e2);
      if (!e2) total += n;
    }
  }
  return total;
}

// The directories directly under dir, newest (last written) first.
std::vector<std::pair<fs::file_time_type, fs::path>> NewestFirst(const fs::path& dir) {
  std::vector<std::pair<fs::file_time_type, fs::path>> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::error_code e2;
    if (!e.is_directory(e2)) continue;
    auto t = e.last_write_time(e2);
    if (!e2) out.emplace_back(t, e.path());
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  return out;
}

}  // namespace

// The areas gordian makes in its cache, in the order shown. Only these are
// measured and cleaned: GORDIAN_CACHE may name a directory that holds other
// things too.
constexpr std::pair<const char*, const char*> kAreas[] = {
    {"schedules", "the schedules reproduce commands name, one directory per run"},
    {"fuzz-corpus", "gordian fuzz's working corpus, per package checkout and test"},
    {"runs", "scratch directories of running commands (and of killed ones, swept later)"},
    {"std", "the standard library with the recording hooks, per Go release"},
    {"irgen", "the IR generator of gordian verify, built with each Go"},
    {"goroot", "links to the Go toolchains of the module cache"},
    {"gomodcache", "a module cache for runs without HOME"},
};

std::vector<CacheArea> CacheUsage(const std::string& cache) {
  std::vector<CacheArea> out;
  for (auto [name, what] : kAreas) {
    fs::path p = fs::path(cache) / name;
    std::error_code ec;
    if (!fs::exists(p, ec)) continue;
    out.push_back(CacheArea{name, p.string(), TreeBytes(p), what});
  }
  return out;
}

bool CacheMaxBytes(uint64_t* out, std::string* err) {
  *out = kDefaultCacheMax;
  const char* v = getenv("GORDIAN_CACHE_MAX");
  if (v == nullptr || *v == '\0') return true;
  uint64_t n = 0;
  std::string why;
  if (!util::ParseSize(v, &n, &why)) {
    *err = fmt::format("GORDIAN_CACHE_MAX={:?}: {}; using {}", v, why, util::FormatSize(kDefaultCacheMax));
    return false;
  }
  *out = n;
  return true;
}

uint64_t EnforceCacheLimit(const std::string& cache, uint64_t max_bytes, const std::string& keep) {
  // Newest first: the schedule runs, then the corpora (by their last use).
  std::vector<std::pair<fs::path, uint64_t>> items;
  for (const auto& [t, p] : NewestFirst(fs::path(cache) / "schedules")) items.emplace_back(p, TreeBytes(p));
  std::vector<std::pair<fs::file_time_type, fs::path>> corpora;
  std::error_code ec;
  for (const auto& [t, checkout] : NewestFirst(fs::path(cache) / "fuzz-corpus")) {
    for (const auto& [t2, test] : NewestFirst(checkout)) corpora.emplace_back(t2, test);
  }
  std::sort(corpora.begin(), corpora.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [t, p] : corpora) items.emplace_back(p, TreeBytes(p));
  uint64_t total = 0, removed = 0;
  for (const auto& [p, bytes] : items) {
    total += bytes;
    if (total <= max_bytes || (!keep.empty() && p == fs::path(keep))) continue;
    fs::remove_all(p, ec);
    if (!ec) removed += bytes;
  }
  return removed;
}

bool CleanCache(const std::string& cache, uint64_t* removed, std::string* err) {
  *removed = 0;
  auto remove = [&](const fs::path& p) {
    uint64_t bytes = TreeBytes(p);
    std::error_code ec;
    fs::remove_all(p, ec);
    if (ec) {
      *err = fmt::format("cannot remove {}: {}", p.string(), ec.message());
      return false;
    }
    *removed += bytes;
    return true;
  };
  for (auto [name, what] : kAreas) {
    fs::path area = fs::path(cache) / name;
    std::error_code ec;
    if (!fs::is_directory(area, ec) || fs::is_symlink(area, ec)) continue;
    if (std::string_view(name) != "runs") {
      if (!remove(area)) return false;
      continue;
    }
    // The scratch directories of gordian commands still running stay.
    for (const auto& r : fs::directory_iterator(area, ec)) {
      if (!RunDirInUse(r.path().string()) && !remove(r.path())) return false;
    }
    if (ec) {
      *err = fmt::format("cannot read {}: {}", area.string(), ec.message());
      return false;
    }
  }
  return true;
}

}  // namespace gordian::driver
