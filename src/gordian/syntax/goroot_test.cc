// Parses every .go file under $(go env GOROOT)/src outside testdata
// directories and asserts that each one parses without errors (branch checks
// included) into a well formed tree (parser_testing.h). Skipped when Go is
// not installed.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/syntax/parser_testing.h"
#include "gordian/syntax/syntax.h"

namespace gordian::syntax {
namespace {

namespace fs = std::filesystem;

std::string GoRootSrc() {
  std::string out;
  if (FILE* f = popen("go env GOROOT 2>/dev/null", "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    pclose(f);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out.empty() ? out : out + "/src";
}

std::vector<std::string> GoFilesUnder(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory() && it->path().filename() == "testdata") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".go") {
      files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(GoRoot, EveryFileParsesWithoutErrors) {
  std::string src_dir = GoRootSrc();
  if (src_dir.empty() || !fs::is_directory(src_dir)) GTEST_SKIP() << "go is not installed";
  std::vector<std::string> files = GoFilesUnder(src_dir);
  ASSERT_GT(files.size(), 1000u);

  SourceSet set;
  size_t bytes = 0, failed = 0, malformed = 0;
  double parse_secs = 0;
  for (const std::string& path : files) {
    std::string err;
    SourceFile* src = set.ReadFile(path, &err);
    ASSERT_NE(src, nullptr) << err;
    bytes += src->size();
    Arena arena;
    std::vector<std::string> errors;
    auto t0 = std::chrono::steady_clock::now();
    // kCheckBranches: the standard library has no misplaced labels or
    // branches either.
    ParseResult r = Parse(*src, &arena, [&](const Error& e) {
      if (errors.size() < 3) errors.push_back(FormatError(*src, e));
    }, kCheckBranches);
    parse_secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r.error_count != 0) {
      if (++failed <= 10) ADD_FAILURE() << path << ": " << errors[0];
      continue;
    }
    std::string problem = testing::CheckTree(r.file, *src);
    if (!problem.empty() && ++malformed <= 10) ADD_FAILURE() << path << ": " << problem;
  }
  std::printf("parsed %zu files, %zu bytes (%.1f MB) in %.2fs (%.1f MB/s); %zu with errors, "
              "%zu malformed trees\n",
              files.size(), bytes, static_cast<double>(bytes) / 1e6, parse_secs,
              static_cast<double>(bytes) / 1e6 / parse_secs, failed, malformed);
  EXPECT_EQ(failed, 0u);
  EXPECT_EQ(malformed, 0u);
}

}  // namespace
}  // namespace gordian::syntax
