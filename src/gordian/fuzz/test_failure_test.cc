// Tests of FailureExcerpt (test_failure.h) on go test's own output.
#include "gordian/fuzz/test_failure.h"

#include <gtest/gtest.h>

namespace gordian::fuzz {
namespace {

const char* kOutput =
    "=== RUN   TestOther\n"
    "--- FAIL: TestOther (0.00s)\n"
    "    a_test.go:9: not this one\n"
    "--- FAIL: TestOne (0.00s)\n"
    "    a_test.go:3: hello\n"
    "    a_test.go:3: got 3, want 4\n"
    "--- FAIL: TestSub (0.00s)\n"
    "    --- FAIL: TestSub/x (0.00s)\n"
    "        a_test.go:4: sub bad\n"
    "--- FAIL: TestTwo (0.00s)\n"
    "panic: boom [recovered, repanicked]\n"
    "\n"
    "goroutine 18 [running]:\n"
    "FAIL\n";

TEST(FailureExcerpt, TheTestsOwnLinesOnly) {
  EXPECT_EQ(FailureExcerpt(kOutput, "TestOne"),
            "--- FAIL: TestOne (0.00s)\n"
            "    a_test.go:3: hello\n"
            "    a_test.go:3: got 3, want 4");
  EXPECT_EQ(FailureExcerpt(kOutput, "TestSub"),
            "--- FAIL: TestSub (0.00s)\n"
            "    --- FAIL: TestSub/x (0.00s)\n"
            "        a_test.go:4: sub bad");
}

TEST(FailureExcerpt, APanicLineFollows) {
  EXPECT_EQ(FailureExcerpt(kOutput, "TestTwo"),
            "--- FAIL: TestTwo (0.00s)\n"
            "panic: boom [recovered, repanicked]");
}

TEST(FailureExcerpt, NoLineNoExcerptAndAPrefixIsNotTheTest) {
  EXPECT_EQ(FailureExcerpt(kOutput, "TestMissing"), "");
  EXPECT_EQ(FailureExcerpt(kOutput, "TestOn"), "");
  EXPECT_EQ(FailureExcerpt("", "TestOne"), "");
}

TEST(FailureExcerpt, AtMostMaxLines) {
  EXPECT_EQ(FailureExcerpt(kOutput, "TestOne", 2),
            "--- FAIL: TestOne (0.00s)\n"
            "    a_test.go:3: hello");
}

}  // namespace
}  // namespace gordian::fuzz
