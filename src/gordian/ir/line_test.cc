// Tests of the IR's lexical layer: splitting lines into words, quoting.
#include "gordian/ir/line.h"

#include <gtest/gtest.h>

namespace gordian::ir {
namespace {

TEST(IrLine, SplitsRecordPositionalAndFields) {
  std::string rec, err;
  std::vector<LineWord> w;
  ASSERT_TRUE(SplitLine(R"(op send pos=a.go:3:4 ch=t1 type="chan int" note="a\"b\\c\n\x41")", &rec, &w, &err)) << err;
  EXPECT_EQ(rec, "op");
  ASSERT_EQ(w.size(), 5u);
  EXPECT_EQ(w[0].key, "");
  EXPECT_EQ(w[0].value, "send");
  EXPECT_EQ(w[1].key, "pos");
  EXPECT_EQ(w[1].value, "a.go:3:4");
  EXPECT_EQ(w[3].value, "chan int");
  EXPECT_EQ(w[4].value, "a\"b\\c\nA");
}

TEST(IrLine, QuotedPositionalWord) {
  std::string rec, err;
  std::vector<LineWord> w;
  ASSERT_TRUE(SplitLine(R"(package "a b" name=p)", &rec, &w, &err)) << err;
  EXPECT_EQ(w[0].key, "");
  EXPECT_EQ(w[0].value, "a b");
}

TEST(IrLine, RejectsMalformedLines) {
  const char* bad[] = {
      "",                        // empty
      "op  send",                // two spaces
      "op send ",                // trailing space
      "op send x=\"unterminated",
      "op send x=\"bad \\q escape\"",
      "op send x=\"bad \\x4\"",
      "op send x=",              // empty bare value
      "op send =v",              // no key
      "op send x=a\"b",          // quote inside bare value
      "op send x=\"a\"b",        // text after the closing quote
      "op\tsend",                // control character
      "=x",
  };
  for (const char* line : bad) {
    std::string rec, err;
    std::vector<LineWord> w;
    EXPECT_FALSE(SplitLine(line, &rec, &w, &err)) << "accepted: " << line;
    EXPECT_FALSE(err.empty()) << line;
  }
}

TEST(IrLine, QuoteRoundTrips) {
  for (const std::string& s : std::vector<std::string>{"plain", "", "two words", "a\"b", "back\\slash", "new\nline", "k=v",
                        std::string("\x01" "ctl"), "chan<- int", "tab\there"}) {
    std::string q = Quote(s);
    std::string rec, err;
    std::vector<LineWord> w;
    ASSERT_TRUE(SplitLine("r " + q, &rec, &w, &err)) << q << ": " << err;
    ASSERT_EQ(w.size(), 1u) << q;
    EXPECT_EQ(w[0].value, s) << q;
  }
  EXPECT_EQ(Quote("t3"), "t3");
  EXPECT_EQ(Quote("chan int"), "\"chan int\"");
}

}  // namespace
}  // namespace gordian::ir
