#include "cli/terminal_safe.hpp"
#include "text/utf8.hpp"

#include <gtest/gtest.h>
#include <string>

namespace rio::md {
namespace {

TEST(TerminalSafe, ControlsBecomeTheirPictures) {
    EXPECT_EQ(terminal_safe("a\x1b[31mb\x07", Whitespace::inline_text), "a␛[31mb␇");
    EXPECT_EQ(terminal_safe(std::string("\0\x7f", 2), Whitespace::code), "␀␡");
    EXPECT_EQ(terminal_safe("\xC2\x85\xC2\x9B", Whitespace::code), "\uFFFD\uFFFD") << "C1 controls";
    EXPECT_EQ(terminal_safe("é漢😀", Whitespace::code), "é漢😀");
}

TEST(TerminalSafe, TheResultIsValidUtf8) {
    std::string out = terminal_safe("a\xFF\xE6\xBC", Whitespace::inline_text);
    EXPECT_EQ(find_invalid_utf8(out), std::nullopt);
    EXPECT_EQ(out, "a\uFFFD\uFFFD");
}

TEST(TerminalSafe, InlineTextTurnsTabsAndLineBreaksIntoSpaces) {
    EXPECT_EQ(terminal_safe("a\tb\nc\r\nd", Whitespace::inline_text), "a b c  d");
}

TEST(TerminalSafe, CodeExpandsTabsToStopsOfFourByDisplayColumn) {
    EXPECT_EQ(terminal_safe("\tx", Whitespace::code), "    x");
    EXPECT_EQ(terminal_safe("ab\tx\ty", Whitespace::code), "ab  x   y");
    EXPECT_EQ(terminal_safe("漢\tx", Whitespace::code), "漢  x");
    EXPECT_EQ(terminal_safe("e\u0301\tx", Whitespace::code), "e\u0301   x");
    EXPECT_EQ(terminal_safe("\x1b\tx", Whitespace::code), "␛   x") << "a picture is a column";
    EXPECT_EQ(terminal_safe("a\r", Whitespace::code), "a␍");
}

} // namespace
} // namespace rio::md
