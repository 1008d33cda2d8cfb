#include "cli/terminal_safe.hpp"
#include "text/utf8.hpp"

#include <gtest/gtest.h>
#include <string>

namespace rio::md {
namespace {

// Issue 26, break B: an argv of `sh -c 'touch PWNED #\r\e[2K\e[1A\r\e[2KRun \e[1m$ make
// test'` showed only "Run $ make test" above the question. Every control is visible now.
TEST(TerminalSafe, ControlsAreShownVisibly) {
    EXPECT_EQ(terminal_safe("a\x1b[31mb\x07", Whitespace::inline_text), "a\\e[31mb^G");
    EXPECT_EQ(terminal_safe(std::string("\0\x7f", 2), Whitespace::code), "^@^?");
    EXPECT_EQ(terminal_safe("\xC2\x85\xC2\x9B", Whitespace::code), "\\u0085\\u009b")
        << "C1 controls";
    EXPECT_EQ(terminal_safe("é漢😀", Whitespace::code), "é漢😀");
    EXPECT_EQ(terminal_safe("x\r\x1b[2K\x1b[1ARun", Whitespace::code), "x^M\\e[2K\\e[1ARun");
}

TEST(TerminalSafe, BidirectionalOverridesAreShownNotObeyed) {
    EXPECT_EQ(terminal_safe("rm \u202Efdp.exe", Whitespace::inline_text), "rm \\u202efdp.exe");
    EXPECT_EQ(terminal_safe("a\u2066b\u2069", Whitespace::code), "a\\u2066b\\u2069");
}

TEST(TerminalSafe, TheResultIsValidUtf8) {
    std::string out = terminal_safe("a\xFF\xE6\xBC", Whitespace::inline_text);
    EXPECT_EQ(find_invalid_utf8(out), std::nullopt);
    EXPECT_EQ(out, "a\uFFFD\uFFFD");
}

TEST(TerminalSafe, InlineTextTurnsTabsAndLineBreaksIntoSpaces) {
    EXPECT_EQ(terminal_safe("a\tb\nc\r\nd", Whitespace::inline_text), "a b c  d");
}

TEST(TerminalSafe, ABlockKeepsItsLinesAndShowsALoneCarriageReturn) {
    EXPECT_EQ(terminal_safe("one\r\ntwo\n\tthree", Whitespace::block), "one\ntwo\n\tthree");
    EXPECT_EQ(terminal_safe("fake\rreal\x1b]0;t\x07", Whitespace::block), "fake^Mreal\\e]0;t^G");
}

TEST(TerminalSafe, CodeExpandsTabsToStopsOfFourByDisplayColumn) {
    EXPECT_EQ(terminal_safe("\tx", Whitespace::code), "    x");
    EXPECT_EQ(terminal_safe("ab\tx\ty", Whitespace::code), "ab  x   y");
    EXPECT_EQ(terminal_safe("漢\tx", Whitespace::code), "漢  x");
    EXPECT_EQ(terminal_safe("e\u0301\tx", Whitespace::code), "e\u0301   x");
    EXPECT_EQ(terminal_safe("\x1b\tx", Whitespace::code), "\\e  x") << "\\e is two columns";
    EXPECT_EQ(terminal_safe("a\r", Whitespace::code), "a^M");
}

TEST(TerminalSafe, ShownIsOneLineAndHasControlsSaysWhetherItChangedAnything) {
    EXPECT_EQ(shown("make\ttest\r\n"), "make^Itest^M^J");
    EXPECT_FALSE(has_controls("make test é漢"));
    EXPECT_TRUE(has_controls("make\ttest"));
    EXPECT_TRUE(has_controls("x\x1b"));
    EXPECT_TRUE(has_controls("\xC2\x9B"));
    EXPECT_TRUE(has_controls("\u202E"));
}

} // namespace
} // namespace rio::md
