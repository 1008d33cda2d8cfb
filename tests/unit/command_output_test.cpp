#include "text/command_output.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

TEST(CommandOutput, ColoursTitlesAndCursorMovesGo) {
    EXPECT_EQ(plain_output("\x1b[1;31mFAIL\x1b[0m: test_x\n"), "FAIL: test_x\n");
    EXPECT_EQ(plain_output("\x1b]0;title\x07ok\n\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n"),
              "ok\nlink\n");
    EXPECT_EQ(plain_output("a\x1b[2Kb\x1b(Bc\x1b=d"), "abcd");
    EXPECT_EQ(plain_output("cut \x1b["), "cut ") << "a sequence cut short at the end";
}

TEST(CommandOutput, AProgressBarShowsAsItEnded) {
    EXPECT_EQ(plain_output("10%\r50%\r100%\ndone\r\n"), "100%\ndone\n");
    EXPECT_EQ(plain_output("line\r\n"), "line\n");
    EXPECT_EQ(plain_output("ab\bc é\bx"), "ac x");
    EXPECT_EQ(plain_output("tab\there\x01\x7f\n"), "tab\there\n");
}

TEST(CommandOutput, TheLastLinesSayHowManyCameBefore) {
    OutputTail tail = last_lines("1\n2\n3\n4\n", 2);
    EXPECT_EQ(tail.hidden, 2u);
    ASSERT_EQ(tail.lines.size(), 2u);
    EXPECT_EQ(tail.lines[0], "3");
    EXPECT_EQ(tail.lines[1], "4");
    EXPECT_EQ(last_lines("only", 5).hidden, 0u);
    EXPECT_TRUE(last_lines("", 5).lines.empty());
}

TEST(CommandOutput, ATailStartsAtALineOrACharacter) {
    EXPECT_EQ(output_tail("short", 10), "short");
    EXPECT_EQ(output_tail("first line\nsecond\n", 10), "second\n");
    EXPECT_EQ(output_tail("ééééé", 5), "éé") << "never inside a character";
}

} // namespace
} // namespace rio
