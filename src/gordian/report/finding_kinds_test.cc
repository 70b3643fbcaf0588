// This file checks the table of finding kinds (finding_kinds.def) against the
// kind table of docs/reports.md: every kind there, with its severity, and no
// other.
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "gordian/report/finding.h"

namespace gordian::report {
namespace {

TEST(FindingKinds, ReportsDocMatches) {
  const char* dir = std::getenv("GORDIAN_SOURCE_DIR");
  std::ifstream in(std::string(dir ? dir : GORDIAN_SOURCE_DIR_DEFAULT) + "/docs/reports.md");
  ASSERT_TRUE(in.good()) << "cannot read docs/reports.md";
  // Rows "| `kind`[, `kind`...] | severity | ...".
  std::regex row(R"(^\| (`[a-z-]+`(?:, `[a-z-]+`)*) \| (bug|warning|info) \|)");
  std::regex name("`([a-z-]+)`");
  std::map<std::string, std::string> doc;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    std::string names = m[1], severity = m[2];
    for (auto it = std::sregex_iterator(names.begin(), names.end(), name);
         it != std::sregex_iterator(); ++it) {
      EXPECT_TRUE(doc.emplace((*it)[1], severity).second) << (*it)[1] << " twice";
    }
  }
  std::map<std::string, std::string> want;
  for (int i = 0; i < static_cast<int>(FindingKind::Count_); i++) {
    auto k = static_cast<FindingKind>(i);
    want[std::string(KindName(k))] = std::string(SeverityName(DefaultSeverity(k)));
  }
  EXPECT_EQ(doc, want);
}

// Every kind that stops the program, but a user's panic, names the messages
// Go's runtime stops it with (the occurred detector matches panics by them),
// and no other kind does.
TEST(FindingKinds, RuntimeFailuresNameTheirPanicMessages) {
  for (int i = 0; i < static_cast<int>(FindingKind::Count_); i++) {
    auto k = static_cast<FindingKind>(i);
    std::vector<std::string_view> texts = RuntimePanicTexts(k);
    if (Crashes(k) && k != FindingKind::Panic) {
      EXPECT_FALSE(texts.empty()) << KindName(k);
    } else {
      EXPECT_TRUE(texts.empty()) << KindName(k);
    }
    for (std::string_view t : texts) EXPECT_FALSE(t.empty()) << KindName(k);
  }
  EXPECT_EQ(RuntimePanicTexts(FindingKind::UnlockOfUnlocked),
            (std::vector<std::string_view>{"sync: unlock of unlocked mutex",
                                           "sync: Unlock of unlocked RWMutex",
                                           "sync: RUnlock of unlocked RWMutex"}));
  EXPECT_EQ(ShowsOf(FindingKind::UnlockOfUnlocked), Shows::Fatal);
  EXPECT_EQ(ShowsOf(FindingKind::SendOnClosed), Shows::Panics);
}

// A recover stops a panic, not a fatal runtime error, nor a bug that does
// not stop the program at all.
TEST(FindingKinds, OnlyPanicsAreRecoverable) {
  EXPECT_TRUE(Recoverable(FindingKind::SendOnClosed));
  EXPECT_TRUE(Recoverable(FindingKind::NegativeWaitGroup));
  EXPECT_TRUE(Recoverable(FindingKind::Panic));
  EXPECT_FALSE(Recoverable(FindingKind::UnlockOfUnlocked));
  EXPECT_FALSE(Recoverable(FindingKind::GlobalDeadlock));
  EXPECT_FALSE(Recoverable(FindingKind::DataRace));
}

}  // namespace
}  // namespace gordian::report
