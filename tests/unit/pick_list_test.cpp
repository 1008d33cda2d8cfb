#include "cli/pick_list.hpp"
#include "cli/spinner.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

TEST(PickList, EntriesAreNumberedFromOneAligned) {
    std::vector<PickEntry> entries(10, PickEntry{"plan", ""});
    entries[0] = {"Friendlier greeting", "approved · .rio/plans/a.md"};
    std::string text = pick_list_text(entries, false);
    EXPECT_EQ(text.substr(0, text.find('\n')),
              " 1. Friendlier greeting  approved · .rio/plans/a.md");
    EXPECT_NE(text.find("\n10. plan\n"), std::string::npos);
}

TEST(PickList, AnAnswerPicksByNumberOrSaysWhatIsWrong) {
    EXPECT_EQ(read_pick(" 2 ", 3).index, 1u);
    EXPECT_FALSE(read_pick("", 3).index);
    EXPECT_EQ(read_pick("", 3).problem, "") << "none picked is no problem";
    EXPECT_EQ(read_pick("4", 3).problem, "there is no 4 (1 to 3)");
    EXPECT_EQ(read_pick("0", 3).problem, "there is no 0 (1 to 3)");
    EXPECT_EQ(read_pick("two", 3).problem, "type a number from the list, or Enter for none");
    EXPECT_EQ(read_pick("2x", 3).problem, "type a number from the list, or Enter for none");
}

TEST(Spinner, TheBusyLineSaysWhatAndHowLong) {
    using namespace std::chrono_literals;
    EXPECT_EQ(spinner_text(0, "reading greet.py", 3400ms, 80), "⠋ reading greet.py · 3s");
    EXPECT_EQ(spinner_text(11, "waiting for the model", 65s, 80),
              "⠙ waiting for the model · 1m 05s");
    EXPECT_EQ(spinner_text(0, "running make test-everything", 1s, 20), "⠋ running mak… · 1s")
        << "cut to fit, never wrapped by the terminal";
    EXPECT_EQ(spinner_text(0, "a\x1b[2Jb", 1s, 80), "⠋ a\\e[2Jb · 1s");
}

} // namespace
} // namespace rio
