// Tests of the duration flags' parser: Go's syntax, plain seconds, and a
// clear refusal of what would overflow (-wall inf, 1e18 and 9999999999 used
// to kill the run at once with a misleading message).
#include "gordian/util/duration.h"

#include <gtest/gtest.h>

namespace gordian::util {
namespace {

double Parse(std::string_view s) {
  double v = -1;
  std::string err;
  EXPECT_TRUE(ParseDuration(s, &v, &err)) << s << ": " << err;
  return v;
}

std::string Refused(std::string_view s) {
  double v = -1;
  std::string err;
  EXPECT_FALSE(ParseDuration(s, &v, &err)) << s << " gave " << v;
  EXPECT_EQ(v, -1) << "nothing is written on failure";
  return err;
}

TEST(Duration, GoSyntax) {
  EXPECT_DOUBLE_EQ(Parse("300ms"), 0.3);
  EXPECT_DOUBLE_EQ(Parse("1.5s"), 1.5);
  EXPECT_DOUBLE_EQ(Parse("2m"), 120);
  EXPECT_DOUBLE_EQ(Parse("1h30m"), 5400);
  EXPECT_DOUBLE_EQ(Parse("1m30.5s"), 90.5);
  EXPECT_DOUBLE_EQ(Parse("250us"), 250e-6);
  EXPECT_DOUBLE_EQ(Parse("250\xc2\xb5s"), 250e-6);
  EXPECT_DOUBLE_EQ(Parse("10ns"), 10e-9);
  EXPECT_DOUBLE_EQ(Parse("0"), 0);
  EXPECT_DOUBLE_EQ(Parse("+5s"), 5);
  EXPECT_DOUBLE_EQ(Parse(".5s"), 0.5);
}

TEST(Duration, PlainSecondsAsAWholeValue) {
  EXPECT_DOUBLE_EQ(Parse("90"), 90);
  EXPECT_DOUBLE_EQ(Parse("2.5"), 2.5);
  Refused("1m30");  // a number without unit only alone
}

TEST(Duration, RefusesWhatCannotBeRepresented) {
  EXPECT_NE(Refused("inf").find("expected a duration"), std::string::npos);
  Refused("nan");
  Refused("1e18");
  EXPECT_NE(Refused("9999999999").find("longer than 8760h"), std::string::npos);
  EXPECT_NE(Refused("9999999999h").find("longer than 8760h"), std::string::npos);
  Refused("100000000000000000000000000000000000000000000000000000000000000000000000h");
  EXPECT_NE(Refused("-1s").find("negative"), std::string::npos);
  Refused("");
  Refused("s");
  Refused("soon");
  Refused("10 s");
  Refused("10sx");
  Refused("1d");
}

TEST(Duration, OneYearIsTheLimit) {
  EXPECT_DOUBLE_EQ(Parse("8760h"), kMaxDurationSeconds);
  Refused("8760h1s");
}

}  // namespace
}  // namespace gordian::util
