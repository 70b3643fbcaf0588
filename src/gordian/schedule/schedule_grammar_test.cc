// The C++ reader on the grammar corpus (testdata/grammar/): every ok-* case
// is accepted, every bad-* case refused with an error that names the line
// (the runtime's verdicts on the same files: schedule_grammar_replay_test.cc).
#include <string>

#include <gtest/gtest.h>

#include "gordian/schedule/grammar_corpus.h"
#include "gordian/schedule/schedule.h"

namespace gordian::schedule {
namespace {

TEST(ScheduleGrammar, CorpusVerdictsOfTheCppReader) {
  std::vector<GrammarCase> cases = GrammarCorpus();
  ASSERT_GT(cases.size(), 100u) << "GORDIAN_SOURCE_DIR must name the source tree";
  size_t ok = 0;
  for (const GrammarCase& c : cases) {
    ASSERT_FALSE(c.name.empty()) << c.path << ": a case is named ok-* or bad-*";
    ok += c.valid;
    Schedule s;
    std::string err;
    bool accepted = ReadSchedule(c.path, &s, &err);
    EXPECT_EQ(accepted, c.valid) << c.name << ": " << (accepted ? "accepted" : err);
    if (accepted && c.valid) {
      // What the reader accepts, the writer writes back in the grammar.
      Schedule t;
      EXPECT_TRUE(ParseSchedule(FormatSchedule(s), &t, &err)) << c.name << ": " << err;
    }
    if (!accepted && !c.valid && c.name != "bad-empty" && c.name != "bad-only-comments") {
      // Only a file without a header is refused as a whole.
      EXPECT_NE(err.find("schedule line "), std::string::npos) << c.name << ": " << err;
    }
  }
  EXPECT_GT(ok, 20u);
  EXPECT_GT(cases.size() - ok, 60u);
}

}  // namespace
}  // namespace gordian::schedule
