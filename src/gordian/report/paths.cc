// This file implements report paths (paths.h).
#include "gordian/report/paths.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <string_view>

namespace gordian::report {
namespace {

namespace fs = std::filesystem;

// True for GOROOT/src and GOROOT/src/cmd, whose go.mod says "module std"
// or "module cmd".
bool IsToolchainModule(const std::string& root) {
  if (root.empty()) return false;
  std::ifstream in(root + "/go.mod");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("module ", 0) == 0) {
      std::string m = line.substr(7);
      while (!m.empty() && (m.back() == ' ' || m.back() == '\r')) m.pop_back();
      return m == "std" || m == "cmd";
    }
  }
  return false;
}

class Relativizer {
 public:
  explicit Relativizer(std::string root) : root_(std::move(root)) {}

  std::string Rel(const std::string& path) {
    if (path.empty() || path[0] != '/') return path;
    if (std::string r = Under(root_, path); !r.empty()) return r;
    if (!root_.empty()) return Outside(path);
    std::string dir = fs::path(path).parent_path().string();
    auto it = module_of_dir_.find(dir);
    if (it == module_of_dir_.end()) {
      std::string mod = FindModuleRoot(dir);
      if (IsToolchainModule(mod)) mod.clear();  // GOROOT/src: keep std paths absolute
      it = module_of_dir_.emplace(dir, mod).first;
    }
    if (std::string r = Under(it->second, path); !r.empty()) return r;
    return path;
  }

 private:
  // A file outside the root's module: a dependency in the module cache as
  // "module@version/file.go"; a neighbour (another module of a go.work
  // workspace, a replace with a relative path) relative to the root
  // ("../lib/l.go": its own module's relative path alone, "l.go", said
  // nothing of where it is); the standard library and anything farther
  // away keep their absolute path.
  std::string Outside(const std::string& path) const {
    constexpr std::string_view kModCache = "/pkg/mod/";
    if (size_t at = path.find(kModCache); at != std::string::npos) {
      return path.substr(at + kModCache.size());
    }
    fs::path rel = fs::path(path).lexically_relative(root_);
    int ups = 0;
    for (const fs::path& part : rel) ups += part == "..";
    if (rel.empty() || ups == 0 || ups > 2) return path;
    std::string mod = FindModuleRoot(fs::path(path).parent_path().string());
    if (mod.empty() || IsToolchainModule(mod)) return path;
    return rel.string();
  }

  std::string root_;
  std::map<std::string, std::string> module_of_dir_;
};

}  // namespace

std::string Under(const std::string& root, const std::string& path) {
  if (root.empty()) return "";
  std::string r = root;
  if (r.back() != '/') r += '/';
  if (path.size() > r.size() && path.compare(0, r.size(), r) == 0) return path.substr(r.size());
  return "";
}

std::string FindModuleRoot(const std::string& dir) {
  std::error_code ec;
  fs::path p = fs::path(dir);
  for (int depth = 0; depth < 256 && !p.empty(); depth++) {
    if (fs::is_regular_file(p / "go.mod", ec)) return p.string();
    fs::path parent = p.parent_path();
    if (parent == p) break;
    p = parent;
  }
  return "";
}

void RelativizePaths(std::vector<Finding>* findings, const std::string& root) {
  Relativizer rel(root);
  auto fix = [&](Location* l) {
    if (l->path.empty()) l->path = l->file;
    l->file = rel.Rel(l->path);
  };
  for (Finding& f : *findings) {
    for (Location& l : f.locations) fix(&l);
    for (Step& s : f.interleaving) fix(&s.loc);
    for (Step& s : f.context) fix(&s.loc);
    for (GoroutineInfo& g : f.goroutines) g.spawn_file = rel.Rel(g.spawn_file);
  }
}

}  // namespace gordian::report
