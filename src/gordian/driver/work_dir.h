// This file owns where gordian keeps its own files, never in the user's
// tree: the cache directory (patched std sources, shared by runs and kept
// so that GOCACHE hits), per-run scratch directories (overlay JSON, built
// binaries; removed after the run), and where the runtime hook set
// (runtime/std of the repository) is found.
#pragma once

#include <filesystem>
#include <string>

namespace gordian::driver {

// $GORDIAN_CACHE (made absolute), else $XDG_CACHE_HOME/gordian, else
// $HOME/.cache/gordian (each only when absolute, as Go's os.UserCacheDir),
// else /tmp/gordian-<uid>. Created if missing.
bool CacheDir(std::string* dir, std::string* err);

// A fresh private directory under the cache (runs/run-XXXXXX), with an
// `owner` file naming this process. The caller removes it with RemoveTree
// when done; run directories left by a gordian that was killed (its owner is
// gone), or older than a day, are swept here.
bool MakeRunDir(const std::string& cache, std::string* dir, std::string* err);
void RemoveTree(const std::string& dir);

// Whether the run directory dir belongs to a gordian process still running
// (its owner file names a live process).
bool RunDirInUse(const std::string& dir);

// The schedules of earlier runs (cache/schedules/run-*: what `reproduce`
// commands name) are kept for kScheduleDays days, and at most
// kScheduleRuns of them, and with the fuzz corpora within the cache's size
// limit (cache_usage.h, GORDIAN_CACHE_MAX); older ones are removed here,
// before a new run adds its own.
inline constexpr int kScheduleDays = 7;
inline constexpr size_t kScheduleRuns = 50;
void PruneSchedules(const std::string& cache);

// The runtime hook set: $GORDIAN_RUNTIME_DIR, else runtime/std next to the
// gordian binary's source tree or install prefix, else the source tree this
// gordian was built from. Fails with a message saying to set the variable.
bool FindHooksDir(std::string* dir, std::string* err);

// A directory of gordian's own sources that the binary needs at run time
// (runtime/std, tools/irgen), at rel: the first of BIN/../share/gordian/rel
// (installed), rel under each of the binary's six nearest ancestors (build
// trees), and source_dir/rel, for which is_it holds, made canonical; ""
// when none is.
std::string FindGordianDir(const std::string& rel, const std::string& source_dir,
                           bool (*is_it)(const std::filesystem::path&));

// The path of the running executable (/proc/self/exe).
std::string SelfExe();

}  // namespace gordian::driver
