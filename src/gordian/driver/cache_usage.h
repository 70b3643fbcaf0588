// This file owns how much of the disk gordian's cache takes (work_dir.h
// says where it is): what each area holds, the size limit the areas that
// grow with every run are kept under, and cleaning it all (`gordian cache`,
// as `go clean -cache`).
//
//   std/          the patched standard library sources of each Go release (small)
//   irgen/        the IR generator built with each Go (gordian verify)
//   goroot/       links to toolchains of the module cache (tiny)
//   runs/         the scratch directories of running commands (removed when
//                 they end; those of a killed gordian are swept later)
//   schedules/    the schedules `reproduce` commands name, one directory per run
//   fuzz-corpus/  gordian fuzz's working corpus, per package checkout and test
//
// schedules/ and fuzz-corpus/ grow with use: they are kept under
// GORDIAN_CACHE_MAX together (default 4 GiB; a size such as 2GB or 500MB),
// the oldest run's schedules first, then the corpora used least recently.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gordian::driver {

struct CacheArea {
  std::string name;   // "schedules", ...
  std::string path;
  uint64_t bytes = 0;
  std::string what;   // for people
};

// Every area of the cache, with its size on disk.
std::vector<CacheArea> CacheUsage(const std::string& cache);

// GORDIAN_CACHE_MAX, else the default; false with *err when the variable
// does not parse (the caller says so and uses the default).
inline constexpr uint64_t kDefaultCacheMax = uint64_t{4} << 30;
bool CacheMaxBytes(uint64_t* out, std::string* err);

// Removes the oldest schedule directories, then the least recently used
// fuzz corpora, until schedules/ and fuzz-corpus/ together take at most
// max_bytes; keep names a schedule directory in use (this run's), never
// removed. Returns the bytes removed.
uint64_t EnforceCacheLimit(const std::string& cache, uint64_t max_bytes, const std::string& keep = "");

// Removes everything in the cache but the run directories of gordian
// processes still running; false with *err on the first failure.
bool CleanCache(const std::string& cache, uint64_t* removed, std::string* err);

}  // namespace gordian::driver
