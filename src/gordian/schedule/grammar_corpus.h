// This file lists the schedule grammar corpus (testdata/grammar/) for the
// tests that feed it to the readers: each case's file and whether the
// grammar accepts it (its name begins "ok-" or "bad-").
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace gordian::schedule {

struct GrammarCase {
  std::string name;  // the file name without .schedule
  std::string path;
  bool valid = false;
};

// The cases in name order, or none when GORDIAN_SOURCE_DIR is not set.
// A file named neither ok-* nor bad-* is listed with an empty name: a
// test must refuse a case without a label rather than skip it.
inline std::vector<GrammarCase> GrammarCorpus() {
  std::vector<GrammarCase> out;
  const char* src = std::getenv("GORDIAN_SOURCE_DIR");
  if (src == nullptr) return out;
  std::filesystem::path dir =
      std::filesystem::path(src) / "src/gordian/schedule/testdata/grammar";
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".schedule") continue;
    GrammarCase c;
    c.path = e.path().string();
    std::string stem = e.path().stem().string();
    c.valid = stem.starts_with("ok-");
    if (c.valid || stem.starts_with("bad-")) c.name = stem;
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(),
            [](const GrammarCase& a, const GrammarCase& b) { return a.path < b.path; });
  return out;
}

}  // namespace gordian::schedule
