// This file implements the runtime hook set (runtime_hooks.h): parsing
// patches.txt, applying anchor-based patches, and building the std overlay.
#include "gordian/instrument/runtime_hooks.h"

#include "gordian/instrument/go_release.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

namespace gordian::instrument {
namespace fs = std::filesystem;
namespace {

bool ReadFile(const fs::path& p, std::string* out) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return static_cast<bool>(f) || f.eof();
}

bool WriteFile(const fs::path& p, std::string_view data, std::string* err) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  if (ec) {
    *err = fmt::format("cannot create {}: {}", p.parent_path().string(), ec.message());
    return false;
  }
  // Write to a temporary name and rename, so that a concurrent build that
  // reads the overlay never sees a half-written file. The name is unique per
  // process and call: gordian processes started at once (ctest -j, several
  // `gordian test` in one CI job) write the same cached overlay, and a
  // shared ".tmp" name let one rename the other's file away ("cannot rename
  // .tmp"). Both write the same bytes, so whichever rename lands last wins.
  static std::atomic<uint64_t> seq{0};
  fs::path tmp = p;
  tmp += fmt::format(".{}.{}.tmp", static_cast<long>(getpid()), seq.fetch_add(1));
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!f) {
      *err = fmt::format("cannot write {}", tmp.string());
      return false;
    }
  }
  fs::rename(tmp, p, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    *err = fmt::format("cannot rename {} to {}: {}", tmp.string(), p.string(), ec.message());
    return false;
  }
  return true;
}

// The first line of s, for messages.
std::string_view FirstLine(std::string_view s) {
  size_t nl = s.find('\n');
  return nl == std::string_view::npos ? s : s.substr(0, nl);
}

// The Go version of a GOROOT (first line of its VERSION file), or "".
std::string GoVersion(const std::string& goroot) {
  std::string v;
  if (!ReadFile(fs::path(goroot) / "VERSION", &v)) return "";
  return std::string(FirstLine(v));
}

// "go1.N" at the start of s: N, and s advanced past it; 0 when absent.
int TakeRelease(std::string_view* s) {
  if (s->rfind("go1.", 0) != 0) return 0;
  size_t i = 4;
  int minor = 0;
  for (; i < s->size() && std::isdigit(static_cast<unsigned char>((*s)[i])); i++) {
    minor = minor * 10 + ((*s)[i] - '0');
    if (minor > 1000) return 0;
  }
  if (i == 4) return 0;
  s->remove_prefix(i);
  return minor;
}

// "go1.25+", "go1.23-go1.24" or "go1.23" -> [min, max] (0: open).
bool ParseReleaseRange(std::string_view s, int* min, int* max) {
  int lo = TakeRelease(&s);
  if (lo == 0) return false;
  if (s == "+") {
    *min = lo;
    *max = 0;
    return true;
  }
  if (s.empty()) {
    *min = *max = lo;
    return true;
  }
  if (s[0] != '-') return false;
  s.remove_prefix(1);
  int hi = TakeRelease(&s);
  if (hi < lo || !s.empty()) return false;
  *min = lo;
  *max = hi;
  return true;
}

}  // namespace

