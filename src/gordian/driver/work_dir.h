// This file owns where gordian keeps its own files, never in the user's
// tree: the cache directory (patched std sources, shared by runs and kept
// so that GOCACHE hits), per-run scratch directories (overlay JSON, built
// binaries; removed after the run), and where the files gordian needs at
// run time (the runtime hook set, the IR generator's sources) are found:
// installed beside the binary, or in the source tree of a build tree.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

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
// (its owner file names a live process), or may (it has no owner file that
// names a process, and is younger than a day: one just made).
bool RunDirInUse(const std::string& dir);

// The schedules of earlier runs (cache/schedules/run-*: what `reproduce`
// commands name) are kept for kScheduleDays days, and at most
// kScheduleRuns of them, and with the fuzz corpora within the cache's size
// limit (cache_usage.h, GORDIAN_CACHE_MAX); older ones are removed here,
// before a new run adds its own.
inline constexpr int kScheduleDays = 7;
inline constexpr size_t kScheduleRuns = 50;
void PruneSchedules(const std::string& cache);

// The runtime hook set: $GORDIAN_RUNTIME_DIR, else the installed one
// (share/gordian/runtime/std beside the binary's bin/), else, for a binary
// in its build tree, runtime/std of the sources it was built from. Fails
// with a message saying to set the variable.
bool FindHooksDir(std::string* dir, std::string* err);

// Where an installed gordian keeps the files it needs at run time, relative
// to the directory above its bin/ (cmake/install.cmake puts them there):
// runtime/std (the hooks) and irgen (the IR generator's sources).
inline constexpr const char* kInstalledDataDir = "share/gordian";

// EXE's directory/../share/gordian, normalised ("/usr/share/gordian" for
// /usr/bin/gordian), for messages.
std::string InstalledDataDirOf(const std::string& exe);

// A directory of gordian's own files that the binary needs at run time:
// the first of these for which is_it holds, made canonical, or "":
//   - installed: EXE/../share/gordian/installed_rel, relative to the
//     running executable, whatever the prefix it was installed to;
//   - only when the executable lies inside the build tree it was built in
//     (its bin/, or a test binary): source_rel in the source tree it was
//     built from. An installed gordian never reads the source tree.
std::string FindGordianDir(const std::string& installed_rel, const std::string& source_rel,
                           bool (*is_it)(const std::filesystem::path&));

// A directory of gordian's own files the user may also name in an
// environment variable, as FindGordianDirOrEnv looks for it.
struct GordianDirSpec {
  const char* env;           // the variable: "GORDIAN_RUNTIME_DIR"
  const char* installed_rel; // FindGordianDir's: "runtime/std"
  const char* source_rel;    // FindGordianDir's: "runtime/std"
  bool (*is_it)(const std::filesystem::path&);
  const char* what;          // for messages: "the gordian runtime hooks"
  const char* holds;         // what is_it wants: "patches.txt and runtime/"
  const char* known_by;      // the installed one's mark: "patches.txt"
};

// The directory spec.env names when it is set (false, with a message, when
// that is not one), else FindGordianDir's (false, with a message saying
// where it was looked for and to set the variable, when there is none).
bool FindGordianDirOrEnv(const GordianDirSpec& spec, std::string* dir, std::string* err);

// The candidates FindGordianDir tries, in order, for the executable exe
// built from source_dir into build_dir (both compiled in; build_dir made
// canonical by the caller): pure, for tests.
std::vector<std::filesystem::path> GordianDirCandidates(const std::string& exe,
                                                        const std::string& installed_rel,
                                                        const std::string& source_rel,
                                                        const std::string& source_dir,
                                                        const std::string& build_dir);

// The path of the running executable (/proc/self/exe).
std::string SelfExe();

}  // namespace gordian::driver
