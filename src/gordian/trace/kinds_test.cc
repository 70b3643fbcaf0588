// This file checks the table of record kinds (kinds.def) against the copies
// of its facts that live outside C++ and so cannot include it: the kinds the
// Go runtime's replay controls (gordianReplayControlled), the KINDS list of
// runtime/tools/tracedump.py, the kind table of docs/trace-format.md and the
// controlled kinds of docs/schedule-format.md. The recorder's gk* numbers
// are checked by instrument/record_constants_test.cc.
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gordian/trace/kinds.h"

namespace gordian::trace {
namespace {

constexpr int kCount = static_cast<int>(Kind::Count_);

std::string ReadSource(const std::string& rel) {
  const char* dir = std::getenv("GORDIAN_SOURCE_DIR");
  std::ifstream in(std::string(dir ? dir : GORDIAN_SOURCE_DIR_DEFAULT) + "/" + rel);
  EXPECT_TRUE(in.good()) << "cannot read " << rel;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Group `group` of every match of re in text, in order.
std::vector<std::string> AllMatches(const std::string& text, const std::string& re,
                                    int group = 0) {
  std::vector<std::string> out;
  std::regex r(re);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), r);
       it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[group]);
  }
  return out;
}

// The names of the kinds whose column says yes, in kind order.
std::vector<std::string> NamesWhere(bool (*pred)(const KindInfo&)) {
  std::vector<std::string> out;
  for (int k = 1; k < kCount; k++) {
    if (pred(kKinds[k])) out.push_back(kKinds[k].name);
  }
  return out;
}

TEST(Kinds, TableIsConsistent) {
  for (int k = 0; k < 256; k++) {
    const KindInfo& i = kKinds[k];
    SCOPED_TRACE(k);
    EXPECT_EQ(i.name != nullptr, k < kCount);
    // A schedule names exactly the kinds it orders.
    EXPECT_EQ(i.controlled, std::string(i.sched) != "other");
    EXPECT_TRUE(!i.at_post || (i.blocking && i.controlled));
  }
}

TEST(Kinds, ReplayControlledMatchesGo) {
  std::string go = ReadSource("runtime/std/runtime/gordian_replay.go");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(go, m, std::regex(
      R"(func gordianReplayControlled\(k uint8\) bool \{\s*switch k \{\s*case ([^:]*):)")))
      << "gordianReplayControlled's case list not found";
  std::vector<std::string> in_go = AllMatches(m[1], R"(gk([A-Za-z]+))", 1);
  std::set<std::string> go_names(in_go.begin(), in_go.end());
  std::vector<std::string> want = NamesWhere([](const KindInfo& i) { return i.controlled; });
  EXPECT_EQ(go_names, std::set<std::string>(want.begin(), want.end()));
}

TEST(Kinds, TracedumpPyMatches) {
  std::string py = ReadSource("runtime/tools/tracedump.py");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(py, m, std::regex(R"(KINDS = \[([^\]]*)\])")))
      << "tracedump.py's KINDS list not found";
  std::vector<std::string> names = AllMatches(m[1], "\"([A-Za-z]+)\"", 1);
  std::vector<std::string> want;
  for (int k = 0; k < kCount; k++) want.push_back(kKinds[k].name);
  EXPECT_EQ(names, want);
}

TEST(Kinds, TraceFormatDocMatches) {
  std::string doc = ReadSource("docs/trace-format.md");
  size_t at = doc.find("### Kinds");
  ASSERT_NE(at, std::string::npos);
  // Rows "| Name | n | ...", until the table ends.
  std::map<int, std::string> rows;
  std::regex row(R"(^\| ([A-Za-z]+) \| (\d+) \|)");
  std::istringstream in(doc.substr(at));
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, row)) {
      EXPECT_TRUE(rows.emplace(std::stoi(m[2]), m[1]).second) << "kind " << m[2] << " twice";
    }
  }
  std::map<int, std::string> want;
  for (int k = 1; k < kCount; k++) want[k] = kKinds[k].name;
  EXPECT_EQ(rows, want);

  // "Blocking kinds (...): ChanSend, ChanRecv, ... All others have".
  std::smatch m;
  ASSERT_TRUE(std::regex_search(doc, m, std::regex(R"(Blocking kinds \([^)]*\):([^.]*)\.)")));
  EXPECT_EQ(AllMatches(m[1], "[A-Za-z]+"), NamesWhere([](const KindInfo& i) { return i.blocking; }));
}

TEST(Kinds, ScheduleFormatDocMatches) {
  std::string doc = ReadSource("docs/schedule-format.md");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(doc, m, std::regex(R"(Controlled kinds \((?:[^()]|`[^`]*`)*\):([^.]*)\.)")));
  // Words outside parentheses: the kind names.
  std::string list = std::regex_replace(std::string(m[1]), std::regex(R"(\([^)]*\))"), "");
  EXPECT_EQ(AllMatches(list, "[A-Za-z]+"), NamesWhere([](const KindInfo& i) { return i.controlled; }));
}

}  // namespace
}  // namespace gordian::trace