bool ParseStdPatches(std::string_view text, const std::string& name,
                     std::vector<StdPatch>* out, std::string* err) {
  enum class State { kTop, kAnchor, kText } state = State::kTop;
  std::string file;
  StdPatch cur;
  int lineno = 0;
  // A line of the anchor or text block (what) that the line `close` ends:
  // kClosed for that line, kBad (with *err) for any other "@@" line; any
  // other line joins *block.
  enum class BlockLine { kAdded, kClosed, kBad };
  auto block_line = [&](std::string_view line, std::string_view close, std::string_view what,
                        std::string* block) {
    if (line == close) return BlockLine::kClosed;
    if (line.rfind("@@", 0) == 0) {
      *err = fmt::format("{}:{}: expected '{}' after the {}", name, lineno, close, what);
      return BlockLine::kBad;
    }
    block->append(line).push_back('\n');
    return BlockLine::kAdded;
  };
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    bool had_nl = nl != std::string_view::npos;
    text.remove_prefix(had_nl ? nl + 1 : text.size());
    lineno++;
    switch (state) {
      case State::kTop: {
        if (line.empty() || line[0] == '#') break;
        if (line.rfind("== ", 0) == 0) {
          file = std::string(line.substr(3));
          while (!file.empty() && file.back() == ' ') file.pop_back();
          if (file.empty() || file[0] == '/' || file.find("..") != std::string::npos) {
            *err = fmt::format("{}:{}: bad file name '{}'", name, lineno, file);
            return false;
          }
          break;
        }
        if (line.rfind("@@ ", 0) == 0) {
          std::string_view op = line.substr(3);
          cur = StdPatch();
          cur.line = lineno;
          if (size_t sp = op.find(' '); sp != std::string_view::npos) {
            std::string_view releases = op.substr(sp + 1);
            op = op.substr(0, sp);
            if (!ParseReleaseRange(releases, &cur.min_minor, &cur.max_minor)) {
              *err = fmt::format("{}:{}: bad release range '{}' (go1.25+, go1.23-go1.24 or "
                                 "go1.23)",
                                 name, lineno, releases);
              return false;
            }
          }
          if (op == "insert-before") {
            cur.op = StdPatch::Op::kInsertBefore;
          } else if (op == "insert-after") {
            cur.op = StdPatch::Op::kInsertAfter;
          } else if (op == "replace") {
            cur.op = StdPatch::Op::kReplace;
          } else {
            *err = fmt::format("{}:{}: unknown operation '{}' (insert-before, insert-after, replace)",
                               name, lineno, op);
            return false;
          }
          if (file.empty()) {
            *err = fmt::format("{}:{}: patch before any '== file' line", name, lineno);
            return false;
          }
          cur.file = file;
          state = State::kAnchor;
          break;
        }
        *err = fmt::format("{}:{}: expected '== file', '@@ op' or a comment, got '{}'", name,
                           lineno, line);
        return false;
      }
      case State::kAnchor: {
        BlockLine b = block_line(line, "@@ with", "anchor", &cur.anchor);
        if (b == BlockLine::kBad) return false;
        if (b == BlockLine::kClosed) {
          if (cur.anchor.empty()) {
            *err = fmt::format("{}:{}: empty anchor", name, cur.line);
            return false;
          }
          state = State::kText;
        }
        break;
      }
      case State::kText: {
        BlockLine b = block_line(line, "@@ end", "text", &cur.text);
        if (b == BlockLine::kBad) return false;
        if (b == BlockLine::kClosed) {
          out->push_back(std::move(cur));
          state = State::kTop;
        }
        break;
      }
    }
  }
  if (state != State::kTop) {
    *err = fmt::format("{}:{}: patch not closed with '@@ end'", name, cur.line);
    return false;
  }
  return true;
}

