// This file implements the fuzzing corpus directory (corpus.h).
#include "gordian/fuzz/corpus.h"
#include "gordian/util/fnv.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

namespace gordian::fuzz {

namespace fs = std::filesystem;

namespace {

// What a corpus file holds: the schedule without what belongs to one
// machine or one recording.
schedule::Schedule Stored(const schedule::Schedule& s) {
  schedule::Schedule t = s;
  // Sites in the package's directory, relative to it ("./a_test.go:12").
  if (!s.cmd.cwd.empty()) {
    std::string prefix = s.cmd.cwd + (s.cmd.cwd.back() == '/' ? "" : "/");
    auto relative = [&](std::string& site) {
      if (site.starts_with(prefix)) site.replace(0, prefix.size(), "./");
    };
    for (schedule::Op& op : t.ops) relative(op.site);
    for (schedule::Preference& p : t.prefers) relative(p.site);
    for (schedule::Delay& d : t.delays) relative(d.site);
  }
  t.cmd = schedule::Invocation();
  // A bug's schedule says which bug it reproduces ("gordian fuzz: reproduces
  // ..."); any other says it is the corpus'.
  if (!s.origin.starts_with("gordian fuzz: ")) t.origin = "gordian fuzz corpus";
  t.expect.clear();
  return t;
}

}  // namespace

std::vector<CorpusEntry> LoadCorpus(const std::string& dir, const std::string& package_dir,
                                    std::vector<std::string>* warnings) {
  std::vector<CorpusEntry> out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  if (!fs::is_directory(dir, ec)) {
    warnings->push_back(fmt::format("{}: not a directory; no corpus read", dir));
    return out;
  }
  std::vector<fs::path> files;
  fs::directory_iterator it(dir, ec), end;
  if (ec) {
    warnings->push_back(fmt::format("{}: cannot read the directory: {}", dir, ec.message()));
    return out;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) break;
    std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    if (!it->is_regular_file(ec)) {
      warnings->push_back(fmt::format("{}: not a file; skipped", it->path().string()));
      continue;
    }
    // A schedule the fuzzer keeps is a few KB (a rewrite of a big run a
    // few MB): a larger file is not one, and reading it whole would cost
    // its size many times over in memory.
    constexpr uintmax_t kMaxScheduleBytes = 16u << 20;
    if (uintmax_t size = it->file_size(ec); !ec && size > kMaxScheduleBytes) {
      warnings->push_back(fmt::format("{}: {} MiB, larger than a corpus schedule can be (16 MiB); "
                                      "skipped", it->path().string(), size >> 20));
      continue;
    }
    files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    CorpusEntry e;
    e.path = p.string();
    std::string err;
    if (!schedule::ReadSchedule(e.path, &e.schedule, &err)) {
      warnings->push_back(fmt::format("{}: {}; skipped", e.path, err));
      continue;
    }
    if (e.schedule.goroutines.empty() || e.schedule.goroutines[0] != "1") {
      warnings->push_back(fmt::format("{}: no \"g 1\" line (main first); skipped", e.path));
      continue;
    }
    if (!package_dir.empty()) {
      std::string prefix = package_dir + (package_dir.back() == '/' ? "" : "/");
      auto absolute = [&](std::string& site) {
        if (site.starts_with("./")) site.replace(0, 2, prefix);
      };
      for (schedule::Op& op : e.schedule.ops) absolute(op.site);
      for (schedule::Preference& pref : e.schedule.prefers) absolute(pref.site);
      for (schedule::Delay& d : e.schedule.delays) absolute(d.site);
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::string CorpusName(const schedule::Schedule& s) {
  return fmt::format("{:016x}", util::Fnv1a64(schedule::FormatSchedule(Stored(s))));
}

bool AddToCorpus(const std::string& dir, const schedule::Schedule& s, bool* added,
                 std::string* err) {
  *added = false;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    *err = fmt::format("cannot make the corpus directory {}: {}", dir, ec.message());
    return false;
  }
  std::string text = schedule::FormatSchedule(Stored(s));
  fs::path final_path = fs::path(dir) / fmt::format("{:016x}", util::Fnv1a64(text));
  if (fs::exists(final_path, ec)) return true;
  // Aside under a dot name (LoadCorpus skips those), then renamed: a
  // campaign reading the directory meanwhile never sees half a file.
  fs::path tmp = fs::path(dir) / fmt::format(".{}.{}.tmp", final_path.filename().string(), getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    f.close();
    if (!f) {
      fs::remove(tmp, ec);
      *err = fmt::format("cannot write {}", tmp.string());
      return false;
    }
  }
  fs::rename(tmp, final_path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    *err = fmt::format("cannot write {}: {}", final_path.string(), ec.message());
    return false;
  }
  *added = true;
  return true;
}

}  // namespace gordian::fuzz
