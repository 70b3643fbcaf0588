// This file owns running a Go toolchain that the go command fetched into the
// module cache (GOTOOLCHAIN=go1.25.14, or a go.mod "toolchain" line) with
// gordian's -overlay: Go 1.25 and later refuse an overlay that replaces
// files beneath GOMODCACHE, and such a toolchain's GOROOT is
// GOMODCACHE/golang.org/toolchain@v0.0.1-go1.25.14.linux-amd64. The same
// toolchain is run from a GOROOT outside the module cache instead: a
// directory in gordian's cache whose entries are symlinks to the original,
// but for bin/, whose commands are hard links (copies where a link fails),
// because the go command finds its GOROOT from its own executable's path,
// which Linux reports with symlinks resolved.
#pragma once

#include <string>

#include "gordian/driver/go_env.h"

namespace gordian::driver {

// true when goroot lies beneath gomodcache.
bool GoRootInModCache(const std::string& goroot, const std::string& gomodcache);

// Makes (or reuses) cache/goroot/<name of go->goroot>-<hash of its path>/
// as described above
// and points go->go and go->goroot at it. Safe when several gordian
// processes do it at once.
bool LinkGoRootOutsideModCache(const std::string& cache, GoTool* go, std::string* err);

}  // namespace gordian::driver
