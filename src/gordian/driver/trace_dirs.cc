// This file implements the record output layout (trace_dirs.h).
#include "gordian/driver/trace_dirs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace gordian::driver {
namespace fs = std::filesystem;
namespace {

// The files gordian writes in a package's trace directory.
constexpr const char* kTraceFiles[] = {"events.bin", "sites.txt", "strings.txt", "meta.txt",
                                       "goroutines.txt", kKeptBinaryFile};

bool ReadIndex(const std::string& base, std::vector<PackageTrace>* out) {
  std::ifstream in(base + "/packages.txt");
  if (!in) return false;
  for (std::string line; std::getline(in, line);) {
    size_t t1 = line.find('\t');
    if (t1 == std::string::npos) continue;
    size_t t2 = line.find('\t', t1 + 1);
    PackageTrace p;
    p.name = line.substr(0, t1);
    p.import_path = line.substr(t1 + 1, t2 == std::string::npos ? std::string::npos : t2 - t1 - 1);
    if (t2 != std::string::npos) p.source_dir = line.substr(t2 + 1);
    if (p.name.empty() || p.name.find('/') != std::string::npos || p.name == "." ||
        p.name == "..") {
      continue;
    }
    p.trace_dir = base + "/" + p.name;
    out->push_back(std::move(p));
  }
  return true;
}

// True when path is a package trace directory that gordian wrote and may
// delete: a real directory (not a symlink) whose entries are all regular
// files with the names the recorder writes (the trace files, and the race
// detector's logs "race.<pid>"). A packages.txt can name anything; only
// what passes this check is removed.
bool IsOurPackageDir(const fs::path& path) {
  std::error_code ec;
  fs::file_status st = fs::symlink_status(path, ec);
  if (ec || !fs::is_directory(st)) return false;
  for (const fs::directory_entry& e : fs::directory_iterator(path, ec)) {
    std::string name = e.path().filename().string();
    bool known = false;
    for (const char* f : kTraceFiles) known = known || name == f;
    if (!known && name.starts_with("race.") && name.size() > 5) {
      known = name.find_first_not_of("0123456789", 5) == std::string::npos;
    }
    if (!known || !fs::is_regular_file(e.symlink_status(ec))) return false;
  }
  return !ec;
}

}  // namespace

std::string EscapePackagePath(const std::string& import_path) {
  std::string s;
  for (char c : import_path) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    s += c == '/' ? '_' : ok ? c : '-';
  }
  if (s.empty() || s == "." || s == "..") s = "pkg" + s;
  return s;
}

bool PrepareOutputDir(const std::string& dir, std::string* err) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) {
      *err = fmt::format("cannot create {}: {}", dir, ec.message());
      return false;
    }
    return true;
  }
  if (!fs::is_directory(dir, ec)) {
    *err = fmt::format("{} exists and is not a directory; choose another with -o", dir);
    return false;
  }
  bool empty = fs::is_empty(dir, ec);
  bool ours = fs::exists(dir + "/events.bin", ec) || fs::exists(dir + "/packages.txt", ec);
  if (empty) return true;
  if (!ours) {
    *err = fmt::format("{} is not empty and holds no gordian trace; remove it or choose "
                       "another directory with -o",
                       dir);
    return false;
  }
  std::vector<PackageTrace> old;
  ReadIndex(dir, &old);
  // Check everything before deleting anything: a packages.txt that names a
  // directory gordian did not write (crafted, or the user's own files put
  // there since) stops the run with nothing removed.
  for (const PackageTrace& p : old) {
    if (fs::exists(fs::symlink_status(p.trace_dir, ec)) && !IsOurPackageDir(p.trace_dir)) {
      *err = fmt::format("{} holds an earlier trace whose index names {}, which holds files "
                         "gordian did not write; nothing was removed: remove {} yourself or "
                         "choose another directory with -o",
                         dir, p.trace_dir, dir);
      return false;
    }
  }
  for (const PackageTrace& p : old) {
    if (IsOurPackageDir(p.trace_dir)) fs::remove_all(p.trace_dir, ec);
  }
  fs::remove(dir + "/packages.txt", ec);
  for (const char* f : kTraceFiles) fs::remove(dir + "/" + f, ec);
  return true;
}

bool ListTraces(const std::string& dir, std::vector<PackageTrace>* out, std::string* err) {
  out->clear();
  std::error_code ec;
  if (fs::exists(dir + "/events.bin", ec)) {
    PackageTrace p;
    p.trace_dir = dir;
    out->push_back(std::move(p));
    return true;
  }
  std::vector<PackageTrace> all;
  if (!ReadIndex(dir, &all)) {
    *err = fs::exists(dir, ec)
               ? fmt::format("{}: no events.bin and no packages.txt: not a gordian trace "
                             "directory (record one with 'gordian record')",
                             dir)
               : fmt::format("{}: no such directory", dir);
    return false;
  }
  for (PackageTrace& p : all) {
    if (fs::exists(p.trace_dir + "/events.bin", ec)) out->push_back(std::move(p));
  }
  return true;
}

bool ClaimPackageDir(const std::string& base, const std::string& import_path,
                     const std::string& source_dir, std::string* trace_dir,
                     std::string* err) {
  std::string name0 = EscapePackagePath(
      import_path.empty() ? fs::path(source_dir).filename().string() : import_path);
  std::string name;
  for (int i = 1;; i++) {
    name = i == 1 ? name0 : fmt::format("{}-{}", name0, i);
    std::string d = base + "/" + name;
    if (mkdir(d.c_str(), 0777) == 0) break;
    if (errno != EEXIST || i > 1000) {
      *err = fmt::format("cannot create {}: {}", d, strerror(errno));
      return false;
    }
  }
  *trace_dir = base + "/" + name;
  std::string line = fmt::format("{}\t{}\t{}\n", name, import_path, source_dir);
  int fd = open((base + "/packages.txt").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                0666);
  if (fd < 0 || write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    *err = fmt::format("cannot append to {}/packages.txt: {}", base, strerror(errno));
    if (fd >= 0) close(fd);
    return false;
  }
  close(fd);
  return true;
}

std::string ImportPathOfDir(const std::string& dir) {
  std::error_code ec;
  fs::path d = fs::weakly_canonical(dir, ec);
  if (ec) d = dir;
  for (fs::path p = d;; p = p.parent_path()) {
    std::ifstream in(p / "go.mod");
    if (in) {
      std::string module;
      for (std::string line; std::getline(in, line);) {
        std::istringstream ls(line);
        std::string kw;
        ls >> kw;
        if (kw == "module") {
          ls >> module;
          if (module.size() >= 2 && module.front() == '"' && module.back() == '"') {
            module = module.substr(1, module.size() - 2);
          }
          break;
        }
      }
      if (module.empty()) return "";
      fs::path rel = d.lexically_relative(p);
      if (rel.empty() || rel == ".") return module;
      return module + "/" + rel.generic_string();
    }
    if (!p.has_parent_path() || p.parent_path() == p) return "";
  }
}

}  // namespace gordian::driver
