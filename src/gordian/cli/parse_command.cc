// This file implements `gordian parse`: parse Go files or directory trees,
// print syntax errors in the Go compiler's format, optionally dump the AST
// and print statistics.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/syntax/dump.h"
#include "gordian/syntax/syntax.h"
#include "gordian/util/flags.h"

namespace gordian::cli {
namespace {

namespace fs = std::filesystem;

// Collects .go files under path the way the go tool does: directories named
// testdata, or starting with '.' or '_', are skipped. Files are sorted.
bool CollectGoFiles(const std::string& path, std::vector<std::string>* out,
                    std::string* err) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    *err = fmt::format("{}: no such file or directory", path);
    return false;
  }
  if (!fs::is_directory(st)) {
    out->push_back(path);
    return true;
  }
  std::vector<std::string> found;
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    *err = fmt::format("{}: {}", path, ec.message());
    return false;
  }
  for (auto end = fs::recursive_directory_iterator(); it != end; it.increment(ec)) {
    if (ec) break;
    const fs::path& p = it->path();
    std::string base = p.filename().string();
    if (it->is_directory(ec)) {
      if (base == "testdata" || base.starts_with(".") || base.starts_with("_")) {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (p.extension() == ".go" && !base.starts_with(".") && !base.starts_with("_") &&
        it->is_regular_file(ec)) {
      found.push_back(p.string());
    }
  }
  std::sort(found.begin(), found.end());
  out->insert(out->end(), found.begin(), found.end());
  return true;
}

}  // namespace

int RunParse(const std::vector<std::string>& args) {
  util::FlagSet flags("gordian parse");
  flags.Interspersed();  // flags may follow the paths
  bool dump = false, stats = false;
  flags.Bool("dump", &dump, "print the syntax tree of each file");
  flags.Bool("stats", &stats, "print counts and throughput; the last line is 'parsed N files, E errors'");
  std::vector<std::string> paths;
  const char* usage =
      "usage: gordian parse [--dump] [--stats] PATH...\n\n"
      "Parses Go files, or every .go file under directories (skipping testdata),\n"
      "and prints syntax errors as file:line:col: message.\n"
      "Exit status 1 when there are syntax errors, 2 when a path cannot be read.\n\n";
  if (auto done = ParseCommandLine(&flags, args, &paths, usage)) return *done;
  std::string err;
  if (paths.empty()) return UsageError("gordian parse: missing PATH (see 'gordian parse --help')");

  std::vector<std::string> files;
  for (const std::string& p : paths) {
    if (!CollectGoFiles(p, &files, &err)) {
      fmt::print(stderr, "gordian parse: {}\n", err);
      return kExitToolError;
    }
  }

  auto start = std::chrono::steady_clock::now();
  syntax::SourceSet sources;
  size_t bytes = 0;
  int errors = 0, unreadable = 0;
  for (const std::string& path : files) {
    syntax::SourceFile* src = sources.ReadFile(path, &err);
    if (src == nullptr) {
      fmt::print(stderr, "gordian parse: {}\n", err);
      unreadable++;
      continue;
    }
    bytes += src->size();
    syntax::Arena arena;  // one arena per file: memory stays flat over big trees
    auto report = [&](const syntax::Error& e) {
      fmt::print(stderr, "{}\n", syntax::FormatError(*src, e));
    };
    syntax::ParseResult r = syntax::Parse(*src, &arena, report);
    errors += r.error_count;
    if (dump) fmt::print("{}", syntax::DumpFile(*r.file));
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (stats) {
    fmt::print("{} bytes in {:.3f}s ({:.1f} MB/s)\n", bytes, secs,
               secs > 0 ? static_cast<double>(bytes) / 1e6 / secs : 0.0);
    fmt::print("parsed {} files, {} errors\n", files.size() - static_cast<size_t>(unreadable),
               errors);
  }
  if (unreadable > 0) return kExitToolError;
  return errors > 0 ? kExitFound : kExitOK;
}

}  // namespace gordian::cli
