// This file checks that the record kinds and flags the Go recorder writes
// (constants gk* and gf* in runtime/std/runtime and runtime/std/sync, which
// are separate std packages and so each keep their own copy) have the values
// of the C++ contract in src/gordian/trace/event.h and kinds.def. A drift
// between the copies would silently mislabel every record, so it fails here
// instead.
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "gordian/trace/kinds.h"

namespace gordian::instrument {
namespace {

using trace::Kind;

std::string SourceDir() {
  const char* s = std::getenv("GORDIAN_SOURCE_DIR");
  return s ? s : GORDIAN_SOURCE_DIR_DEFAULT;
}

// The contract's values, by the Go constant's name without its prefix.
const std::map<std::string, long>& Contract() {
  static const std::map<std::string, long> values = [] {
    std::map<std::string, long> v = {
        {"kCount", long(Kind::Count_)},
        {"fClosed", trace::kClosed}, {"fSuccess", trace::kSuccess},
        {"fFailed", trace::kFailed}, {"fHasDefault", trace::kHasDefault},
        {"fDirSend", trace::kDirSend}, {"fDirRecv", trace::kDirRecv},
        {"fChosen", trace::kChosen}, {"fTimer", trace::kTimer},
        {"fExitChecked", trace::kExitChecked}, {"fZeroSize", trace::kZeroSize},
    };
    for (int k = 1; k < int(Kind::Count_); k++) v[std::string("k") + trace::kKinds[k].name] = k;
    return v;
  }();
  return values;
}

// Checks every `g[kf]Name = N` or `= 1 << N` constant of one Go file; returns
// how many it checked.
int CheckFile(const std::string& rel) {
  std::ifstream in(SourceDir() + "/" + rel);
  EXPECT_TRUE(in.good()) << "cannot read " << rel;
  static const std::regex constant(R"(^\s*g([kf][A-Za-z]+)\s*=\s*(\d+)(\s*<<\s*(\d+))?\s*$)");
  int checked = 0;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, constant)) continue;
    long value = std::stol(m[2]);
    if (m[4].matched) value <<= std::stol(m[4]);
    auto c = Contract().find(m[1]);
    if (c == Contract().end()) {
      ADD_FAILURE() << rel << ": g" << m[1] << " has no counterpart in event.h";
      continue;
    }
    EXPECT_EQ(value, c->second) << rel << ": g" << m[1] << " differs from event.h";
    checked++;
  }
  return checked;
}

TEST(RecordConstants, RuntimeMatchesEventH) {
  EXPECT_GE(CheckFile("runtime/std/runtime/gordian.go"), 30);
}

TEST(RecordConstants, SyncMatchesEventH) {
  EXPECT_GE(CheckFile("runtime/std/sync/gordian_sync.go"), 15);
}

}  // namespace
}  // namespace gordian::instrument
