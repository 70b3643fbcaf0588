// This file finds the user's Go toolchain and asks it about itself and about
// the user's module: which `go`, its GOROOT and version (`go env -json`),
// and the root directories of the main module(s), which the recorder treats
// as user code (GORDIAN_ROOTS).
#pragma once

#include <string>
#include <vector>

namespace gordian::driver {

struct GoTool {
  std::string go;       // absolute path of the go command
  std::string goroot;
  std::string version;  // GOVERSION, e.g. "go1.26.8"
  std::string gocache;
  std::string gomod;    // GOMOD as seen from the working directory ("" or /dev/null: none)
  std::string gowork;   // GOWORK ("" or "off": none)
  std::string gomodcache;  // GOMODCACHE; "" when neither GOPATH nor HOME says where
};

// Finds `go`: $GORDIAN_GO if set, else the first `go` in PATH. Runs
// `go env -json` in cwd. A toolchain the go command fetched into the module
// cache (GOTOOLCHAIN) is run from a GOROOT outside it (go_root_link.h): go
// and goroot then name that. Fails with a message saying how to fix it.
bool FindGo(const std::string& cwd, GoTool* out, std::string* err);

// The directories of the main module(s) seen from cwd (`go list -m`, all of
// a workspace's modules), or the directory of GOMOD. Empty outside a module
// (the recorder then uses its default rule: not GOROOT, not the module
// cache, not vendor/). build_flags are go build flags that change module
// resolution (-modfile, -mod, -C) and are passed along.
std::vector<std::string> ModuleRoots(const GoTool& go, const std::string& cwd,
                                     const std::vector<std::string>& build_flags);

}  // namespace gordian::driver
