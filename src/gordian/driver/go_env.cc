// This file implements FindGo and ModuleRoots (go_env.h) by running the go
// command itself: it knows GOROOT, GOFLAGS, go.work and vendoring better
// than any guess of ours.
#include "gordian/driver/go_env.h"

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gordian/driver/go_root_link.h"
#include "gordian/driver/process.h"
#include "gordian/driver/work_dir.h"

namespace gordian::driver {

bool FindGo(const std::string& cwd, GoTool* out, std::string* err) {
  *out = GoTool();
  const char* env_go = getenv("GORDIAN_GO");
  std::string name = env_go != nullptr && *env_go ? env_go : "go";
  out->go = LookPath(name);
  if (out->go.empty()) {
    *err = env_go != nullptr && *env_go
               ? fmt::format("GORDIAN_GO={} is not an executable; point it at the go command", name)
               : "cannot find the go command in PATH; install Go (https://go.dev/dl) or set "
                 "GORDIAN_GO=/path/to/go";
    return false;
  }
  if (out->go[0] != '/') {
    std::error_code ec;
    out->go = std::filesystem::absolute(out->go, ec).string();
  }
  ProcessSpec spec;
  spec.argv = {out->go,  "env",   "-json", "GOROOT", "GOVERSION",
               "GOCACHE", "GOMOD", "GOWORK", "GOMODCACHE"};
  spec.cwd = cwd;
  spec.pass_through = false;
  spec.timeout_seconds = 60;
  ProcessResult r;
  if (!RunProcess(spec, &r, err)) return false;
  if (!r.Succeeded()) {
    *err = fmt::format("'{} env -json' failed ({}): {}", out->go, r.Describe(), r.err);
    while (!err->empty() && err->back() == '\n') err->pop_back();
    return false;
  }
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    *err = fmt::format("'{} env -json' printed something that is not JSON; is {} really "
                       "the go command?",
                       out->go, out->go);
    return false;
  }
  auto get = [&](const char* k) {
    auto it = j.find(k);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  out->goroot = get("GOROOT");
  out->gomodcache = get("GOMODCACHE");
  out->version = get("GOVERSION");
  out->gocache = get("GOCACHE");
  out->gomod = get("GOMOD");
  out->gowork = get("GOWORK");
  if (out->goroot.empty()) {
    *err = fmt::format("'{} env' reports no GOROOT; check the Go installation", out->go);
    return false;
  }
  if (GoRootInModCache(out->goroot, out->gomodcache)) {
    std::string cache;
    if (!CacheDir(&cache, err)) return false;
    if (!LinkGoRootOutsideModCache(cache, out, err)) return false;
  }
  return true;
}

std::vector<std::string> ModuleRoots(const GoTool& go, const std::string& cwd,
                                     const std::vector<std::string>& build_flags) {
  std::vector<std::string> roots;
  bool in_module = !go.gomod.empty() && go.gomod != "/dev/null";
  bool in_work = !go.gowork.empty() && go.gowork != "off";
  if (!in_module && !in_work) return roots;
  ProcessSpec spec;
  spec.argv = {go.go, "list", "-m"};
  for (const std::string& f : build_flags) spec.argv.push_back(f);
  spec.argv.push_back("-f={{.Dir}}");
  spec.cwd = cwd;
  spec.pass_through = false;
  spec.timeout_seconds = 60;
  ProcessResult r;
  std::string err;
  if (RunProcess(spec, &r, &err) && r.Succeeded()) {
    std::string_view rest = r.out;
    while (!rest.empty()) {
      size_t nl = rest.find('\n');
      std::string_view line = rest.substr(0, nl);
      if (!line.empty()) roots.emplace_back(line);
      if (nl == std::string_view::npos) break;
      rest.remove_prefix(nl + 1);
    }
  }
  if (roots.empty() && in_module) {
    roots.push_back(std::filesystem::path(go.gomod).parent_path().string());
  }
  return roots;
}

}  // namespace gordian::driver
