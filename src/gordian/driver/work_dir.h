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

// A run directory (MakeRunDir) removed with RemoveTree when this goes out
// of scope, however the function that made it returns.
class ScopedRunDir {
 public:
  ScopedRunDir() = default;
  ScopedRunDir(const ScopedRunDir&) = delete;
  ScopedRunDir& operator=(const ScopedRunDir&) = delete;
  ~ScopedRunDir() { RemoveTree(path_); }

  // Makes it under cache; false with *err as MakeRunDir.
  bool Make(const std::string& cache, std::string* err) { return MakeRunDir(cache, &path_, err); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;  // "" until made
};

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
// (runtime/std, tools/irgen), and how messages name it.
struct GordianDir {
  const char* rel;  // where it is in the sources: "runtime/std"
  const char* env;  // the variable that names it instead: "GORDIAN_RUNTIME_DIR"
  bool (*is_it)(const std::filesystem::path&);  // whether a directory is one
  const char* holds;  // what is_it looks for: "patches.txt and runtime/"
  const char* what;   // what it is: "the gordian runtime hooks (runtime/std with patches.txt)"
};

// The directory $d.env names, which must be one (d.is_it); else the first of
// BIN/../share/gordian/rel (installed), rel under each of the binary's six
// nearest ancestors (build trees), and rel in the source tree this gordian
// was built from, for which d.is_it holds, made canonical. False with a
// message saying to set d.env.
bool FindGordianDir(const GordianDir& d, std::string* dir, std::string* err);

// The path of the running executable (/proc/self/exe).
std::string SelfExe();

}  // namespace gordian::driver