bool ApplyStdPatches(std::string_view original, const std::vector<const StdPatch*>& patches,
                     const std::string& label, std::string* out, std::string* err) {
  struct Edit {
    size_t begin, end;  // anchor range in original
    const StdPatch* p;
  };
  std::vector<Edit> edits;
  for (const StdPatch* p : patches) {
    size_t at = original.find(p->anchor);
    if (at == std::string_view::npos) {
      *err = fmt::format("patches.txt:{}: anchor not found in {}: \"{}\"", p->line, label,
                         FirstLine(p->anchor));
      return false;
    }
    size_t again = original.find(p->anchor, at + 1);
    if (again != std::string_view::npos) {
      *err = fmt::format("patches.txt:{}: anchor occurs more than once in {}: \"{}\"", p->line,
                         label, FirstLine(p->anchor));
      return false;
    }
    edits.push_back({at, at + p->anchor.size(), p});
  }
  std::sort(edits.begin(), edits.end(),
            [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  for (size_t i = 1; i < edits.size(); i++) {
    if (edits[i].begin < edits[i - 1].end) {
      *err = fmt::format("patches.txt:{} and :{}: anchors overlap in {}", edits[i - 1].p->line,
                         edits[i].p->line, label);
      return false;
    }
  }
  out->clear();
  out->reserve(original.size() + 4096);
  size_t pos = 0;
  for (const Edit& e : edits) {
    out->append(original.substr(pos, e.begin - pos));
    std::string_view anchor = original.substr(e.begin, e.end - e.begin);
    switch (e.p->op) {
      case StdPatch::Op::kInsertBefore:
        out->append(e.p->text).append(anchor);
        break;
      case StdPatch::Op::kInsertAfter:
        out->append(anchor).append(e.p->text);
        break;
      case StdPatch::Op::kReplace:
        out->append(e.p->text);
        break;
    }
    pos = e.end;
  }
  out->append(original.substr(pos));
  return true;
}

bool BuildStdOverlay(const std::string& goroot, const std::string& hooks_dir,
                     const std::string& work_dir, std::vector<OverlayPair>* replace,
                     std::string* err) {
  const fs::path src = fs::path(goroot) / "src";
  const fs::path hooks(hooks_dir);
  const fs::path out_dir = fs::path(work_dir) / "std";
  std::error_code ec;
  if (!fs::is_directory(src / "runtime", ec)) {
    *err = fmt::format("{} is not a Go root (no src/runtime); pass the output of 'go env GOROOT'",
                       goroot);
    return false;
  }
  const std::string version = GoVersion(goroot);
  const std::string for_go = version.empty() ? "" : fmt::format(" ({})", version);
  int minor = 0;
  if (!GoMinorOfRoot(goroot, &minor, err)) return false;
  if (!CheckGoReleaseSupported(minor, version, err)) return false;

  std::string text;
  const fs::path patches_path = hooks / "patches.txt";
  if (!ReadFile(patches_path, &text)) {
    *err = fmt::format("cannot read {}: the runtime hooks are missing from this installation",
                       patches_path.string());
    return false;
  }
  std::vector<StdPatch> patches;
  if (!ParseStdPatches(text, patches_path.string(), &patches, err)) return false;

  // Patched copies, one per file, in the order the files first appear.
  std::map<std::string, std::vector<const StdPatch*>> by_file;
  std::vector<std::string> order;
  for (const StdPatch& p : patches) {
    if (!p.AppliesTo(minor)) continue;
    auto [it, inserted] = by_file.try_emplace(p.file);
    if (inserted) order.push_back(p.file);
    it->second.push_back(&p);
  }
  for (const std::string& file : order) {
    const fs::path orig = src / file;
    std::string original, patched;
    if (!ReadFile(orig, &original)) {
      *err = fmt::format("cannot read {}{}: the runtime hooks patch a file this Go "
                         "installation does not have; is {} a complete Go root?",
                         orig.string(), for_go, goroot);
      return false;
    }
    if (!ApplyStdPatches(original, by_file[file], orig.string() + for_go, &patched, err)) {
      // The release is supported, so its sources changed in a patch
      // release the hooks were not checked against.
      *err += fmt::format(
          "; the runtime hooks do not fit these sources although Go 1.{} is supported "
          "(tested with {}): use that patch release (GOTOOLCHAIN={}) or another of {}, and "
          "report this, since runtime/tools/gen_patches.py needs a patch for the new sources",
          minor, FindGoRelease(minor)->tested, FindGoRelease(minor)->tested,
          SupportedGoReleasesText());
      return false;
    }
    const fs::path copy = out_dir / file;
    if (!WriteFile(copy, patched, err)) return false;
    replace->emplace_back(orig.string(), copy.string());
  }

  // Added files: hooks/<pkg>/*.go -> GOROOT/src/<pkg>/<name>.
  std::vector<fs::path> added;
  for (auto it = fs::recursive_directory_iterator(hooks, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".go") added.push_back(it->path());
  }
  if (ec) {
    *err = fmt::format("cannot list {}: {}", hooks.string(), ec.message());
    return false;
  }
  std::sort(added.begin(), added.end());
  for (const fs::path& f : added) {
    fs::path rel = fs::relative(f, hooks, ec);
    if (ec || rel.parent_path().empty()) continue;  // files at the top level are not hooks
    const fs::path pkg_dir = src / rel.parent_path();
    if (!fs::is_directory(pkg_dir, ec)) {
      *err = fmt::format("{}: package directory {} does not exist in this Go version{}",
                         f.string(), pkg_dir.string(), for_go);
      return false;
    }
    const fs::path target = src / rel;
    if (fs::exists(target, ec)) {
      *err = fmt::format("{} already exists in GOROOT{}: the hook file {} would replace it",
                         target.string(), for_go, f.string());
      return false;
    }
    std::string data;
    if (!ReadFile(f, &data)) {
      *err = fmt::format("cannot read {}", f.string());
      return false;
    }
    const fs::path copy = out_dir / rel;
    if (!WriteFile(copy, data, err)) return false;
    replace->emplace_back(target.string(), copy.string());
  }
  return true;
}

std::string OverlayJson(const std::vector<OverlayPair>& replace) {
  nlohmann::ordered_json r = nlohmann::ordered_json::object();
  for (const auto& [orig, copy] : replace) r[orig] = copy;
  nlohmann::ordered_json j;
  j["Replace"] = r;
  return j.dump(1) + "\n";
}

}  // namespace gordian::instrument
