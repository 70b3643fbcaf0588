// This file implements the GOROOT outside the module cache (go_root_link.h).
#include "gordian/driver/go_root_link.h"
#include "gordian/util/fnv.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

namespace gordian::driver {
namespace fs = std::filesystem;

bool GoRootInModCache(const std::string& goroot, const std::string& gomodcache) {
  if (gomodcache.empty() || goroot.empty()) return false;
  fs::path root = fs::path(goroot).lexically_normal();
  fs::path cache = fs::path(gomodcache).lexically_normal();
  auto [c, r] = std::mismatch(cache.begin(), cache.end(), root.begin(), root.end());
  // All of cache's components (its last may be empty: a trailing slash),
  // then at least one more of root's.
  if (c != cache.end() && !(std::next(c) == cache.end() && c->empty())) return false;
  return r != root.end() && !r->empty();
}

namespace {

// Builds the linked GOROOT in dir (fresh) from goroot.
bool BuildLinkedRoot(const fs::path& goroot, const fs::path& dir, std::string* err) {
  std::error_code ec;
  fs::create_directories(dir / "bin", ec);
  if (ec) {
    *err = fmt::format("cannot create {}: {}", (dir / "bin").string(), ec.message());
    return false;
  }
  for (const auto& e : fs::directory_iterator(goroot, ec)) {
    const std::string name = e.path().filename().string();
    if (name == "bin") continue;
    fs::create_symlink(e.path(), dir / name, ec);
    if (ec) {
      *err = fmt::format("cannot link {} to {}: {}", (dir / name).string(), e.path().string(),
                         ec.message());
      return false;
    }
  }
  if (ec) {
    *err = fmt::format("cannot list {}: {}", goroot.string(), ec.message());
    return false;
  }
  for (const auto& e : fs::directory_iterator(goroot / "bin", ec)) {
    const fs::path to = dir / "bin" / e.path().filename();
    fs::create_hard_link(e.path(), to, ec);
    if (ec) {
      ec.clear();
      fs::copy_file(e.path(), to, ec);
    }
    if (ec) {
      *err = fmt::format("cannot link or copy {} to {}: {}", e.path().string(), to.string(),
                         ec.message());
      return false;
    }
  }
  if (ec) {
    *err = fmt::format("cannot list {}: {}", (goroot / "bin").string(), ec.message());
    return false;
  }
  return true;
}

}  // namespace

bool LinkGoRootOutsideModCache(const std::string& cache, GoTool* go, std::string* err) {
  const fs::path goroot = fs::path(go->goroot).lexically_normal();
  std::string name = goroot.filename().string();
  if (name.empty()) name = goroot.parent_path().filename().string();
  // The name says which toolchain; the hash of its path keeps two module
  // caches (another GOMODCACHE) from sharing links to one of them.
  uint64_t h = util::Fnv1a64(goroot.string());
  name += fmt::format("-{:08x}", static_cast<uint32_t>(h ^ (h >> 32)));
  const fs::path dir = fs::path(cache) / "goroot" / name;
  std::error_code ec;
  // bin/go is added last of all (rename of the finished directory), so its
  // presence means the directory is complete.
  if (!fs::exists(dir / "bin" / "go", ec)) {
    const fs::path tmp = fs::path(cache) / "goroot" / fmt::format(".{}.{}", name, getpid());
    fs::remove_all(tmp, ec);
    if (!BuildLinkedRoot(goroot, tmp, err)) {
      fs::remove_all(tmp, ec);
      *err = fmt::format("the Go toolchain in {} must be run from outside the module cache "
                         "(Go refuses an -overlay of files beneath GOMODCACHE), but {}",
                         go->goroot, *err);
      return false;
    }
    fs::rename(tmp, dir, ec);
    if (ec) {  // another gordian finished first: use its directory
      std::error_code ignored;
      fs::remove_all(tmp, ignored);
      if (!fs::exists(dir / "bin" / "go", ignored)) {
        *err = fmt::format("cannot rename {} to {}: {}", tmp.string(), dir.string(),
                           ec.message());
        return false;
      }
    }
  }
  go->goroot = dir.string();
  go->go = (dir / "bin" / "go").string();
  return true;
}

}  // namespace gordian::driver
