// client::TerminalScreen (decision 0093): what libvterm makes of a program's output and what
// each key, paste and click sends back, in the modes the program asked for.
#include "client/terminal_screen.hpp"

#include <gtest/gtest.h>

namespace rio::client {
namespace {

TEST(TerminalScreen, KeysSendWhatAShellExpectsAndApplicationModeChangesTheArrows) {
    TerminalScreen screen(5, 20);
    EXPECT_EQ(screen.press(TerminalKey::enter, {}), "\r");
    EXPECT_EQ(screen.press(TerminalKey::up, {}), "\x1b[A");
    EXPECT_EQ(screen.type(U'c', {.ctrl = true}), "\x03");
    EXPECT_EQ(screen.type(U'b', {.alt = true}), "\x1b"
                                                "b");
    EXPECT_EQ(screen.type(U'é', {}), "\xC3\xA9");
    screen.feed("\x1b[?1h"); // application cursor keys (less, vim)
    EXPECT_EQ(screen.press(TerminalKey::up, {}), "\x1bOA");
}

TEST(TerminalScreen, APasteIsBracketedOnlyWhenTheProgramAskedForIt) {
    TerminalScreen screen(5, 20);
    EXPECT_EQ(screen.paste("rm -rf x\n"), "rm -rf x\n");
    screen.feed("\x1b[?2004h");
    EXPECT_EQ(screen.paste("rm -rf x\n"), "\x1b[200~rm -rf x\n\x1b[201~");
}

TEST(TerminalScreen, TheMouseGoesToAProgramThatAskedForIt) {
    TerminalScreen screen(5, 20);
    EXPECT_FALSE(screen.wants_mouse());
    EXPECT_EQ(screen.mouse_button(1, 2, 1, true, {}), "");
    screen.feed("\x1b[?1000h");
    EXPECT_TRUE(screen.wants_mouse());
    // X10 encoding: button 0 pressed at column 3, row 2 (each plus 32, from 1).
    EXPECT_EQ(screen.mouse_button(1, 2, 1, true, {}), "\x1b[M #\"");
}

TEST(TerminalScreen, ScrollbackKeepsTheLinesThatLeftTheTopUpToItsBound) {
    TerminalScreen screen(3, 10, 4);
    for (int i = 1; i <= 9; ++i)
        screen.feed(std::to_string(i) + "\r\n");
    // 1…7 went off the top (the cursor is on an empty last row); the newest 4 are kept.
    ASSERT_EQ(screen.scrollback().size(), 4u);
    EXPECT_EQ(TerminalScreen::line_text(screen.scrollback().front()), "4");
    EXPECT_EQ(TerminalScreen::line_text(screen.scrollback().back()), "7");
    EXPECT_EQ(screen.row_text(0), "8");
    EXPECT_EQ(screen.row_text(1), "9");
    EXPECT_EQ(screen.row_text(2), "");
}

TEST(TerminalScreen, AResizeCutsLongLinesWithoutReflowAndAnswersQueries) {
    TerminalScreen screen(3, 10);
    screen.feed("abcdefgh");
    screen.resize(3, 4);
    EXPECT_EQ(screen.cols(), 4);
    EXPECT_EQ(screen.row_text(0), "abcd");
    // A program asking where the cursor is gets the answer to send back.
    EXPECT_EQ(screen.feed("\x1b[2;3H\x1b[6n"), "\x1b[2;3R");
    // Wide characters take two cells, the second of width 0.
    screen.feed("\x1b[3;1H\xE4\xB8\xAD");
    EXPECT_EQ(screen.cell(2, 0).width, 2);
    EXPECT_EQ(screen.cell(2, 1).width, 0);
    EXPECT_EQ(screen.row_text(2), "\xE4\xB8\xAD");
}

} // namespace
} // namespace rio::client
