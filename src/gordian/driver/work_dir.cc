// This file implements the cache, run and hook directories (work_dir.h).
#include "gordian/driver/work_dir.h"

#include "gordian/driver/cache_usage.h"
#include "gordian/driver/scratch_dirs.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

namespace gordian::driver {
namespace fs = std::filesystem;

namespace {

bool IsHooksDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p / "patches.txt", ec) && fs::is_directory(p / "runtime", ec);
}

}  // namespace

bool CacheDir(std::string* dir, std::string* err) {
  auto env = [](const char* k) {
    const char* v = getenv(k);
    return v != nullptr && *v ? std::string(v) : std::string();
  };
  // As Go's os.UserCacheDir: a relative XDG_CACHE_HOME or HOME is no
  // answer (it would put the cache inside whatever directory gordian runs
  // in, the user's source tree), so it is skipped; GORDIAN_CACHE, the
  // user's explicit choice, is made absolute.
  auto absolute = [](const std::string& p) { return !p.empty() && p[0] == '/'; };
  std::string d = env("GORDIAN_CACHE");
  if (!d.empty() && !absolute(d)) {
    std::error_code ec;
    d = fs::absolute(d, ec).lexically_normal().string();
  }
  if (d.empty() && absolute(env("XDG_CACHE_HOME"))) d = env("XDG_CACHE_HOME") + "/gordian";
  if (d.empty() && absolute(env("HOME"))) d = env("HOME") + "/.cache/gordian";
  if (d.empty()) d = fmt::format("/tmp/gordian-{}", getuid());
  std::error_code ec;
  fs::create_directories(d, ec);
  if (ec) {
    *err = fmt::format("cannot create the cache directory {}: {}; set GORDIAN_CACHE to a "
                       "writable directory",
                       d, ec.message());
    return false;
  }
  *dir = d;
  return true;
}

void PruneSchedules(const std::string& cache) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> runs;
  for (const auto& e : fs::directory_iterator(cache + "/schedules", ec)) {
    std::error_code ec2;
    if (!e.path().filename().string().starts_with("run-") || !e.is_directory(ec2)) continue;
    auto t = e.last_write_time(ec2);
    if (!ec2) runs.emplace_back(t, e.path());
  }
  std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  auto now = fs::file_time_type::clock::now();
  for (size_t i = 0; i < runs.size(); i++) {
    if (i >= kScheduleRuns || now - runs[i].first > std::chrono::hours(24 * kScheduleDays)) {
      std::error_code ec2;
      fs::remove_all(runs[i].second, ec2);
    }
  }
  uint64_t max = 0;
  std::string err;
  if (!CacheMaxBytes(&max, &err)) fmt::print(stderr, "gordian: warning: {}\n", err);
  EnforceCacheLimit(cache, max);
}

bool RunDirInUse(const std::string& dir) {
  std::ifstream in(fs::path(dir) / "owner");
  long pid = 0;
  if (in >> pid && pid > 0) return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
  // No owner yet (a gordian starting in it: MakeRunDir names it after
  // making it; or an owner file written by a gordian that did not rename
  // it into place), or none at all (a directory from before owner files):
  // in use while it is younger than a day. Removing a starting run's
  // directory made its first write fail ("cannot write .../overlay.json").
  std::error_code ec;
  auto t = fs::last_write_time(dir, ec);
  if (ec) return false;
  return fs::file_time_type::clock::now() - t < std::chrono::hours(24);
}

