// This file owns where gordian keeps its own files, never in the user's
// tree: the cache directory (patched std sources, shared by runs and kept
// so that GOCACHE hits), per-run scratch directories (overlay JSON, built
// binaries; removed after the run), and where the runtime hook set
// (runtime/std of the repository) is found.
#pragma once

#include <string>

namespace gordian::driver {

// $GORDIAN_CACHE, else $XDG_CACHE_HOME/gordian, else $HOME/.cache/gordian,
// else /tmp/gordian-<uid>. Created if missing.
bool CacheDir(std::string* dir, std::string* err);

// A fresh private directory under the cache (runs/run-XXXXXX). The caller
// removes it with RemoveTree when done; run directories older than a day
// (left by a killed gordian) are swept here.
bool MakeRunDir(const std::string& cache, std::string* dir, std::string* err);
void RemoveTree(const std::string& dir);

// The runtime hook set: $GORDIAN_RUNTIME_DIR, else runtime/std next to the
// gordian binary's source tree or install prefix, else the source tree this
// gordian was built from. Fails with a message saying to set the variable.
bool FindHooksDir(std::string* dir, std::string* err);

// The path of the running executable (/proc/self/exe).
std::string SelfExe();

}  // namespace gordian::driver
