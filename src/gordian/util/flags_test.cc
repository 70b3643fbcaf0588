// Tests of the flag parser: Go's conventions, and flags after positional
// arguments for the commands that allow them (`gordian analyze DIR --json
// f` took "--json" and "f" as two more directories).
#include "gordian/util/flags.h"

#include <gtest/gtest.h>

namespace gordian::util {
namespace {

struct Parsed {
  bool ok = false;
  std::vector<std::string> pos;
  std::string json;
  bool verbose = false;
  std::string err;
};

Parsed Parse(std::vector<std::string> args, bool interspersed) {
  Parsed p;
  FlagSet f("gordian analyze");
  if (interspersed) f.Interspersed();
  f.String("json", &p.json, "FILE", "");
  f.Bool("verbose", &p.verbose, "");
  bool help = false;
  p.ok = f.Parse(args, &p.pos, &help, &p.err);
  return p;
}

TEST(Flags, GoConventions) {
  Parsed p = Parse({"-json", "out.json", "--verbose", "dir"}, false);
  ASSERT_TRUE(p.ok) << p.err;
  EXPECT_EQ(p.json, "out.json");
  EXPECT_TRUE(p.verbose);
  EXPECT_EQ(p.pos, std::vector<std::string>({"dir"}));
  p = Parse({"--json=x", "-verbose=false", "dir"}, false);
  ASSERT_TRUE(p.ok) << p.err;
  EXPECT_EQ(p.json, "x");
  EXPECT_FALSE(p.verbose);
  p = Parse({"-nope"}, false);
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.err.find("unknown flag -nope"), std::string::npos) << p.err;
}

TEST(Flags, StopAtFirstPositionalUnlessInterspersed) {
  Parsed p = Parse({"dir", "--json", "f"}, false);
  ASSERT_TRUE(p.ok) << p.err;
  EXPECT_EQ(p.pos, std::vector<std::string>({"dir", "--json", "f"}));
  p = Parse({"dir", "--json", "f", "dir2", "-verbose"}, true);
  ASSERT_TRUE(p.ok) << p.err;
  EXPECT_EQ(p.json, "f");
  EXPECT_TRUE(p.verbose);
  EXPECT_EQ(p.pos, std::vector<std::string>({"dir", "dir2"}));
  // "--" still ends the flags: what follows is positional.
  p = Parse({"dir", "--", "-verbose"}, true);
  ASSERT_TRUE(p.ok) << p.err;
  EXPECT_FALSE(p.verbose);
  EXPECT_EQ(p.pos, std::vector<std::string>({"dir", "-verbose"}));
}

}  // namespace
}  // namespace gordian::util