bool MakeRunDir(const std::string& cache, std::string* dir, std::string* err) {
  std::error_code ec;
  fs::create_directories(cache + "/runs", ec);
  // Run directories of gordian processes that were killed before they could
  // clean up (RunDirInUse: an owner that is gone, or no owner for a day).
  for (const auto& e : fs::directory_iterator(cache + "/runs", ec)) {
    std::error_code ec2;
    if (!e.path().filename().string().starts_with("run-")) continue;
    if (!RunDirInUse(e.path().string())) fs::remove_all(e.path(), ec2);
  }
  std::string tmpl = cache + "/runs/run-XXXXXX";
  if (ec || mkdtemp(tmpl.data()) == nullptr) {
    *err = fmt::format("cannot create a run directory under {}/runs; set GORDIAN_CACHE to a "
                       "writable directory",
                       cache);
    return false;
  }
  *dir = tmpl;
  AddScratchDir(*dir);  // removed even if a signal ends gordian while busy
  // Written aside and renamed into place: another gordian sweeping the runs
  // never reads a half-written owner file.
  const fs::path written = fs::path(tmpl) / "owner.tmp";
  std::ofstream(written) << getpid() << "\n";
  std::error_code ec3;
  fs::rename(written, fs::path(tmpl) / "owner", ec3);
  return true;
}

void RemoveTree(const std::string& dir) {
  std::error_code ec;
  if (dir.empty()) return;
  fs::remove_all(dir, ec);
  DropScratchDir(dir);
}

std::string SelfExe() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

std::string InstalledDataDirOf(const std::string& exe) {
  return (fs::path(exe).parent_path() / ".." / kInstalledDataDir).lexically_normal().string();
}

std::vector<fs::path> GordianDirCandidates(const std::string& exe, const std::string& installed_rel,
                                           const std::string& source_rel,
                                           const std::string& source_dir,
                                           const std::string& build_dir) {
  std::vector<fs::path> cands;
  if (exe.empty()) return cands;
  fs::path self = fs::path(exe).lexically_normal();
  cands.push_back(fs::path(InstalledDataDirOf(self.string())) / installed_rel);
  if (source_dir.empty() || build_dir.empty()) return cands;
  // Inside the build tree: its bin/ or a test binary anywhere below it.
  fs::path build = fs::path(build_dir).lexically_normal();
  fs::path rel = self.lexically_relative(build);
  if (!rel.empty() && *rel.begin() != ".." && *rel.begin() != ".") {
    cands.push_back(fs::path(source_dir) / source_rel);
  }
  return cands;
}

std::string FindGordianDir(const std::string& installed_rel, const std::string& source_rel,
                           bool (*is_it)(const fs::path&)) {
  std::error_code ec;
  // The executable's path is canonical (/proc/self/exe); the build tree's
  // is made so, for a build tree reached through a symlink. Both
  // directories are compiled into this file alone (driver/CMakeLists.txt).
  std::string self = SelfExe();
  std::string build = GORDIAN_BUILD_DIR;
  fs::path canonical_build = fs::weakly_canonical(build, ec);
  if (!ec) build = canonical_build.string();
  for (const fs::path& c :
       GordianDirCandidates(self, installed_rel, source_rel, GORDIAN_SOURCE_DIR, build)) {
    if (is_it(c)) {
      fs::path canonical = fs::weakly_canonical(c, ec);
      return ec ? c.string() : canonical.string();
    }
  }
  return "";
}

bool FindGordianDirOrEnv(const GordianDirSpec& spec, std::string* dir, std::string* err) {
  const char* env = getenv(spec.env);
  if (env != nullptr && *env) {
    if (!spec.is_it(env)) {
      *err = fmt::format("{}={} has no {}; point it at the {} directory of the gordian sources",
                         spec.env, env, spec.holds, spec.source_rel);
      return false;
    }
    *dir = env;
    return true;
  }
  *dir = FindGordianDir(spec.installed_rel, spec.source_rel, spec.is_it);
  if (!dir->empty()) return true;
  *err = fmt::format("cannot find {} ({}/{} with {}, next to the gordian binary); reinstall "
                     "gordian, or set {} to the {} directory of the gordian sources",
                     spec.what, InstalledDataDirOf(SelfExe()), spec.installed_rel, spec.known_by,
                     spec.env, spec.source_rel);
  return false;
}

bool FindHooksDir(std::string* dir, std::string* err) {
  return FindGordianDirOrEnv({"GORDIAN_RUNTIME_DIR", "runtime/std", "runtime/std", IsHooksDir,
                              "the gordian runtime hooks", "patches.txt and runtime/", "patches.txt"},
                             dir, err);
}

}  // namespace gordian::driver
